package dev.meshbench.graph;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One step of a service's script: a call to another service, a sleep, or a group of calls and sleeps run
 * concurrently (the request waits for all of them).
 */
public sealed interface Step {

    /**
     * A POST to another service of the graph.
     *
     * @param service the callee's name
     * @param size    bytes of request body sent; empty means the callee's {@link GraphService#requestSize()}
     *                (see {@link ServiceGraph#requestSize(Call)})
     */
    record Call(String service, OptionalLong size) implements Step {
        public Call {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(size, "size");
            if (size.isPresent() && size.getAsLong() < 0) {
                throw new IllegalArgumentException("call to " + service + ": size " + size.getAsLong() + " is negative");
            }
        }

        /** A call that sends the callee's default request size. */
        public static Call of(String service) {
            return new Call(service, OptionalLong.empty());
        }
    }

    /** Waits this long (the request holds its thread meanwhile). */
    record Sleep(Duration duration) implements Step {
        public Sleep {
            Objects.requireNonNull(duration, "duration");
            if (duration.isNegative()) {
                throw new IllegalArgumentException("sleep " + duration + " is negative");
            }
        }
    }

    /** Calls and sleeps started together; the step ends when the last one ends. Holds no nested groups. */
    record Concurrent(List<Step> steps) implements Step {
        public Concurrent {
            steps = List.copyOf(steps);
            if (steps.isEmpty()) {
                throw new IllegalArgumentException("a concurrent group needs at least one step");
            }
            for (Step s : steps) {
                if (s instanceof Concurrent) {
                    throw new IllegalArgumentException("a concurrent group holds calls and sleeps, not other groups");
                }
            }
        }
    }
}
