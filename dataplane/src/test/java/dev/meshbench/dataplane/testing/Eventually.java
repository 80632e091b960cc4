package dev.meshbench.dataplane.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for asynchronous effects (a close travelling through hops) without fixed sleeps. */
public final class Eventually {
    private Eventually() {
    }

    public static void await(String what, BooleanSupplier condition) {
        await(what, condition, () -> "");
    }

    public static void await(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what + " " + state.get());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + what);
            }
        }
    }
}
