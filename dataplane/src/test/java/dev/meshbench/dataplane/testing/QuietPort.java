package dev.meshbench.dataplane.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port nothing listens on now, below the kernel's ephemeral range (from 32768 on Linux), for a listener a test
 * binds and later closes to see the port refuse. A port bound on 0 would not do: once closed it is back in the ephemeral
 * range, where another build's server on port 0 or an outgoing connection can take it before the test connects, and the
 * test's "refused" then meets someone else's socket. Only a listener choosing its own port the same way could race for
 * this one.
 */
public final class QuietPort {
    private QuietPort() {
    }

    public static int pick() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), candidate), 1);
                return candidate;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new AssertionError("no free loopback port between 20000 and 32000");
    }
}
