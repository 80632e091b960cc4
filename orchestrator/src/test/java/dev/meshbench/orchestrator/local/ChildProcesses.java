package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Predicate;

/** What the integration tests check after a deployment closed: no component is left running. */
final class ChildProcesses {
    private ChildProcesses() {
    }

    /**
     * Every component is this JVM's child; after close none may survive (the watchdog lives as long as this JVM, on
     * purpose). Gives the ones ending 5 s, then fails naming those left.
     */
    static void assertNoneLeft() throws InterruptedException {
        Predicate<ProcessHandle> component = p -> p.isAlive() && !dev.meshbench.orchestrator.lifetime.Lifeline.isWatchdog(p);
        for (int i = 0; i < 50 && ProcessHandle.current().descendants().anyMatch(component); i++) {
            Thread.sleep(100);
        }
        List<String> alive = ProcessHandle.current().descendants().filter(component)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
        assertEquals(List.of(), alive, "child processes left running");
    }
}
