package dev.meshbench.component;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds free loopback ports for listeners whose port must be known before they bind it: a process told its port on
 * its command line, or a test's listener it closes and later expects to refuse. A port freed after binding port 0 lies
 * in the kernel's ephemeral range, where any outgoing connection (or another build's server on port 0) may take it
 * before the listener binds it; ports below that range are never handed out for outgoing connections, so only another
 * listener choosing its own port could race for them.
 */
public final class LoopbackPorts {
    /** Lowest port considered: above the well-known and most registered service ports. */
    public static final int LOWEST = 15000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Where Linux and macOS ephemeral ranges start when the kernel does not say (Linux 32768, macOS 49152). */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;

    private LoopbackPorts() {
    }

    /**
     * Free loopback ports below the ephemeral range, one per name and distinct, each checked by binding it.
     *
     * @throws IllegalStateException when the ephemeral range leaves fewer than 1000 ports above {@link #LOWEST}, or
     *                               no free port was found for a name
     */
    public static Map<String, Integer> reserve(List<String> names) {
        int high = ephemeralLow() - 1;
        if (high - LOWEST < 1000) {
            throw new IllegalStateException("the kernel's ephemeral port range starts at " + (high + 1)
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
                throw new IllegalStateException("found no free loopback port between " + LOWEST + " and " + high + " for " + n);
            }
            taken.add(port);
            ports.put(n, port);
        }
        return ports;
    }

    /**
     * One free loopback port below the ephemeral range, checked by binding it.
     *
     * @throws IllegalStateException as {@link #reserve(List)} does
     */
    public static int pickOne() {
        return reserve(List.of("one listener")).get("one listener");
    }

    /** Where the kernel's ephemeral port range starts: read from /proc on Linux, else 32768. */
    public static int ephemeralLow() {
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
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
