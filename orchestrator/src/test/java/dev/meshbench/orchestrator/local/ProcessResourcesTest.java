package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProcessResourcesTest {
    @Test
    @DisplayName("a component's CPU and memory include its children's (nginx works in workers under its master)")
    void countsDescendants() throws Exception {
        // The parent only waits; its child spins, as nginx's master waits while its workers relay.
        Process parent = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
        try {
            ProcessHandle child = null;
            for (int i = 0; i < 200 && (child == null || ProcessResources.ownCpuMillis(child) < 200); i++) {
                child = parent.toHandle().children().findFirst().orElse(null);
                Thread.sleep(50);
            }
            assertTrue(child != null && ProcessResources.ownCpuMillis(child) >= 200, "the child never ran");
            long parentOnly = ProcessResources.ownCpuMillis(parent.toHandle());
            long childOnly = ProcessResources.ownCpuMillis(child);
            long tree = ProcessResources.cpuMillis(parent.toHandle());
            assertTrue(tree >= parentOnly + childOnly, "tree " + tree + " < parent " + parentOnly + " + child " + childOnly);
            assertTrue(ProcessResources.rssBytes(parent.toHandle()) > ProcessResources.rssBytes(parent.pid()));
        } finally {
            parent.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
            parent.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
