package dev.meshbench.component;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * Shared start-up and shut-down for component processes.
 *
 * <ul>
 *   <li>{@link #exitWhenStdinCloses}: a supervised component exits when its parent's pipe closes, so no orphan
 *       survives an orchestrator killed with SIGKILL. The orchestrator passes {@code --exit-on-stdin-eof}.</li>
 *   <li>{@link #fail}: one line on stderr naming the component, the operation and the cause; exit code 2.</li>
 *   <li>{@link #awaitShutdown}: block until SIGINT/SIGTERM, running the close action once.</li>
 * </ul>
 */
public final class ComponentMain {
    /** Exit code of a component that could not start (bad configuration, port in use, peer unreachable). */
    public static final int EXIT_START_FAILED = 2;

    private ComponentMain() {
    }

    /** Starts a daemon thread that calls {@code System.exit(0)} (running shutdown hooks) once stdin reaches EOF. */
    public static void exitWhenStdinCloses(String component) {
        exitWhenClosed(component, System.in);
    }

    static Thread exitWhenClosed(String component, InputStream in) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[256];
            try {
                while (in.read(buf) >= 0) {
                    // discard; only EOF matters
                }
            } catch (IOException ignored) {
                // a broken pipe means the parent is gone, same as EOF
            }
            System.err.println(component + ": parent closed stdin, shutting down");
            System.exit(0);
        }, component + "-stdin-watch");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Prints {@code <component>: <what> failed: <cause>} on stderr and exits with {@link #EXIT_START_FAILED}. */
    public static void fail(String component, String what, Throwable cause) {
        System.err.println(failureLine(component, what, cause));
        System.err.flush();
        System.exit(EXIT_START_FAILED);
    }

    /** {@code <component>: <what> failed: <cause>}, the one line a component prints when it cannot start. */
    public static String failureLine(String component, String what, Throwable cause) {
        return component + ": " + what + " failed" + (cause == null ? "" : ": " + describe(cause));
    }

    /** The message of a throwable and its causes, without stack traces. */
    public static String describe(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null && b.length() < 500; c = c.getCause()) {
            String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
            if (b.indexOf(m) < 0) {
                if (b.length() > 0) {
                    b.append(": ");
                }
                b.append(m);
            }
        }
        return b.toString();
    }

    /** Registers {@code close} as a shutdown hook and blocks until the JVM shuts down. */
    public static void awaitShutdown(String component, Runnable close) {
        CountDownLatch latch = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                close.run();
            } finally {
                latch.countDown();
            }
        }, component + "-shutdown"));
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
