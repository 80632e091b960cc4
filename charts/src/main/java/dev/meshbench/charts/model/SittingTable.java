package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.results.RateCalibration;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.StepResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * How the report's runs were taken: each sitting ({@code inputs.measurement.sitting}, results schema 7) with its
 * windows in the order they ran, round by round, so a reader sees how the cases were interleaved and how long each
 * switch took; and the calibration runs, each shown as the closed-loop maximum of bypass that set a sitting's fixed
 * rate. Runs that recorded no sitting (schema 6 and older) are in no sitting: each deployed its case.
 *
 * @param sittings     one per sitting id, sorted by id
 * @param calibrations every calibration: the calibration runs read, and those the runs name
 *                     ({@code measurement.calibration.runId}) that are not in the folder; sorted by run id
 */
public record SittingTable(List<Sitting> sittings, List<Calibration> calibrations) {
    public SittingTable {
        sittings = List.copyOf(sittings);
        calibrations = List.copyOf(calibrations);
    }

    /**
     * One case-window of a sitting: a run, or the calibration run at position 0.
     *
     * @param run         the run
     * @param sitting     its place in the sitting
     * @param calibration whether it is the sitting's calibration run
     * @param step        its step at the report's client count, or its last step when it has none there (a
     *                    calibration's closed loop); {@code null} without a step
     */
    public record Window(LoadedRun run, SittingInfo sitting, boolean calibration, StepResult step) {
        /** The window's case. */
        public String caseId() {
            return run.caseId();
        }
    }

    /**
     * A sitting and its windows.
     *
     * @param id           the sitting's id ({@link SittingInfo#id()})
     * @param method       {@link SittingInfo#SWITCHED} or {@link SittingInfo#FRESH}
     * @param dataPlanes   the data plane labels of its runs, in the order first seen
     * @param order        the cases of a round in the order each round ran them (as the runs recorded it), then any
     *                     other case of its windows
     * @param rounds       the highest round of its windows
     * @param windows      every window, calibration included, in position order
     * @param bypassSwitch how the sitting took the mesh off the MongoDB path for bypass, in words; {@code null} when
     *                     not recorded
     */
    public record Sitting(String id, String method, List<String> dataPlanes, List<String> order, int rounds,
            List<Window> windows, String bypassSwitch) {
        public Sitting {
            dataPlanes = List.copyOf(dataPlanes);
            order = List.copyOf(order);
            windows = List.copyOf(windows);
        }

        /** Whether the cases were switched in under one warm deployment. */
        public boolean switched() {
            return SittingInfo.SWITCHED.equals(method);
        }

        /** The window of {@code caseId} in round {@code round} (not the calibration), if it is in the report. */
        public Optional<Window> window(int round, String caseId) {
            return windows.stream().filter(w -> !w.calibration() && w.sitting().round() == round
                    && w.caseId().equals(caseId)).findFirst();
        }

        /** The sitting's calibration window, if its calibration run is in the report. */
        public Optional<Window> calibration() {
            return windows.stream().filter(Window::calibration).findFirst();
        }
    }

    /**
     * A calibration: a closed loop of bypass whose throughput, times a fraction, became the fixed rate of the runs
     * that name it: a calibration run of its own, or a switched sitting's warm-up's last windows
     * ({@link RateCalibration#fromWarmUp()}).
     *
     * @param runId   the calibration run's id (for a warm-up's, its sitting's)
     * @param run     the run, or {@code null} when the folder does not hold it (the runs still record what it set)
     * @param sitting the sitting it opened ({@code null} when it recorded none)
     * @param set     what it set, as the runs it calibrated recorded it ({@code null} when no run of the report names
     *                it)
     * @param usedBy  the ids of the runs whose rate it set, sorted
     */
    public record Calibration(String runId, LoadedRun run, String sitting, RateCalibration set, List<String> usedBy) {
        public Calibration {
            usedBy = List.copyOf(usedBy);
        }

        /** Its case: the calibration's, or the run's when no run names it. */
        public String caseId() {
            return set != null ? set.caseId() : run.caseId();
        }

        /** Its closed loop's clients. */
        public Integer clients() {
            if (set != null) {
                return set.clients();
            }
            StepResult s = lastStep(run);
            return s == null ? null : s.clients();
        }

        /** The throughput of its measured window, transactions per second: the maximum it found. */
        public Double maxPerSecond() {
            if (set != null) {
                return set.maxPerSecond();
            }
            StepResult s = lastStep(run);
            return s == null ? null : s.throughputPerSecond();
        }

        /** Whether its measured window was steady; {@code null} when not known. */
        public Boolean steady() {
            if (set != null) {
                return set.steady();
            }
            StepResult s = lastStep(run);
            return s == null || s.drift() == null ? null : s.drift().steady();
        }

