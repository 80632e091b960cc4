package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClusterOpsEventTimeTest {
    @Test
    @DisplayName("an event's time: lastTimestamp, else eventTime (events.k8s.io, e.g. the scheduler's), else firstTimestamp")
    void whenAnEventHappened() {
        Event old = new EventBuilder().withLastTimestamp("2026-11-27T15:00:00Z").build();
        Event scheduler = new EventBuilder().withEventTime(new MicroTime("2026-11-27T15:27:30.123456Z")).build();
        Event first = new EventBuilder().withFirstTimestamp("2026-11-27T14:00:00Z").build();
        assertEquals("2026-11-27T15:00:00Z", ClusterOps.when(old));
        assertEquals("2026-11-27T15:27:30.123456Z", ClusterOps.when(scheduler));
        assertEquals("2026-11-27T14:00:00Z", ClusterOps.when(first));
        assertEquals("", ClusterOps.when(new Event()));
        // Newest first, as the message orders them: the scheduler's event is no longer last.
        assertTrue(ClusterOps.when(scheduler).compareTo(ClusterOps.when(old)) > 0);
    }

    @Test
    @DisplayName("an event concerns a Deployment when it names it, one of its ReplicaSets or one of its pods")
    void concerns() {
        Event pod = new EventBuilder().withNewInvolvedObject().withKind("Pod").withName("stuck-76c65dd46-cmkdz").endInvolvedObject().build();
        Event other = new EventBuilder().withNewInvolvedObject().withKind("Pod").withName("stuckish-1").endInvolvedObject().build();
        assertTrue(ClusterOps.concerns(pod, "stuck"));
        assertTrue(!ClusterOps.concerns(other, "stuck") && !ClusterOps.concerns(new Event(), "stuck"));
    }
}
