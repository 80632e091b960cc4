package dev.meshbench.orchestrator.kubernetes.prometheus;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the CPU of a deployment's containers from Prometheus a little at a time, for a target to call every few
 * seconds: each {@link #poll} runs one {@code query_range} of the CPU query from a little before the end of the
 * previous one up to now and returns only the samples it has not returned before, so the rows written to
 * {@code cpu-samples.csv} are never repeated.
 *
 * <ul>
 *   <li>Evaluation times lie on a fixed grid, the multiples of {@code step} since the epoch, so every poll sees a
 *       series at the same times. A poll before the next grid time asks nothing.</li>
 *   <li>Each poll starts {@code overlap} before the previous poll's end (the first at {@code since}): a series
 *       whose first scrape reached Prometheus after the previous poll still shows from where it began. Per series
 *       (per {@link ContainerCpu#pid pid}), only points strictly newer than the newest one returned are returned.
 *       </li>
 *   <li>A range query gives each series, at each grid time, the counter's latest scraped value (up to Prometheus's
 *       lookback, 5 minutes by default, or until the series went stale). So CPU shows up to one scrape interval
 *       after it was used, and a point once returned is not corrected by a scrape that arrives later: window
 *       edges can be off by one scrape interval's CPU.</li>
 *   <li>A failed query changes nothing: the next poll asks for the same range again (up to its own now). A range
 *       longer than {@value #MAX_POINTS} steps is cut to its last {@value #MAX_POINTS} steps, with a warning
 *       (Prometheus refuses more than 11,000 points per series).</li>
 * </ul>
 * Safe to call from several threads.
 */
public final class PrometheusCpuSampler {
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusCpuSampler.class);
    /** The most evaluation steps one poll asks for. */
    static final int MAX_POINTS = 10_000;

    private final PrometheusClient client;
    private final String promql;
    private final Duration step;
    private final long stepMs;
    private final long overlapMs;
    private final long sinceMs;
    private final ContainerCpu containers;

    private Long lastEndMs;
    private final Map<Long, Long> newestByPid = new HashMap<>();
    private final Set<Component> seen = new HashSet<>();

    /**
     * @param client     the Prometheus to ask
     * @param promql     the CPU query, a selector of {@link ContainerCpu#METRIC} such as {@link ContainerCpu#query}
     * @param step       the evaluation step, whole milliseconds, at least 1 ms; about the scrape interval
     *                   (cAdvisor's is often 10 to 30 s): shorter only repeats values
     * @param overlap    how far before the previous poll's end each poll starts; not negative
     * @param since      where the first poll starts, e.g. when the deployment started
     * @param containers places series on components and makes samples of them
     */
    public PrometheusCpuSampler(PrometheusClient client, String promql, Duration step, Duration overlap, Instant since,
            ContainerCpu containers) {
        this.client = Objects.requireNonNull(client, "client");
        this.promql = Objects.requireNonNull(promql, "promql");
        if (promql.isBlank()) {
            throw new IllegalArgumentException("CPU query (promql) must not be blank");
        }
        this.step = Objects.requireNonNull(step, "step");
        if (step.toMillis() < 1 || !step.equals(Duration.ofMillis(step.toMillis()))) {
            throw new IllegalArgumentException("CPU query step (" + step + ") must be a whole number of milliseconds, "
                    + "at least 1");
        }
        this.stepMs = step.toMillis();
        Objects.requireNonNull(overlap, "overlap");
        if (overlap.isNegative()) {
            throw new IllegalArgumentException("CPU query overlap (" + overlap + ") must not be negative");
        }
        this.overlapMs = overlap.toMillis();
        this.sinceMs = Objects.requireNonNull(since, "since").toEpochMilli();
        this.containers = Objects.requireNonNull(containers, "containers");
    }

    /**
     * Asks Prometheus for the CPU up to {@code now} and returns the samples not returned before, sorted by time,
     * component and pid; empty when {@code now} has not reached the next grid time.
     *
     * @throws PrometheusException when the query fails; nothing is lost, the next poll asks again
     */
    public synchronized List<ResourceSample> poll(Instant now) {
        long endMs = Math.floorDiv(Objects.requireNonNull(now, "now").toEpochMilli(), stepMs) * stepMs;
        long startMs = Math.floorDiv(lastEndMs == null ? sinceMs : lastEndMs - overlapMs, stepMs) * stepMs;
        if (lastEndMs == null) {
            if (endMs < startMs) {
                return List.of();
            }
        } else if (endMs <= lastEndMs) {
            return List.of();
        }
        if ((endMs - startMs) / stepMs > MAX_POINTS) {
            long cut = endMs - MAX_POINTS * stepMs;
            LOG.warn("{}: CPU since {} would be {} steps of {}; asking only from {}", client, Instant.ofEpochMilli(startMs),
                    (endMs - startMs) / stepMs, step, Instant.ofEpochMilli(cut));
            startMs = cut;
        }
        List<Series> series = client.queryRange(promql, Instant.ofEpochMilli(startMs), Instant.ofEpochMilli(endMs), step);
        lastEndMs = endMs;
        List<ResourceSample> fresh = new ArrayList<>();
        for (ResourceSample s : containers.samples(series)) {
            Long newest = newestByPid.get(s.pid());
            if (newest == null || s.epochMs() > newest) {
                newestByPid.put(s.pid(), s.epochMs());
                seen.add(s.component());
                fresh.add(s);
            }
        }
        LOG.debug("{}: {} series, {} new samples in [{}, {}]", client, series.size(), fresh.size(), startMs, endMs);
        return fresh;
    }

    /**
     * Those of {@code expected}, in their order, that no poll has returned a sample of yet: no series placed on
     * them, or only points without a usable value.
     */
    public synchronized List<Component> missing(Collection<Component> expected) {
        Objects.requireNonNull(expected, "expected");
        return expected.stream().filter(c -> !seen.contains(c)).toList();
    }
}
