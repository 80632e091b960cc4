package dev.meshbench.orchestrator.local;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A stand-in component process for supervisor tests: a real JVM with a real listening socket that behaves as
 * told by its first argument: {@code ready}, {@code crash} (exit 2 before ready), {@code hang} (never ready),
 * {@code die-later} (ready, then exit 3 after a moment), {@code die-noisy} (ready, then errors amid other lines, exit 1).
 */
public final class FakeComponentMain {
    private FakeComponentMain() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String name = args.length > 1 ? args[1] : "fake";
        if (java.util.Arrays.asList(args).contains("--exit-on-stdin-eof")) {
            ComponentMain.exitWhenStdinCloses(name);
        }
        switch (mode) {
            case "crash" -> {
                System.err.println(name + ": listening on 127.0.0.1:1 failed: Address already in use");
                System.exit(2);
            }
            case "hang" -> Thread.sleep(60_000);
            default -> {
                try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                    ReadyLine.of(name, "address", "127.0.0.1:" + s.getLocalPort()).print();
                    if (mode.equals("die-noisy")) {
                        System.err.println("[warning] a start-up notice that explains nothing");
                        System.err.println(name + ": ERROR upstream 127.0.0.1:1 refused the connection");
                        System.err.println("java.lang.IllegalStateException: " + "x".repeat(1000));
                        System.err.println("\tat dev.meshbench.Some.frame(Some.java:1)");
                        System.err.println(name + ": shutting down");
                        System.exit(1);
                    }
                    if (mode.equals("die-later")) {
                        Thread.sleep(300);
                        System.err.println(name + ": upstream lost");
                        System.exit(3);
                    }
                    Thread.sleep(120_000);
                }
            }
        }
    }
}
