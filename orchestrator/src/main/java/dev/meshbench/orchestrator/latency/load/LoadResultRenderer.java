package dev.meshbench.orchestrator.latency.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.latency.load.LoadResult.Latency;
import dev.meshbench.orchestrator.latency.load.LoadResult.ScheduleKeeping;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;

/** A {@link LoadResult} as a short summary for people (like fortio's) and as JSON; both pure functions of it. */
public final class LoadResultRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private LoadResultRenderer() {
    }

    /** A few lines: what ran, requests and rate, errors, percentiles, and for an open loop the schedule. */
    public static String text(LoadResult r) {
        LoadSpec spec = r.spec();
        StringBuilder b = new StringBuilder();
        String what = spec.describe();
        b.append(Character.toUpperCase(what.charAt(0))).append(what.substring(1)).append('\n');
        b.append("Ended after ").append(Figures.seconds(r.elapsed())).append(": ").append(r.requests()).append(" requests, ")
                .append(Figures.number(r.achievedRate())).append(" req/s");
        r.targetRate().ifPresent(t -> b.append(" (target ").append(Figures.number(t)).append(", ")
                .append(Figures.percent(r.achievedRate() / t)).append(")"));
        b.append("; ").append(r.ok()).append(" ok");
        if (r.requests() > 0) {
            b.append(" (").append(Figures.percent((double) r.ok() / r.requests())).append(")");
        }
        b.append(", errors: ").append(r.errors().describe()).append('\n');
        if (spec.openLoop()) {
            latency(b, "Latency ms, from the due time on the schedule to the end of the answer", r.latency());
            latency(b, "Service time ms, from the actual send (what a tool prone to coordinated omission reports)", r.serviceTime());
            ScheduleKeeping s = r.schedule().orElseThrow();
            b.append("Schedule: ").append(s.sent()).append(" of ").append(s.scheduled()).append(" sent, ").append(s.lateSends())
                    .append(" late (> ").append(Figures.number(s.lateThresholdMs())).append(" ms), max send lag ")
                    .append(Figures.number(s.maxSendLagMs())).append(" ms, ").append(s.missed()).append(" missed\n");
            b.append("Fell behind: ").append(s.fellBehind() ? "YES, " : "no, ").append(s.reason()).append('\n');
        } else {
            latency(b, "Latency ms, from the send to the end of the answer", r.latency());
        }
        return b.toString();
    }

    /** The result as JSON, with its spec and both histograms (microseconds, compressed, base64). */
    public static String json(LoadResult r) {
        ObjectNode root = JSON.createObjectNode();
        LoadSpec spec = r.spec();
        ObjectNode s = root.putObject("spec");
        var targets = s.putArray("targets");
        for (URI t : spec.targets()) {
            targets.add(t.toString());
        }
        s.put("connections", spec.connections());
        s.put("durationSeconds", seconds(spec.duration()));
        if (spec.openLoop()) {
            s.put("ratePerSecond", spec.ratePerSecond().getAsDouble());
        } else {
            s.putNull("ratePerSecond");
        }
        s.put("timeoutSeconds", seconds(spec.timeout()));
        s.put("method", spec.method());
        s.put("requestBodyBytes", spec.requestBodyBytes());
        s.put("warmupSeconds", seconds(spec.warmup()));
        root.put("startedAt", r.startedAt().toString());
        root.put("elapsedSeconds", seconds(r.elapsed()));
        root.put("requests", r.requests());
        root.put("ok", r.ok());
        ObjectNode e = root.putObject("errors");
        e.put("total", r.errors().total());
        ObjectNode byStatus = e.putObject("byStatus");
        r.errors().byStatus().forEach((status, n) -> byStatus.put(Integer.toString(status), n));
        e.put("connect", r.errors().connect());
        e.put("timeout", r.errors().timeout());
        e.put("io", r.errors().io());
        root.put("achievedRate", round(r.achievedRate()));
        latency(root.putObject("latencyMs"), r.latency());
        latency(root.putObject("serviceTimeMs"), r.serviceTime());
        if (r.schedule().isPresent()) {
            ScheduleKeeping k = r.schedule().get();
            ObjectNode o = root.putObject("schedule");
            o.put("targetRate", k.targetRate());
            o.put("scheduled", k.scheduled());
            o.put("sent", k.sent());
            o.put("lateSends", k.lateSends());
            o.put("lateThresholdMs", k.lateThresholdMs());
            o.put("maxSendLagMs", k.maxSendLagMs());
            o.put("missed", k.missed());
            o.put("fellBehind", k.fellBehind());
            o.put("reason", k.reason());
        } else {
            root.putNull("schedule");
        }
        ObjectNode h = root.putObject("histograms");
        h.put("unit", "microseconds");
        h.put("significantDigits", LoadResult.SIGNIFICANT_DIGITS);
        h.put("encoding", "HdrHistogram compressed, base64");
        h.put("latency", r.latencyHistogram());
        h.put("serviceTime", r.serviceTimeHistogram());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void latency(StringBuilder b, String title, Latency l) {
        b.append(title).append(", ").append(l.count()).append(" answers:\n  ").append(l.describe()).append('\n');
    }

    private static void latency(ObjectNode o, Latency l) {
        o.put("count", l.count());
        o.put("p50", l.p50());
        o.put("p90", l.p90());
        o.put("p99", l.p99());
        o.put("p99.9", l.p999());
        o.put("max", l.max());
        o.put("mean", l.mean());
    }

    private static double seconds(Duration d) {
        return round(d.toNanos() / 1e9);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