        /**
         * The calibration in words, as the console and the page say it, e.g. {@code cal-1 (sitting S): bypass's
         * closed-loop maximum 160.3 tx/s at 20 clients, steady; set the fixed rate 120 req/s (0.75 of it) for 6 runs}.
         */
        public String summary() {
            Calibration c = this;
            boolean warmUp = c.set() != null && c.set().fromWarmUp();
            StringBuilder b = new StringBuilder();
            if (warmUp) {
                b.append("sitting ").append(c.runId()).append("'s warm-up, its last ").append(c.set().warmupSeconds()).append(" s");
            } else {
                b.append(c.runId());
                if (c.sitting() != null) {
                    b.append(" (sitting ").append(c.sitting()).append(')');
                }
            }
            b.append(": ").append(c.caseId()).append("'s closed-loop maximum ");
            b.append(c.maxPerSecond() == null ? "not measured" : String.format(Locale.ROOT, "%.1f tx/s", c.maxPerSecond()));
            if (c.clients() != null) {
                b.append(" at ").append(c.clients()).append(" clients");
            }
            b.append(c.steady() == null ? "" : warmUp ? ", judged flat" : c.steady() ? ", steady" : ", not steady");
            if (c.set() == null) {
                b.append("; no run of this report names it");
            } else {
                b.append("; set the fixed rate ").append(new java.math.BigDecimal(Double.toString(c.set().ratePerSecond()))
                        .stripTrailingZeros().toPlainString()).append(" req/s (").append(new java.math.BigDecimal(
                        Double.toString(c.set().fraction())).stripTrailingZeros().toPlainString()).append(" of it) for ")
                        .append(c.usedBy().size()).append(c.usedBy().size() == 1 ? " run" : " runs");
                if (c.run() == null && !warmUp) {
                    b.append(" (the calibration run itself is not in this folder)");
                }
            }
            return b.toString();
        }
    }

    /** The sittings and calibrations of {@code m}'s runs. */
    public static SittingTable of(ReportModel m) {
        List<LoadedRun> runs = m.cases().stream().flatMap(c -> c.runs().stream()).toList();
        List<LoadedRun> calibrationRuns = m.loaded().calibrations();
        Map<String, List<Window>> bySitting = new TreeMap<>();
        for (LoadedRun r : runs) {
            SittingInfo s = sitting(r);
            if (s != null) {
                bySitting.computeIfAbsent(s.id(), k -> new ArrayList<>())
                        .add(new Window(r, s, false, step(r, m.clients())));
            }
        }
        for (LoadedRun r : calibrationRuns) {
            SittingInfo s = sitting(r);
            if (s != null) {
                bySitting.computeIfAbsent(s.id(), k -> new ArrayList<>()).add(new Window(r, s, true, lastStep(r)));
            }
        }
        List<Sitting> sittings = new ArrayList<>();
        for (Map.Entry<String, List<Window>> e : bySitting.entrySet()) {
            List<Window> windows = e.getValue().stream().sorted(Comparator
                    .comparingInt((Window w) -> w.sitting().position()).thenComparing(w -> w.run().runId())).toList();
            Set<String> order = new LinkedHashSet<>();
            // the order the measuring windows recorded (the calibration's may predate a changed order); then the rest
            windows.stream().filter(w -> !w.calibration()).findFirst().or(() -> windows.stream().findFirst())
                    .ifPresent(w -> order.addAll(w.sitting().order()));
            windows.stream().filter(w -> !w.calibration()).forEach(w -> order.add(w.caseId()));
            List<String> planes = windows.stream().map(w -> w.run().dataPlaneLabel()).distinct().toList();
            String method = windows.stream().filter(w -> !w.calibration()).findFirst().orElse(windows.get(0))
                    .sitting().method();
            sittings.add(new Sitting(e.getKey(), method, planes, List.copyOf(order),
                    windows.stream().mapToInt(w -> w.sitting().round()).max().orElse(1), windows,
                    windows.stream().map(w -> w.sitting().bypassSwitch()).filter(Objects::nonNull).findFirst()
                            .orElse(null)));
        }
        return new SittingTable(sittings, calibrations(runs, calibrationRuns));
    }

    private static List<Calibration> calibrations(List<LoadedRun> runs, List<LoadedRun> calibrationRuns) {
        Map<String, RateCalibration> set = new LinkedHashMap<>();
        Map<String, List<String>> usedBy = new TreeMap<>();
        for (LoadedRun r : runs) {
            RateCalibration c = r.results().inputs().measurementOrDefault().calibration();
            if (c != null) {
                set.putIfAbsent(c.runId(), c);
                usedBy.computeIfAbsent(c.runId(), k -> new ArrayList<>()).add(r.runId());
            }
        }
        Map<String, Calibration> out = new TreeMap<>();
        for (LoadedRun r : calibrationRuns) {
            SittingInfo s = sitting(r);
            out.put(r.runId(), new Calibration(r.runId(), r, s == null ? null : s.id(), set.get(r.runId()),
                    sorted(usedBy.get(r.runId()))));
        }
        for (Map.Entry<String, RateCalibration> e : set.entrySet()) {
            if (!out.containsKey(e.getKey())) {
                String sitting = runs.stream().filter(r -> usedBy.get(e.getKey()).contains(r.runId()))
                        .map(SittingTable::sitting).filter(Objects::nonNull).map(SittingInfo::id).findFirst()
                        .orElse(null);
                out.put(e.getKey(), new Calibration(e.getKey(), null, sitting, e.getValue(),
                        sorted(usedBy.get(e.getKey()))));
            }
        }
        return List.copyOf(out.values());
    }

    private static List<String> sorted(List<String> ids) {
        return ids == null ? List.of() : ids.stream().sorted().toList();
    }

    /** The run's place in its sitting; {@code null} for a run that recorded none (schema 6 and older). */
    public static SittingInfo sitting(LoadedRun r) {
        return r.results().inputs().measurementOrDefault().sitting();
    }

    private static StepResult step(LoadedRun r, int clients) {
        return r.results().step(clients).orElseGet(() -> lastStep(r));
    }

    private static StepResult lastStep(LoadedRun r) {
        if (r == null || r.results().steps().isEmpty()) {
            return null;
        }
        return r.results().steps().get(r.results().steps().size() - 1);
    }
}
