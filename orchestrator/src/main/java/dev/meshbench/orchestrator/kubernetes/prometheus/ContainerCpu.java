package dev.meshbench.orchestrator.kubernetes.prometheus;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns series of cAdvisor's {@code container_cpu_usage_seconds_total} (cumulative CPU seconds of one container,
 * labels {@code namespace}, {@code pod}, {@code container}, {@code id}, ...) into the kit's per-component
 * {@link ResourceSample}s, as {@code cpu-samples.csv} holds them.
 *
 * <ul>
 *   <li>Only container series count. Left out before the resolver is asked: series without a {@code container}
 *       label (a pod's or the node's cgroup, which would count its containers twice), the pause container
 *       ({@code container="POD"}) and per-CPU series (a {@code cpu} label other than {@code total}). Series the
 *       resolver cannot place on a component are left out too.</li>
 *   <li>{@code cpuMillis} is the value × 1000, rounded; {@code rssBytes} is -1 (memory is not read here). NaN,
 *       infinite and negative values are skipped.</li>
 *   <li>{@code pid} stands for one container instance: a stable positive 63-bit hash of its {@code namespace},
 *       {@code pod}, {@code container} and {@code id} labels ({@link #pid}). A restarted container gets a new
 *       cgroup, so a new {@code id} label, a new series and a new pid.</li>
 *   <li>A counter that goes down within one series (a reset with the same {@code id}) keeps its pid: the results
 *       converter starts a new process of the same pid where the cumulative value goes down, exactly as it does
 *       for a reused OS pid on the local target. Either way the CPU between the last point before the reset and
 *       the first after it is not counted, and the window's coverage says so.</li>
 *   <li>Several series on one component at once (replicas of the egress gateway) keep their own pids; the
 *       converter adds up a component's processes. It counts them as processes of the component, so its note
 *       calls them a restart.</li>
 *   <li>Two series for the same container instance (the same four labels, as when two scrape jobs read the same
 *       kubelet and differ only in {@code job} or {@code instance}) would interleave two slightly different
 *       counters under one pid, which the converter would take for resets: only the first in label order is
 *       kept, with a warning in the log.</li>
 * </ul>
 */
public final class ContainerCpu {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerCpu.class);
    /** The cAdvisor counter this class reads, in seconds. */
    public static final String METRIC = "container_cpu_usage_seconds_total";
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Comparator<Series> LABEL_ORDER = Comparator.comparing(s -> s.labels().toString());

    private final Function<Map<String, String>, Optional<Component>> resolver;
    private final Set<Long> warnedDuplicates = ConcurrentHashMap.newKeySet();

    /**
     * @param resolver says which component a container series belongs to, from its labels, e.g. pod
     *                 {@code booking-*} container {@code istio-proxy} is {@code sidecar-booking}; empty for a
     *                 series that belongs to none
     */
    public ContainerCpu(Function<Map<String, String>, Optional<Component>> resolver) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /**
     * A PromQL selector of {@link #METRIC} for the containers of {@code namespaces}, leaving out the series this
     * class would leave out anyway: {@code container_cpu_usage_seconds_total{namespace=~"acmeair|istio-system",
     * container!="",container!="POD"}}.
     */
    public static String query(List<String> namespaces) {
        Objects.requireNonNull(namespaces, "namespaces");
        if (namespaces.isEmpty()) {
            throw new IllegalArgumentException("namespaces must name at least one namespace");
        }
        for (String ns : namespaces) {
            if (ns == null || !NAMESPACE.matcher(ns).matches()) {
                throw new IllegalArgumentException("namespace (" + ns + ") must be a Kubernetes namespace name "
                        + "(lower-case letters, digits and '-', at most 63)");
            }
        }
        return METRIC + "{namespace=~\"" + String.join("|", namespaces) + "\",container!=\"\",container!=\"POD\"}";
    }

    /**
     * The samples of every placed container series, sorted by time, then component name, then pid.
     *
     * @param series a range (or instant) query's series of {@link #METRIC}
     */
    public List<ResourceSample> samples(List<Series> series) {
        Objects.requireNonNull(series, "series");
        List<Series> sorted = new ArrayList<>(series);
        sorted.sort(LABEL_ORDER);
        Map<Long, Series> byPid = new HashMap<>();
        List<ResourceSample> samples = new ArrayList<>();
        int unplaced = 0;
        for (Series s : sorted) {
            if (!isContainer(s)) {
                continue;
            }
            Optional<Component> component = Objects.requireNonNull(resolver.apply(s.labels()),
                    () -> "the component resolver answered null for " + s.labels());
            if (component.isEmpty()) {
                unplaced++;
                continue;
            }
            long pid = pid(s.labels());
            Series first = byPid.putIfAbsent(pid, s);
            if (first != null) {
                if (warnedDuplicates.add(pid)) {
                    LOG.warn("two series of {} for one container, {} and {}: keeping the first (two scrape jobs "
                            + "reading the same kubelet?)", METRIC, first.labels(), s.labels());
                }
                continue;
            }
            for (Series.Point p : s.points()) {
                if (!Double.isFinite(p.value()) || p.value() < 0) {
                    LOG.debug("skipping value {} at {} of {}", p.value(), p.epochMs(), s.labels());
                    continue;
                }
                samples.add(new ResourceSample(p.epochMs(), component.get(), pid, Math.round(p.value() * 1000), -1));
            }
        }
        if (unplaced > 0) {
            LOG.debug("{} container series placed on no component", unplaced);
        }
        samples.sort(Comparator.comparingLong(ResourceSample::epochMs)
                .thenComparing(r -> r.component().name())
                .thenComparingLong(ResourceSample::pid));
        return samples;
    }

    /**
     * True for the series of one container: it has a {@code container} label other than {@code POD}, and no
     * {@code cpu} label other than {@code total}.
     */
    public static boolean isContainer(Series s) {
        String container = s.label("container");
        String cpu = s.label("cpu");
        return !container.isEmpty() && !container.equals("POD") && (cpu.isEmpty() || cpu.equals("total"));
    }

    /**
     * The pid standing for one container instance: the first 63 bits of the SHA-256 of its {@code namespace},
     * {@code pod}, {@code container} and {@code id} labels (each length-prefixed), so the same on every run and
     * machine, and never negative.
     */
    public static long pid(Map<String, String> labels) {
        Objects.requireNonNull(labels, "labels");
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        for (String name : List.of("namespace", "pod", "container", "id")) {
            byte[] value = labels.getOrDefault(name, "").getBytes(StandardCharsets.UTF_8);
            sha.update(ByteBuffer.allocate(4).putInt(value.length).array());
            sha.update(value);
        }
        return ByteBuffer.wrap(sha.digest()).getLong() & Long.MAX_VALUE;
    }
}
