package dev.meshbench.orchestrator.run;

import dev.meshbench.model.EgressCase;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Goal;
import dev.meshbench.model.settings.TargetScope;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WarmupInfo;
import dev.meshbench.results.WorkloadInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The ramp, dataset, mesh and workload of an egress run, validated where they enter: a bad value fails here, before
 * anything starts, with a message naming the property, the value and the rule. A view over the {@link Catalogue}:
 * names, defaults, the study's values and single-value rules are its; the rules joining several settings are here.
 * {@link EgressRunSettings} holds this with the rest a run needs (target, repeats, measurement, CPU sets, ...).
 *
 * @param cases         cases to run, in order
 * @param clients       client counts of the ramp's steps, in order; at most {@value #MAX_STEPS} distinct positive
 *                      counts here, and before a run no more than this machine can drive ({@link LoadCapacity}: the
 *                      smallest of {@value LoadCapacity#CLIENTS_PER_CORE} per core, the open-files limit over
 *                      {@value LoadCapacity#FILES_PER_CLIENT} per client, and JMeter's heap over
 *                      {@value LoadCapacity#HEAP_MB_PER_CLIENT} MB per client)
 * @param stepSeconds   length of each step
 * @param warmupSeconds start of each step excluded from latency and CPU figures
 * @param thinkTimeMs   pause between a virtual user's requests
 * @param customers     customers loaded into the database (and drawn from by the workload); 1 to
 *                      {@link Catalogue#MAX_CUSTOMERS}, the most the customer service's loader generates
 * @param flightDays    days of flights loaded; 2 (a round trip returns the next day) to {@link Catalogue#MAX_FLIGHT_DAYS}
 * @param maxErrorPercent error rate above which the build fails
 * @param resultsDir    where run folders are kept (not under target/, so {@code mvn clean} keeps them)
 * @param mesh          data plane, sidecar-to-sidecar mTLS and proxy worker threads
 * @param workload      the driver's mix and the services' flight cache and asynchronous rewards
 */
public record RunSettings(List<EgressCase> cases, List<Integer> clients, int stepSeconds, int warmupSeconds,
        int thinkTimeMs, int customers, int flightDays, double maxErrorPercent, Path resultsDir, PlanOptions mesh,
        WorkloadInfo workload) {

    /** A run of the original Acmeair workload ({@link WorkloadInfo#ORIGINAL}). */
    public RunSettings(List<EgressCase> cases, List<Integer> clients, int stepSeconds, int warmupSeconds,
            int thinkTimeMs, int customers, int flightDays, double maxErrorPercent, Path resultsDir, PlanOptions mesh) {
        this(cases, clients, stepSeconds, warmupSeconds, thinkTimeMs, customers, flightDays, maxErrorPercent, resultsDir,
                mesh, WorkloadInfo.ORIGINAL);
    }

    /** Property names, as users pass them ({@code -Dmeshbench.clients=1,5}); each setting is {@link Catalogue}'s. */
    public static final String P_CASES = Catalogue.CASES.name();
    public static final String P_CLIENTS = Catalogue.CLIENTS.name();
    public static final String P_STEP_SECONDS = Catalogue.STEP_SECONDS.name();
    public static final String P_WARMUP_SECONDS = Catalogue.WARMUP_SECONDS.name();
    public static final String P_THINK_MS = Catalogue.THINK_TIME_MS.name();
    public static final String P_CUSTOMERS = Catalogue.CUSTOMERS.name();
    public static final String P_FLIGHT_DAYS = Catalogue.FLIGHT_DAYS.name();
    public static final String P_MAX_ERROR_PERCENT = Catalogue.MAX_ERROR_PERCENT.name();
    public static final String P_RESULTS_DIR = Catalogue.RESULTS_DIR.name();
    public static final String P_DATAPLANE = Catalogue.DATAPLANE.name();
    public static final String P_SIDECAR_MTLS = Catalogue.SIDECAR_MTLS.name();
    public static final String P_PROXY_WORKERS = Catalogue.PROXY_WORKERS.name();
    public static final String P_INGRESS = Catalogue.INGRESS.name();
    public static final String P_WORKLOAD = Catalogue.WORKLOAD.name();
    public static final String P_FLIGHT_CACHE = Catalogue.FLIGHT_CACHE.name();
    public static final String P_REWARDS_ASYNC = Catalogue.REWARDS_ASYNC.name();
    public static final String P_TARGET = Catalogue.TARGET.name();
    public static final String P_SATURATION_PERCENT = Catalogue.SATURATION_PERCENT.name();
    public static final String P_DRIFT_PERCENT = Catalogue.DRIFT_PERCENT.name();
    public static final String P_REPEATS = Catalogue.REPEATS.name();
    public static final String P_REWARDS_PERCENT = Catalogue.REWARDS_PERCENT.name();
    public static final String P_SLOW_SERVICE = Catalogue.SLOW_SERVICE.name();
    public static final String P_RATE = Catalogue.RATE.name();
    public static final String P_RATE_SHORTFALL_PERCENT = Catalogue.RATE_SHORTFALL_PERCENT.name();
    public static final String P_WARMUP = Catalogue.WARMUP.name();
    public static final String P_WARMUP_CAP_SECONDS = Catalogue.WARMUP_CAP_SECONDS.name();
    public static final String P_STUDY = Catalogue.STUDY.name();
    public static final String P_JMETER_HEAP_MB = Catalogue.JMETER_HEAP_MB.name();

    /** Steps the JMeter plan can run (it has this many consecutive thread groups). */
    public static final int MAX_STEPS = Catalogue.MAX_STEPS;
    /** JMeter's starting heap ({@code -Xms}, {@code JMeterLoad.heap}), the least {@code meshbench.jmeterHeapMb} may give. */
    public static final int JMETER_MIN_HEAP_MB = Catalogue.JMETER_MIN_HEAP_MB;

    /** How long one local component (a service, a proxy, MongoDB) may take to print its ready line. */
    public static final Duration COMPONENT_READY_TIMEOUT = Duration.ofSeconds(90);
    /** How long a deployed case may take to become ready as a whole and load its database. */
    public static final Duration CASE_READY_TIMEOUT = Duration.ofMinutes(3);

    /**
     * A run's inputs with their defaults, as {@code run.json} records them: the egress run's settings that have a
     * default and apply on the local target, less the Maven goal's own (the JMeter heap is recorded as
     * {@code jvm.jmeter}, the progress interval and results folder are not inputs).
     */
    public static final Map<String, String> DEFAULTS = Catalogue.defaults(Catalogue.ALL.stream()
            .filter(s -> s.goals().contains(Goal.EGRESS_RUN) && s.target() != TargetScope.KUBERNETES)
            .filter(s -> !List.of(Catalogue.STUDY, Catalogue.JMETER_HEAP_MB, Catalogue.PROGRESS_SECONDS, Catalogue.RESULTS_DIR)
                    .contains(s))
            .toList());

    /** The study's values ({@code -Pstudy}): 5-minute steps at 1..60 clients; its Istio 1.0 had no sidecar-to-sidecar mTLS. */
    public static final Map<String, String> STUDY = Catalogue.studyValues();

    public RunSettings {
        Objects.requireNonNull(resultsDir, P_RESULTS_DIR);
        Objects.requireNonNull(mesh, P_DATAPLANE);
        Objects.requireNonNull(workload, P_WORKLOAD);
        cases = List.copyOf(cases);
        clients = List.copyOf(clients);
        if (cases.isEmpty()) {
            throw Catalogue.CASES.invalid("", "must name at least one case; allowed: " + EgressCase.allowedIds() + ", all");
        }
        Catalogue.CLIENTS.parse(String.join(",", clients.stream().map(String::valueOf).toList()));
        Catalogue.STEP_SECONDS.parse(Integer.toString(stepSeconds));
        Catalogue.WARMUP_SECONDS.parse(Integer.toString(warmupSeconds));
        if (warmupSeconds >= stepSeconds) {
            throw Catalogue.WARMUP_SECONDS.invalid(Integer.toString(warmupSeconds),
                    "must be at least 0 and less than " + P_STEP_SECONDS + " (" + stepSeconds + ")");
        }
        Catalogue.THINK_TIME_MS.parse(Integer.toString(thinkTimeMs));
        Catalogue.CUSTOMERS.parse(Integer.toString(customers));
        Catalogue.FLIGHT_DAYS.parse(Integer.toString(flightDays));
        Catalogue.MAX_ERROR_PERCENT.parse(Double.toString(maxErrorPercent));
    }

    /**
     * {@code customers} if the customer service's loader generates that many, else an error naming {@code name} (a
     * command-line option), the value and the rule, before anything is deployed.
     */
    public static int checkCustomers(String name, int customers) {
        return Catalogue.CUSTOMERS.parseAs(name, Integer.toString(customers));
    }

    /** {@code days} if the flight service's loader generates that many, else an error naming {@code name}. */
    public static int checkFlightDays(String name, int days) {
        return Catalogue.FLIGHT_DAYS.parseAs(name, Integer.toString(days));
    }

    /**
     * The rules steps are judged by ({@code meshbench.saturationPercent}, {@code .driftPercent}, and for a fixed rate,
     * {@code meshbench.rate}, checked against {@code clients}, {@code .rateShortfallPercent}) and the warm-up; or an
     * error naming the property.
     */
    static MeasurementInfo measurement(Map<String, String> props, List<Integer> clients) {
        List<Double> rates = rates(props, clients);
        return new MeasurementInfo(Catalogue.SATURATION_PERCENT.value(props), Catalogue.DRIFT_PERCENT.value(props), rates,
                rates.isEmpty() ? null : Catalogue.RATE_SHORTFALL_PERCENT.value(props), warmupPlan(props));
    }

    /** The warm-up as planned ({@code tookSeconds} 0): {@code meshbench.warmup} and {@code meshbench.warmupCapSeconds}. */
    static WarmupInfo warmupPlan(Map<String, String> props) {
        String w = Catalogue.WARMUP.value(props);
        if (w.equals(WarmupInfo.STABLE)) {
            return new WarmupInfo(WarmupInfo.STABLE, Catalogue.WARMUP_CAP_SECONDS.value(props), Catalogue.WARMUP_WINDOW_SECONDS,
                    Catalogue.WARMUP_TOLERANCE_PERCENT, 0, 0, null, List.of(), Catalogue.WARMUP_TREND_WINDOWS,
                    Catalogue.WARMUP_JIT_QUIET_MS, List.of(), List.of(), null);
        }
        if (w.equals(WarmupInfo.NONE)) {
            return new WarmupInfo(WarmupInfo.NONE, 0, 0, 0, 0, 0, null, List.of());
        }
        return new WarmupInfo(WarmupInfo.FIXED, Integer.parseInt(w), 0, 0, 0, 0, null, List.of());
    }

    /** {@code meshbench.rate}: empty for none; one value repeated for every step, or exactly one per step. */
    static List<Double> rates(Map<String, String> props, List<Integer> clients) {
        List<Double> rates = Catalogue.RATE.read(props).orElse(List.of());
        try {
            return dev.meshbench.model.settings.Parsers.perStep(rates, clients.size());
        } catch (dev.meshbench.model.settings.Parser.Invalid e) {
            throw Catalogue.RATE.invalid(props.get(P_RATE).trim(), e.getMessage() + " (" + P_CLIENTS + "=" + clients + ")");
        }
    }

    /** The target {@code meshbench.target} names ({@code local} when absent), or an error naming the property. */
    public static TargetKind target(Map<String, String> props) {
        return TargetKind.fromId(Catalogue.TARGET.value(props));
    }

    /**
     * Reads a run's settings from string properties (Maven or system properties): absent ones (not blank ones) take
     * the catalogue's defaults; {@code study=true} layers the study's values under the explicit ones.
     */
    public static RunSettings fromProperties(Map<String, String> props, boolean study, Path defaultResultsDir) {
        return new RunSettings(
                parseCases(props.get(P_CASES)),
                Catalogue.CLIENTS.value(props, study),
                Catalogue.STEP_SECONDS.value(props, study),
                Catalogue.WARMUP_SECONDS.value(props, study),
                Catalogue.THINK_TIME_MS.value(props, study),
                Catalogue.CUSTOMERS.value(props, study),
                Catalogue.FLIGHT_DAYS.value(props, study),
                Catalogue.MAX_ERROR_PERCENT.value(props, study),
                Catalogue.RESULTS_DIR.isSet(props) ? Path.of(Catalogue.RESULTS_DIR.value(props)) : defaultResultsDir,
                meshOptions(props, study),
                workload(props));
    }

    private static WorkloadInfo workload(Map<String, String> props) {
        WorkloadInfo w = new WorkloadInfo(Catalogue.WORKLOAD.value(props), Catalogue.FLIGHT_CACHE.value(props),
                Catalogue.REWARDS_ASYNC.value(props));
        Optional<Map.Entry<String, Integer>> slow = Catalogue.SLOW_SERVICE.read(props);
        if (slow.isEmpty()) {
            return w;
        }
        if (!ComponentNames.SERVICES.contains(slow.get().getKey())) {
            throw Catalogue.SLOW_SERVICE.invalid(props.get(P_SLOW_SERVICE).trim(), "give <service>:<milliseconds>, service one of "
                    + ComponentNames.SERVICES + ", e.g. flight:200");
        }
        return new WorkloadInfo(w.mix(), w.flightCache(), w.rewardsAsync(), Map.of(slow.get().getKey(), slow.get().getValue()));
    }

    /** The mesh settings as properties, defaults filled in (for the results' settings). */
    public static Map<String, String> meshSettings(Map<String, String> props) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (var s : List.of(Catalogue.DATAPLANE, Catalogue.SIDECAR_MTLS, Catalogue.PROXY_WORKERS, Catalogue.INGRESS)) {
            out.put(s.name(), s.text(props, false).orElseThrow());
        }
        return out;
    }

    /**
     * The mesh settings ({@code meshbench.dataplane}, {@code .sidecarMtls}, {@code .proxyWorkers}, {@code .ingress}),
     * defaults filled in.
     */
    public static PlanOptions meshOptions(Map<String, String> props) {
        return meshOptions(props, false);
    }

    private static PlanOptions meshOptions(Map<String, String> props, boolean study) {
        DataPlane plane = target(props) == TargetKind.LOCAL
                ? LocalDataPlane.planeOf(Catalogue.DATAPLANE.value(props, study), LocalDataPlane.Binaries.fromProperties(props))
                : DataPlane.NETTY; // a cluster's data plane is Istio's; the local one is not used
        return new PlanOptions(plane, Catalogue.SIDECAR_MTLS.value(props, study),
                Catalogue.PROXY_WORKERS.value(props, study), Catalogue.INGRESS.value(props, study));
    }

    /** {@code sni}, {@code bypass,mtls} or {@code all}. */
    public static List<EgressCase> parseCases(String value) {
        if (value == null || value.isBlank()) {
            throw Catalogue.CASES.invalid("", "must name at least one case; allowed: " + EgressCase.allowedIds() + ", all");
        }
        if (value.trim().equalsIgnoreCase("all")) {
            return List.of(EgressCase.values());
        }
        List<EgressCase> out = new ArrayList<>();
        for (String part : value.split(",")) {
            try {
                EgressCase c = EgressCase.byId(part);
                if (!out.contains(c)) {
                    out.add(c);
                }
            } catch (IllegalArgumentException e) {
                throw Catalogue.CASES.invalid(value, "'" + part.trim() + "' is not a case; allowed: " + EgressCase.allowedIds() + ", all");
            }
        }
        return out;
    }

    /**
     * How many clients this machine can drive in one step, from its cores, its open-files limit ({@code ulimit -n},
     * which JMeter and the local components inherit from Maven) and JMeter's heap. The ramp's largest step must not
     * exceed the smallest of the three ({@link #check}); past it a step does not run as planned (at 5,000 clients on
     * 2 cores a 10-s step lasted 128 s; at 100,000 JMeter had started 1,415 threads after 9.5 minutes).
     *
     * @param cores        cores of this machine (JMeter, and on the local target the whole case, share them)
     * @param openFiles    the open-files limit of this JVM and its children; 0 or less when unknown (no bound)
     * @param jmeterHeapMb heap of the JMeter JVM, MB ({@code meshbench.jmeterHeapMb})
     */
    public record LoadCapacity(int cores, long openFiles, int jmeterHeapMb) {
        /**
         * A closed-loop client without think time keeps one request in flight at all times; a few hundred threads
         * per core already queue for the CPU and JMeter starts them late, so a step no longer lasts its planned
         * length. 250 per core leaves 4 times the study's largest step (60) per core on a 2-core machine.
         */
        public static final int CLIENTS_PER_CORE = 250;
        /**
         * File descriptors one client costs the busiest process: JMeter keeps one keep-alive connection per service
         * it calls (four: auth, customer, flight, booking), and on the local target each connection is a second
         * descriptor in the component answering it, relayed again by a sidecar; 8 covers both ends and leaves room
         * for the processes' own files (jars, logs, MongoDB's files).
         */
        public static final int FILES_PER_CLIENT = 8;
        /**
         * JMeter heap one client needs: each thread holds its own copy of the plan's tree (samplers, cookie and
         * header managers, extractors) and its last responses; 1 MB is a generous figure for the Acmeair plan, so
         * the default 1024 MB heap does not bind before the cores do.
         */
        public static final int HEAP_MB_PER_CLIENT = 1;

        public LoadCapacity {
            if (cores < 1) {
                throw new IllegalArgumentException("cores (" + cores + ") must be at least 1");
            }
            Catalogue.JMETER_HEAP_MB.parse(Integer.toString(jmeterHeapMb));
        }

        /** This machine's capacity: its cores and the open-files limit of this JVM (inherited by what it starts). */
        public static LoadCapacity ofThisHost(int jmeterHeapMb) {
            return new LoadCapacity(Runtime.getRuntime().availableProcessors(), openFilesLimit(), jmeterHeapMb);
        }

        /** The open-files limit ({@code ulimit -n}) of this JVM, which the processes it starts inherit; -1 when unknown. */
        public static long openFilesLimit() {
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
                return unix.getMaxFileDescriptorCount();
            }
            return -1;
        }

        /** The most clients one step may have here: the smallest of the three bounds. */
        public int maxClients() {
            long max = (long) cores * CLIENTS_PER_CORE;
            if (openFiles > 0) {
                max = Math.min(max, openFiles / FILES_PER_CLIENT);
            }
            max = Math.min(max, (long) jmeterHeapMb / HEAP_MB_PER_CLIENT);
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, max));
        }

        /** The rule with this machine's figures, for error messages and logs. */
        public String rule() {
            return String.format(Locale.ROOT, "the smallest of %d per core (%d cores: %d), %s, and %s=%d / %d MB per client (%d)",
                    CLIENTS_PER_CORE, cores, (long) cores * CLIENTS_PER_CORE,
                    openFiles > 0 ? String.format(Locale.ROOT, "open files (ulimit -n) %d / %d per client (%d)", openFiles,
                            FILES_PER_CLIENT, openFiles / FILES_PER_CLIENT) : "open files unknown (no bound)",
                    P_JMETER_HEAP_MB, jmeterHeapMb, HEAP_MB_PER_CLIENT, jmeterHeapMb / HEAP_MB_PER_CLIENT);
        }

        /** Refuses a ramp whose largest step is above {@link #maxClients()}, naming the property, the step and the rule. */
        public void check(List<Integer> clients) {
            int max = maxClients();
            for (int c : clients) {
                if (c > max) {
                    throw Catalogue.CLIENTS.invalid(String.join(",", clients.stream().map(String::valueOf).toList()),
                            "clients " + c + " is above the largest this machine can drive in one step, " + max + ": "
                                    + rule() + "; past it a step does not run as planned");
                }
            }
        }
    }

    /** Wall time of the load part of one case: every step back to back. */
    public long loadSecondsPerCase() {
        return (long) stepSeconds * clients.size();
    }
}
