package dev.meshbench.orchestrator.latency;

import dev.meshbench.orchestrator.latency.load.LoadGenerator;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoadSpec;
import dev.meshbench.results.LoadPhase;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The kit's own load generator ({@link LoadGenerator}) in this JVM, as the latency runner's load (the egress study's is
 * JMeter as a child process, {@code JMeterLoad}): a closed loop
 * for the maximum rate, an open loop with latencies from intended send times for the rest. Its result becomes the
 * results schema's {@link LoadPhase}.
 */
public final class InProcessLoad implements LatencyRunner.Load {
    /** What results record as the generator. */
    public static final String DESCRIPTION = "meshbench open-loop generator (HTTP/1.1 keep-alive, one global schedule, "
            + "latency from intended send time, HdrHistogram)";

    @Override
    public LoadPhase run(List<URI> targets, int connections, Duration duration, OptionalDouble rate, Consumer<String> progress)
            throws InterruptedException {
        LoadSpec spec = LoadSpec.of(targets).withConnections(connections).withDuration(duration);
        if (rate.isPresent()) {
            spec = spec.withRate(rate.getAsDouble());
        }
        return phase(LoadGenerator.run(spec, progress));
    }

    @Override
    public String describe() {
        return DESCRIPTION;
    }

    /** The results schema's view of a generator run. */
    public static LoadPhase phase(LoadResult r) {
        Map<String, Long> errors = new TreeMap<>();
        r.errors().byStatus().forEach((status, n) -> errors.put("http-" + status, n));
        put(errors, "connect", r.errors().connect());
        put(errors, "timeout", r.errors().timeout());
        put(errors, "io", r.errors().io());
        LoadResult.Latency l = r.latency();
        LoadResult.ScheduleKeeping s = r.schedule().orElse(null);
        return new LoadPhase(r.spec().connections(), r.elapsed().toNanos() / 1e9, r.requests(), errors,
                r.targetRate().isPresent() ? r.targetRate().getAsDouble() : null, r.achievedRate(), l.p50(), l.p90(), l.p99(), l.p999(),
                l.max(), l.mean(), s == null ? 0 : s.lateSends(), s == null ? 0 : s.maxSendLagMs(), s == null ? 0 : s.missed(),
                s != null && s.fellBehind(), s != null && s.fellBehind() ? s.reason() : null, serviceTime(r), r.latencyHistogram());
    }

    /** Open loop only: in a closed loop every request is sent when due, so its service time is its latency. */
    private static LoadPhase.ServiceTime serviceTime(LoadResult r) {
        if (r.targetRate().isEmpty()) {
            return null;
        }
        LoadResult.Latency t = r.serviceTime();
        return new LoadPhase.ServiceTime(t.p50(), t.p90(), t.p99(), t.p999());
    }

    private static void put(Map<String, Long> errors, String kind, long n) {
        if (n > 0) {
            errors.put(kind, n);
        }
    }
}
