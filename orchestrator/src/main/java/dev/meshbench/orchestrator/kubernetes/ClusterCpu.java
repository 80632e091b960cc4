package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.orchestrator.kubernetes.prometheus.ContainerCpu;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusClient;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusCpuSampler;
import dev.meshbench.orchestrator.kubernetes.prometheus.PrometheusException;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.orchestrator.deploy.TargetException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPU of a deployment's containers from Prometheus, for both studies on a cluster: cAdvisor's
 * {@code container_cpu_usage_seconds_total} of the given namespaces, placed on components by a resolver
 * ({@link ContainerCpu}), read every {@value #STEP_SECONDS} s by {@code query_range} ({@link PrometheusCpuSampler}).
 * Prometheus is {@code meshbench.prometheus.url}, else a port-forward to {@code meshbench.prometheus.service} port
 * 9090. {@link #start} waits until every component has a series.
 */
final class ClusterCpu {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCpu.class);
    /** How long Prometheus may take to show every new container (a few scrape intervals). */
    static final Duration SERIES_WAIT = Duration.ofMinutes(2);
    static final int STEP_SECONDS = 5;
    private static final Duration STEP = Duration.ofSeconds(STEP_SECONDS);

    private final PrometheusCpuSampler sampler;
    private final List<ResourceSample> startSamples;
    /** Samples read while waiting for new series after a switch ({@link #awaitSeries}): the next poll returns them. */
    private final List<ResourceSample> pending = new java.util.ArrayList<>();
    private long lastPollMs;

    private ClusterCpu(PrometheusCpuSampler sampler, List<ResourceSample> startSamples) {
        this.sampler = sampler;
        this.startSamples = List.copyOf(startSamples);
    }

    /** The samples the polls of {@link #start} returned while waiting for every component's series. */
    List<ResourceSample> startSamples() {
        return startSamples;
    }

    /**
     * Connects to Prometheus and waits (up to {@link #SERIES_WAIT}) until it has a series for each of
     * {@code components}; fails naming the components without one and the query.
     *
     * @param since where the first query starts: a little before the deployment began
     */
    static ClusterCpu start(KubernetesSettings settings, PortForwards forwards, List<String> namespaces,
            Function<Map<String, String>, Optional<Component>> resolver, List<Component> components, Instant since) {
        URI url = settings.prometheusUrl().orElseGet(() -> {
            String[] nsName = settings.prometheusService().split("/");
            return forwards.open(nsName[0], nsName[1], 9090, " (Prometheus: set -D" + KubernetesSettings.P_PROMETHEUS_URL + " or -D"
                    + KubernetesSettings.P_PROMETHEUS_SERVICE + ")");
        });
        PrometheusClient prometheus = new PrometheusClient(url, Duration.ofSeconds(20));
        String query = ContainerCpu.query(namespaces);
        PrometheusCpuSampler sampler = new PrometheusCpuSampler(prometheus, query, STEP, Duration.ofSeconds(30), since,
                new ContainerCpu(resolver));
        long deadline = System.nanoTime() + SERIES_WAIT.toNanos();
        List<ResourceSample> seen = new java.util.ArrayList<>();
        while (true) {
            try {
                seen.addAll(sampler.poll(Instant.now()));
            } catch (PrometheusException e) {
                throw new TargetException("reading CPU from Prometheus failed: " + e.getMessage(), e);
            }
            List<Component> missing = sampler.missing(components);
            if (missing.isEmpty()) {
                return new ClusterCpu(sampler, seen);
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("Prometheus at " + url + " returned no series for " + String.join(", ",
                        missing.stream().map(Component::name).toList()) + " after " + SERIES_WAIT.toSeconds() + " s (query: "
                        + query + "); is Prometheus scraping cAdvisor?");
            }
            try {
                Thread.sleep(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("interrupted while waiting for Prometheus's CPU series");
            }
        }
    }

    /**
     * The samples Prometheus has that were not returned before, asked at most every {@value #STEP_SECONDS} s (they
     * only change per scrape anyway; sooner returns nothing); a failed query is logged and asked again next time.
     */
    synchronized List<ResourceSample> poll() {
        long now = System.currentTimeMillis();
        if (now - lastPollMs < STEP.toMillis()) {
            return drainPending(List.of());
        }
        lastPollMs = now;
        try {
            return drainPending(sampler.poll(Instant.ofEpochMilli(now)));
        } catch (PrometheusException e) {
            LOG.warn("CPU poll failed, the next one asks again: {}", e.getMessage());
            return drainPending(List.of());
        }
    }

    private List<ResourceSample> drainPending(List<ResourceSample> fresh) {
        if (pending.isEmpty()) {
            return fresh;
        }
        List<ResourceSample> out = new java.util.ArrayList<>(pending);
        out.addAll(fresh);
        pending.clear();
        return out;
    }

    /**
     * After a switch that added components (case sni's gateway and SNI proxy, Istio's egress gateway): waits (up to
     * {@link #SERIES_WAIT}) until Prometheus has a series for each of {@code components}, keeping what it read for the
     * next {@link #poll}; fails naming the components without one.
     */
    synchronized void awaitSeries(List<Component> components) {
        long deadline = System.nanoTime() + SERIES_WAIT.toNanos();
        while (true) {
            List<Component> missing = sampler.missing(components);
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TargetException("Prometheus returned no CPU series for " + String.join(", ", missing.stream()
                        .map(Component::name).toList()) + " " + SERIES_WAIT.toSeconds() + " s after the switch");
            }
            try {
                Thread.sleep(STEP.toMillis());
                lastPollMs = System.currentTimeMillis();
                pending.addAll(sampler.poll(Instant.ofEpochMilli(lastPollMs)));
            } catch (PrometheusException e) {
                LOG.warn("CPU poll failed while waiting for new series, asking again: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("interrupted while waiting for Prometheus's CPU series after a switch");
            }
        }
    }
}
