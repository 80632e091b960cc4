package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds free loopback ports for processes that must be told their port before they start. A port freed after
 * binding port 0 lies in the kernel's ephemeral range, where any outgoing connection may take it before the
 * process binds it; ports below that range are never handed out for outgoing connections, so only another
 * listener could race for them.
 */
final class PortReservations {
    /** Lowest port considered: above the well-known and most registered service ports. */
    static final int LOWEST = 15000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Where Linux and macOS ephemeral ranges start when the kernel does not say (Linux 32768, macOS 49152). */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;

    private PortReservations() {
    }

    /** Free ports below the ephemeral range, one per name, each checked by binding it. */
    static Map<String, Integer> reserve(List<String> names) {
        int high = ephemeralLow() - 1;
        if (high - LOWEST < 1000) {
            throw new TargetException("the kernel's ephemeral port range starts at " + (high + 1)
                    + ", leaving too few ports below it to reserve for " + names);
        }
        Map<String, Integer> ports = new LinkedHashMap<>();
        List<Integer> taken = new ArrayList<>();
        for (String n : names) {
            int port = -1;
            for (int attempt = 0; attempt < 200 && port < 0; attempt++) {
                int candidate = ThreadLocalRandom.current().nextInt(LOWEST, high + 1);
                if (!taken.contains(candidate) && bindable(candidate)) {
                    port = candidate;
                }
            }
            if (port < 0) {
                throw new TargetException("found no free loopback port between " + LOWEST + " and " + high + " for " + n);
            }
            taken.add(port);
            ports.put(n, port);
        }
        return ports;
    }

    static int ephemeralLow() {
        try {
            // Not Files.readString: on JDK 17 it returns a single byte of this /proc file, whose size reads as 0.
            String line;
            try (var in = Files.newBufferedReader(EPHEMERAL_RANGE)) {
                line = in.readLine();
            }
            String[] range = line.trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
