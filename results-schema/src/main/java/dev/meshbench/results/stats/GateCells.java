package dev.meshbench.results.stats;

import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsFormatException;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The {@link RegressionGate}'s input from results files: per case, client step and metric, one value per passed run
 * (the repeats). Failed runs and calibration runs are left out; a metric a run did not measure (mesh CPU of the bypass
 * case, which has no mesh component) adds no value, nor does throughput at a fixed rate (it is the offered load).
 */
public final class GateCells {
    private GateCells() {
    }

    /** The cells of {@code runs}: passed runs only, one value per run. */
    public static Map<RegressionGate.Key, List<Double>> of(Collection<RunResults> runs) {
        return of(runs, java.util.Optional.empty());
    }

    /**
     * The cells of {@code runs}, with throughput and P99 of one request type ({@code steps[].labels}) instead of the
     * whole step's when {@code label} is given; a step without that label adds neither. Mesh CPU per transaction is
     * the step's either way: CPU is not split by request.
     */
    public static Map<RegressionGate.Key, List<Double>> of(Collection<RunResults> runs, java.util.Optional<String> label) {
        Map<RegressionGate.Key, List<Double>> cells = new TreeMap<>();
        for (RunResults r : runs) {
            if (r.inputs().status() != RunStatus.PASSED || r.inputs().measurementOrDefault().calibrationOnly()) {
                continue; // a calibration run set a sitting's rate; it measured no case's cost
            }
            String caseId = r.inputs().caseId();
            for (StepResult s : r.steps()) {
                java.util.Optional<dev.meshbench.results.LabelResult> l = label.flatMap(s::label);
                Double throughput = label.isPresent() ? l.map(dev.meshbench.results.LabelResult::throughputPerSecond).orElse(null)
                        : Double.valueOf(s.throughputPerSecond());
                dev.meshbench.results.LatencyStats latency = label.isPresent()
                        ? l.map(dev.meshbench.results.LabelResult::latencyMs).orElse(null) : s.latencyMs();
                if (s.rate() == null && throughput != null) {
                    // at a fixed rate, throughput is the load the kit offered (a calibration's choice), not the system's
                    add(cells, caseId, s.clients(), RegressionGate.Metric.THROUGHPUT, throughput);
                }
                if (latency != null) {
                    add(cells, caseId, s.clients(), RegressionGate.Metric.P99, latency.p99());
                }
                RoleCpu mesh = s.cpu() == null ? null : s.cpu().mesh();
                if (mesh != null && mesh.cpuMsPerTransaction() != null && mesh.cpuMsPerTransaction() > 0) {
                    add(cells, caseId, s.clients(), RegressionGate.Metric.MESH_CPU_PER_TX, mesh.cpuMsPerTransaction());
                }
            }
        }
        return cells;
    }

    private static void add(Map<RegressionGate.Key, List<Double>> cells, String caseId, int clients,
            RegressionGate.Metric metric, double value) {
        cells.computeIfAbsent(new RegressionGate.Key(caseId, clients, metric), k -> new ArrayList<>()).add(value);
    }

    /**
     * What makes runs comparable: the target, the data plane and the workload. The gate compares only runs that
     * agree on it (a netty run against an envoy baseline would measure the data plane, not a regression).
     */
    public static String comparableAs(RunResults r) {
        var in = r.inputs();
        String plane = in.dataPlane() == null ? "unrecorded data plane" : in.dataPlane().label();
        String workload = in.workload() == null ? "" : in.workload().differences();
        return in.target().id() + " / " + plane + (workload.isEmpty() ? "" : " / " + workload);
    }

    /**
     * The results under {@code baseline}: the file itself when it is a {@code results.json}, else every
     * {@code results.json} below the folder (a Jenkins artifact folder holds them a few levels down).
     *
     * @throws IllegalArgumentException naming the path when it is missing, holds no results, or a file is unreadable
     */
    public static List<RunResults> read(Path baseline, String property) {
        if (!Files.exists(baseline)) {
            throw new IllegalArgumentException(property + "=" + baseline + ": no such file or folder");
        }
        List<Path> files;
        if (Files.isRegularFile(baseline)) {
            files = List.of(baseline);
        } else {
            try (Stream<Path> walk = Files.walk(baseline, 6)) {
                files = walk.filter(p -> p.getFileName().toString().equals("results.json")).sorted().toList();
            } catch (IOException e) {
                throw new IllegalArgumentException(property + "=" + baseline + ": reading the folder failed: " + e.getMessage(), e);
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(property + "=" + baseline + ": holds no results.json (give a run "
                    + "folder, a results folder or a results.json)");
        }
        List<RunResults> out = new ArrayList<>();
        for (Path f : files) {
            try {
                out.add(ResultsJson.readResults(f));
            } catch (ResultsFormatException e) {
                throw new IllegalArgumentException(property + "=" + baseline + ": " + f + " is not a results file: "
                        + e.getMessage(), e);
            }
        }
        return out;
    }
}
