package dev.meshbench.orchestrator.local;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/** Readiness checks of components that print no ready line of their own. */
final class Probes {
    private Probes() {
    }

    @FunctionalInterface
    interface Probe {
        boolean passes();
    }

    /** True when a GET answers 200. */
    static boolean httpOk(URI uri) {
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** True when a TCP connection to the port succeeds. */
    static boolean portOpen(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
