package dev.meshbench.orchestrator.run;

import dev.meshbench.component.DatasetDefaults;
import dev.meshbench.model.EgressCase;
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

/**
 * Everything a run needs, validated where it enters: a bad value fails here, before anything starts, with a
 * message naming the property, the value and the rule. Defaults live in {@link #DEFAULTS} and {@link #STUDY} (a run's
 * inputs), {@link #GOAL_DEFAULTS} (the Maven goals' own settings) and the timeouts below; the dataset sizes other
 * modules share come from {@link DatasetDefaults}. The README's property table lists them (a test keeps it so).
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
 *                      {@link DatasetDefaults#MAX_CUSTOMERS}, the most the customer service's loader generates
 * @param flightDays    days of flights loaded; 1 to {@link DatasetDefaults#MAX_FLIGHT_DAYS}
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

    /** Property names, as users pass them ({@code -Dmeshbench.clients=1,5}). */
    public static final String P_CASES = "meshbench.cases";
    public static final String P_CLIENTS = "meshbench.clients";
    public static final String P_STEP_SECONDS = "meshbench.stepSeconds";
    public static final String P_WARMUP_SECONDS = "meshbench.warmupSeconds";
    public static final String P_THINK_MS = "meshbench.thinkTimeMs";
    public static final String P_CUSTOMERS = "meshbench.customers";
    public static final String P_FLIGHT_DAYS = "meshbench.flightDays";
    public static final String P_MAX_ERROR_PERCENT = "meshbench.maxErrorPercent";
    public static final String P_RESULTS_DIR = "meshbench.resultsDir";
    public static final String P_DATAPLANE = "meshbench.dataplane";
    public static final String P_SIDECAR_MTLS = "meshbench.sidecarMtls";
    public static final String P_PROXY_WORKERS = "meshbench.proxyWorkers";
    public static final String P_INGRESS = "meshbench.ingress";
    public static final String P_WORKLOAD = "meshbench.workload";
    public static final String P_FLIGHT_CACHE = "meshbench.flightCache";
    public static final String P_REWARDS_ASYNC = "meshbench.rewardsAsync";
    /** Where the case runs: {@code local} (default) or {@code kubernetes}; read with {@link #target}. */
    public static final String P_TARGET = "meshbench.target";
    /** Host CPU busy percent above which a step is flagged saturated; read with {@link #measurement}. */
    public static final String P_SATURATION_PERCENT = "meshbench.saturationPercent";
    /** Throughput change between a step's first and last thirds, percent, above which it is flagged not steady. */
    public static final String P_DRIFT_PERCENT = "meshbench.driftPercent";

    /** How often each case runs; with several cases, the runs are interleaved; read with {@link #repeats}. */
    public static final String P_REPEATS = "meshbench.repeats";
    /** Percent of session rounds that also view rewards (driver side); read with {@link #rewardsPercent}. */
    public static final String P_REWARDS_PERCENT = "meshbench.rewardsPercent";

    /**
     * A deliberate slowdown, {@code <service>:<ms>} (e.g. {@code flight:200}): that service waits before each API
     * request, standing for a regression to try the gate with. Local target only; recorded in {@code run.json}.
     */
    public static final String P_SLOW_SERVICE = "meshbench.slowService";

    /**
     * A fixed arrival rate, requests per second over all of a step's clients: one value for every step, or one per
     * {@value #P_CLIENTS} entry; absent for a closed loop. The clients are then the pool of requests in flight.
     */
    public static final String P_RATE = "meshbench.rate";
    /** A fixed-rate step that sends more than this percent fewer requests than its target did not hold the rate. */
    public static final String P_RATE_SHORTFALL_PERCENT = "meshbench.rateShortfallPercent";

    /**
     * The warm-up before the first measured step, at the ramp's highest step: {@code stable} (default) until two
     * successive {@value #WARMUP_WINDOW_SECONDS}-s windows' throughputs are within {@value #WARMUP_TOLERANCE_PERCENT}%
     * of each other, at most {@value #P_WARMUP_CAP_SECONDS}; a number of seconds for a fixed warm-up; {@code 0} or
     * {@code none} for none. Separate from {@value #P_WARMUP_SECONDS}, the start of each step left out.
     */
    public static final String P_WARMUP = "meshbench.warmup";
    public static final String P_WARMUP_CAP_SECONDS = "meshbench.warmupCapSeconds";
    public static final int WARMUP_WINDOW_SECONDS = 10;
    public static final double WARMUP_TOLERANCE_PERCENT = 5;

    /** {@code true} layers {@link #STUDY} under the explicit values (set by the {@code study} profile); read with {@link #study}. */
    public static final String P_STUDY = "meshbench.study";

    /** Steps the JMeter plan can run (it has this many consecutive thread groups). */
    public static final int MAX_STEPS = 12;

    /*
     * The Maven goals' own settings: read by meshbench-maven-plugin's @Parameter fields, whose defaultValue must be a
     * constant expression, hence one String constant each. Listed in GOAL_DEFAULTS for the README's table.
     */
    /** Heap of the JMeter JVM, MB (meshbench:run). */
    public static final String P_JMETER_HEAP_MB = "meshbench.jmeterHeapMb";
    public static final String DEFAULT_JMETER_HEAP_MB = "1024";
    /** JMeter's starting heap ({@code -Xms}, {@code JMeterLoad.heap}), the least {@value #P_JMETER_HEAP_MB} may give. */
    public static final int JMETER_MIN_HEAP_MB = 256;
    /** Seconds between live progress lines (meshbench:run). */
    public static final String P_PROGRESS_SECONDS = "meshbench.progressSeconds";
    public static final String DEFAULT_PROGRESS_SECONDS = "5";
    /** Client count of the report's response-time and CPU charts (meshbench:report; the study used 20). */
    public static final String P_REPORT_CLIENTS = "meshbench.reportClients";
    public static final String DEFAULT_REPORT_CLIENTS = "20";
    /** How much worse than the baseline a figure may get, percent (meshbench:check). */
    public static final String P_MAX_REGRESSION_PERCENT = "meshbench.maxRegressionPercent";
    public static final String DEFAULT_MAX_REGRESSION_PERCENT = "10";
    /** The results folder, relative to the checkout (not under target/, so {@code mvn clean} keeps it). */
    public static final String DEFAULT_RESULTS_DIR = "results";

    /**
     * The defaults of the goals' own settings; unlike {@link #DEFAULTS} they are not a run's inputs, so they are not
     * recorded in {@code run.json}'s settings (the JMeter heap is, as {@code jvm.jmeter}).
     */
    public static final Map<String, String> GOAL_DEFAULTS = Map.of(
            P_JMETER_HEAP_MB, DEFAULT_JMETER_HEAP_MB,
            P_PROGRESS_SECONDS, DEFAULT_PROGRESS_SECONDS,
            P_REPORT_CLIENTS, DEFAULT_REPORT_CLIENTS,
            P_MAX_REGRESSION_PERCENT, DEFAULT_MAX_REGRESSION_PERCENT,
            P_RESULTS_DIR, DEFAULT_RESULTS_DIR);

    /** How long one local component (a service, a proxy, MongoDB) may take to print its ready line. */
    public static final Duration COMPONENT_READY_TIMEOUT = Duration.ofSeconds(90);
    /** How long a deployed case may take to become ready as a whole and load its database. */
    public static final Duration CASE_READY_TIMEOUT = Duration.ofMinutes(3);

    /** Short enough for one case in a few minutes on 2 cores. */
    public static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry(P_CLIENTS, "1,5,10,20"),
            Map.entry(P_STEP_SECONDS, "20"),
            Map.entry(P_WARMUP_SECONDS, "5"),
            Map.entry(P_THINK_MS, "0"),
            Map.entry(P_CUSTOMERS, "1000"),
            Map.entry(P_FLIGHT_DAYS, Integer.toString(DatasetDefaults.FLIGHT_DAYS)),
            Map.entry(P_MAX_ERROR_PERCENT, "1"),
            Map.entry(P_TARGET, TargetKind.LOCAL.id()),
            Map.entry(P_REPEATS, "1"),
            // 0 keeps the original Acmeair mix the study's numbers depend on (docs/extending-the-workload.md).
            Map.entry(P_REWARDS_PERCENT, "0"),
            Map.entry(P_SATURATION_PERCENT, "90"),
            Map.entry(P_DRIFT_PERCENT, "10"),
            Map.entry(P_RATE_SHORTFALL_PERCENT, "5"),
            Map.entry(P_WARMUP, WarmupInfo.STABLE),
            Map.entry(P_WARMUP_CAP_SECONDS, "180"),
            Map.entry(P_DATAPLANE, "netty"),
            // Istio's auto-mTLS between sidecars is on by default today; Istio's sidecar runs 2 worker threads.
            Map.entry(P_SIDECAR_MTLS, "true"),
            Map.entry(P_PROXY_WORKERS, "2"),
            Map.entry(P_INGRESS, "true"),
            // The study ran the original Acmeair: its driver's mix, its flight cache, its asynchronous rewards.
            Map.entry(P_WORKLOAD, WorkloadInfo.ORIGINAL.mix()),
            Map.entry(P_FLIGHT_CACHE, Boolean.toString(WorkloadInfo.ORIGINAL.flightCache())),
            Map.entry(P_REWARDS_ASYNC, Boolean.toString(WorkloadInfo.ORIGINAL.rewardsAsync())));

    /** The study's values: 5-minute steps at 1..60 clients; its Istio 1.0 had no sidecar-to-sidecar mTLS. */
    public static final Map<String, String> STUDY = Map.of(
            P_CLIENTS, "1,5,10,20,30,40,50,60",
            P_STEP_SECONDS, "300",
            P_WARMUP_SECONDS, "30",
            P_CUSTOMERS, Integer.toString(DatasetDefaults.STUDY_CUSTOMERS),
            P_SIDECAR_MTLS, "false");

    public RunSettings {
        Objects.requireNonNull(resultsDir, P_RESULTS_DIR);
        Objects.requireNonNull(mesh, P_DATAPLANE);
        Objects.requireNonNull(workload, P_WORKLOAD);
        cases = List.copyOf(cases);
        clients = List.copyOf(clients);
        if (cases.isEmpty()) {
            throw invalid(P_CASES, "", "must name at least one case; allowed: " + EgressCase.allowedIds() + ", all");
        }
        if (clients.isEmpty()) {
            throw invalid(P_CLIENTS, "", "must list at least one client count, e.g. 1,5,10,20");
        }
        for (int c : clients) {
            if (c < 1) {
                throw invalid(P_CLIENTS, clients.toString(), "client counts must be positive whole numbers");
            }
        }
        if (clients.size() > MAX_STEPS) {
            throw invalid(P_CLIENTS, clients.toString(), "at most " + MAX_STEPS + " steps (the JMeter plan has " + MAX_STEPS + " step groups)");
        }
        if (clients.stream().distinct().count() != clients.size()) {
            throw invalid(P_CLIENTS, clients.toString(), "client counts must be distinct (each one names its step in the results)");
        }
        if (stepSeconds < 1) {
            throw invalid(P_STEP_SECONDS, Integer.toString(stepSeconds), "must be a positive number of seconds");
        }
        if (warmupSeconds < 0 || warmupSeconds >= stepSeconds) {
            throw invalid(P_WARMUP_SECONDS, Integer.toString(warmupSeconds),
                    "must be at least 0 and less than " + P_STEP_SECONDS + " (" + stepSeconds + ")");
        }
        if (thinkTimeMs < 0) {
            throw invalid(P_THINK_MS, Integer.toString(thinkTimeMs), "must be 0 or more milliseconds");
        }
        checkCustomers(P_CUSTOMERS, customers);
        checkFlightDays(P_FLIGHT_DAYS, flightDays);
        if (!(maxErrorPercent >= 0 && maxErrorPercent <= 100)) {
            throw invalid(P_MAX_ERROR_PERCENT, Double.toString(maxErrorPercent), "must be between 0 and 100");
        }
    }

    /**
     * {@code customers} if the customer service's loader generates that many (1 to {@link DatasetDefaults#MAX_CUSTOMERS}),
     * else an error naming {@code name} (a property or an option), the value and the rule, before anything is deployed.
     */
    public static int checkCustomers(String name, int customers) {
        if (customers < 1 || customers > DatasetDefaults.MAX_CUSTOMERS) {
            throw invalid(name, Integer.toString(customers), "must be between 1 and " + DatasetDefaults.MAX_CUSTOMERS
                    + " customers (the most the customer service's loader generates)");
        }
        return customers;
    }

    /** {@code days} if the flight service's loader generates that many (1 to {@link DatasetDefaults#MAX_FLIGHT_DAYS}), else an error. */
    public static int checkFlightDays(String name, int days) {
        if (days < 1 || days > DatasetDefaults.MAX_FLIGHT_DAYS) {
            throw invalid(name, Integer.toString(days), "must be between 1 and " + DatasetDefaults.MAX_FLIGHT_DAYS
                    + " days (the most the flight service's loader generates)");
        }
        return days;
    }

    /**
     * The rules steps are judged by: {@value #P_SATURATION_PERCENT}, {@value #P_DRIFT_PERCENT}, and for a fixed rate
     * ({@value #P_RATE}, checked against {@code clients}) {@value #P_RATE_SHORTFALL_PERCENT}; or an error naming the
     * property.
     */
    public static MeasurementInfo measurement(Map<String, String> props, List<Integer> clients) {
        double saturation = percent(props, P_SATURATION_PERCENT, "a percent of all cores such as 90");
        if (saturation > 100) {
            throw invalid(P_SATURATION_PERCENT, props.get(P_SATURATION_PERCENT), "must be at most 100 (percent of all cores)");
        }
        double shortfall = percent(props, P_RATE_SHORTFALL_PERCENT, "a percent such as 5");
        if (shortfall >= 100) {
            throw invalid(P_RATE_SHORTFALL_PERCENT, props.get(P_RATE_SHORTFALL_PERCENT), "must be below 100");
        }
        List<Double> rates = parseRates(props.get(P_RATE), clients);
        return new MeasurementInfo(saturation, percent(props, P_DRIFT_PERCENT, "a percent such as 10"), rates,
                rates.isEmpty() ? null : shortfall, warmupPlan(props));
    }

    /** The warm-up as planned ({@code tookSeconds} 0): {@value #P_WARMUP} and {@value #P_WARMUP_CAP_SECONDS}. */
    public static WarmupInfo warmupPlan(Map<String, String> props) {
        String v = props.getOrDefault(P_WARMUP, DEFAULTS.get(P_WARMUP)).trim().toLowerCase(Locale.ROOT);
        if (v.equals(WarmupInfo.STABLE)) {
            int cap = intIn(props, P_WARMUP_CAP_SECONDS, WARMUP_WINDOW_SECONDS * 2, 3600, "seconds, at least two windows");
            return new WarmupInfo(WarmupInfo.STABLE, cap, WARMUP_WINDOW_SECONDS, WARMUP_TOLERANCE_PERCENT, 0, 0, null, List.of());
        }
        if (v.equals("0") || v.equals(WarmupInfo.NONE)) {
            return new WarmupInfo(WarmupInfo.NONE, 0, 0, 0, 0, 0, null, List.of());
        }
        int seconds;
        try {
            seconds = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw invalid(P_WARMUP, v, "give stable (until throughput is stable), a number of seconds, or 0 (none)");
        }
        if (seconds < 0 || seconds > 3600) {
            throw invalid(P_WARMUP, v, "seconds must be 0 to 3600");
        }
        return new WarmupInfo(WarmupInfo.FIXED, seconds, 0, 0, 0, 0, null, List.of());
    }

    /** {@value #P_RATE}: empty for none; one value repeated for every step, or exactly one per step. */
    public static List<Double> parseRates(String value, List<Integer> clients) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<Double> rates = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String p = part.trim();
            double r;
            try {
                r = Double.parseDouble(p);
            } catch (NumberFormatException e) {
                throw invalid(P_RATE, value, "'" + p + "' is not a number; give requests per second, e.g. 300, or one per step like 100,200");
            }
            if (!(r > 0) || Double.isInfinite(r)) {
                throw invalid(P_RATE, value, "rates must be above 0 requests per second");
            }
            rates.add(r);
        }
        if (rates.size() == 1) {
            return java.util.Collections.nCopies(clients.size(), rates.get(0));
        }
        if (rates.size() != clients.size()) {
            throw invalid(P_RATE, value, "has " + rates.size() + " rates for " + clients.size() + " steps ("
                    + P_CLIENTS + "=" + clients + "); give one rate, or one per step");
        }
        return List.copyOf(rates);
    }

    /** {@value #P_STUDY}: whether the study's values apply; absent is {@code false}, a typo an error naming it. */
    public static boolean study(Map<String, String> props) {
        return parseBoolean(P_STUDY, props.getOrDefault(P_STUDY, "false"));
    }

    /** {@value #P_REPEATS}: 1 to 100 runs of each case, or an error naming the property. */
    public static int repeats(Map<String, String> props) {
        return intIn(props, P_REPEATS, 1, 100, "runs of each case");
    }

    /** {@value #P_REWARDS_PERCENT}: 0 to 100, or an error naming the property. */
    public static int rewardsPercent(Map<String, String> props) {
        return intIn(props, P_REWARDS_PERCENT, 0, 100, "percent of session rounds");
    }

    private static int intIn(Map<String, String> props, String key, int min, int max, String what) {
        String v = props.getOrDefault(key, DEFAULTS.get(key)).trim();
        int n = parseInt(key, v);
        if (n < min || n > max) {
            throw invalid(key, v, "must be between " + min + " and " + max + " (" + what + ")");
        }
        return n;
    }

    private static double percent(Map<String, String> props, String key, String example) {
        String v = props.getOrDefault(key, DEFAULTS.get(key)).trim();
        double percent;
        try {
            percent = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw invalid(key, v, "not a number; give " + example);
        }
        if (!(percent > 0)) {
            throw invalid(key, v, "must be above 0; give " + example);
        }
        return percent;
    }

    /** The target {@value #P_TARGET} names ({@code local} when absent), or an error naming the property. */
    public static TargetKind target(Map<String, String> props) {
        String v = props.getOrDefault(P_TARGET, DEFAULTS.get(P_TARGET)).trim();
        try {
            return TargetKind.fromId(v);
        } catch (IllegalArgumentException e) {
            throw invalid(P_TARGET, v, "must be one of " + java.util.Arrays.stream(TargetKind.values()).map(TargetKind::id)
                    .collect(java.util.stream.Collectors.joining(", ")));
        }
    }

    /**
     * Reads a config from string properties (Maven or system properties): absent ones (not blank ones) take
     * {@link #DEFAULTS};
     * {@code study=true} layers {@link #STUDY} under the explicit values.
     */
    public static RunSettings fromProperties(Map<String, String> props, boolean study, Path defaultResultsDir) {
        java.util.function.Function<String, String> get = key -> {
            String v = props.get(key);
            if (v != null) {
                return v.trim(); // present but blank is an error the parsers name, not a request for the default
            }
            if (study && STUDY.containsKey(key)) {
                return STUDY.get(key);
            }
            return DEFAULTS.get(key);
        };
        String results = props.get(P_RESULTS_DIR);
        return new RunSettings(
                parseCases(props.get(P_CASES)),
                parseClients(get.apply(P_CLIENTS)),
                parseInt(P_STEP_SECONDS, get.apply(P_STEP_SECONDS)),
                parseInt(P_WARMUP_SECONDS, get.apply(P_WARMUP_SECONDS)),
                parseInt(P_THINK_MS, get.apply(P_THINK_MS)),
                parseInt(P_CUSTOMERS, get.apply(P_CUSTOMERS)),
                parseInt(P_FLIGHT_DAYS, get.apply(P_FLIGHT_DAYS)),
                parseDouble(P_MAX_ERROR_PERCENT, get.apply(P_MAX_ERROR_PERCENT)),
                results == null || results.isBlank() ? defaultResultsDir : Path.of(results.trim()),
                parseMesh(get.apply(P_DATAPLANE), get.apply(P_SIDECAR_MTLS), get.apply(P_PROXY_WORKERS), get.apply(P_INGRESS)),
                parseWorkload(get.apply(P_WORKLOAD), get.apply(P_FLIGHT_CACHE), get.apply(P_REWARDS_ASYNC),
                        props.get(P_SLOW_SERVICE)));
    }

    private static WorkloadInfo parseWorkload(String mix, String flightCache, String rewardsAsync, String slow) {
        WorkloadInfo w = parseWorkload(mix, flightCache, rewardsAsync);
        if (slow == null || slow.isBlank()) {
            return w;
        }
        String[] parts = slow.trim().split(":");
        List<String> services = ComponentNames.SERVICES;
        if (parts.length != 2 || !services.contains(parts[0].trim())) {
            throw invalid(P_SLOW_SERVICE, slow, "give <service>:<milliseconds>, service one of " + services + ", e.g. flight:200");
        }
        int ms;
        try {
            ms = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw invalid(P_SLOW_SERVICE, slow, "'" + parts[1].trim() + "' is not a whole number of milliseconds");
        }
        if (ms < 1 || ms > 60_000) {
            throw invalid(P_SLOW_SERVICE, slow, "the milliseconds must be 1 to 60000");
        }
        return new WorkloadInfo(w.mix(), w.flightCache(), w.rewardsAsync(), Map.of(parts[0].trim(), ms));
    }

    private static WorkloadInfo parseWorkload(String mix, String flightCache, String rewardsAsync) {
        String m = mix.trim().toLowerCase(Locale.ROOT);
        if (!WorkloadInfo.MIXES.contains(m)) {
            throw invalid(P_WORKLOAD, mix, "must be one of " + String.join(", ", WorkloadInfo.MIXES)
                    + " (original: the original Acmeair driver's dates, airports and users; roundtrip: the kit's first plan)");
        }
        return new WorkloadInfo(m, parseBoolean(P_FLIGHT_CACHE, flightCache), parseBoolean(P_REWARDS_ASYNC, rewardsAsync));
    }

    /** The mesh settings as properties, defaults filled in (for the results' settings). */
    public static Map<String, String> meshSettings(Map<String, String> props) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String key : List.of(P_DATAPLANE, P_SIDECAR_MTLS, P_PROXY_WORKERS, P_INGRESS)) {
            out.put(key, props.getOrDefault(key, DEFAULTS.get(key)));
        }
        return out;
    }

    /**
     * The mesh settings ({@code meshbench.dataplane}, {@code .sidecarMtls}, {@code .proxyWorkers}, {@code .ingress}),
     * defaults filled in.
     */
    public static PlanOptions meshOptions(Map<String, String> props) {
        return parseMesh(props.getOrDefault(P_DATAPLANE, DEFAULTS.get(P_DATAPLANE)),
                props.getOrDefault(P_SIDECAR_MTLS, DEFAULTS.get(P_SIDECAR_MTLS)),
                props.getOrDefault(P_PROXY_WORKERS, DEFAULTS.get(P_PROXY_WORKERS)),
                props.getOrDefault(P_INGRESS, DEFAULTS.get(P_INGRESS)));
    }

    private static PlanOptions parseMesh(String dataPlane, String sidecarMtls, String workers, String ingress) {
        DataPlane d;
        try {
            d = DataPlane.byId(dataPlane);
        } catch (IllegalArgumentException e) {
            throw invalid(P_DATAPLANE, dataPlane, e.getMessage());
        }
        int w = parseInt(P_PROXY_WORKERS, workers);
        if (w < 1 || w > PlanOptions.MAX_WORKERS) {
            throw invalid(P_PROXY_WORKERS, workers, "must be between 1 and " + PlanOptions.MAX_WORKERS + " worker threads per proxy");
        }
        return new PlanOptions(d, parseBoolean(P_SIDECAR_MTLS, sidecarMtls), w, parseBoolean(P_INGRESS, ingress));
    }

    /** {@code true} or {@code false}, nothing else (a typo must not silently mean false). */
    public static boolean parseBoolean(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, value, "must be true or false");
        };
    }

    /** {@code sni}, {@code bypass,mtls} or {@code all}. */
    public static List<EgressCase> parseCases(String value) {
        if (value == null || value.isBlank()) {
            throw invalid(P_CASES, "", "must name at least one case; allowed: " + EgressCase.allowedIds() + ", all");
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
                throw invalid(P_CASES, value, "'" + part.trim() + "' is not a case; allowed: " + EgressCase.allowedIds() + ", all");
            }
        }
        return out;
    }

    public static List<Integer> parseClients(String value) {
        if (value == null || value.isBlank()) {
            throw invalid(P_CLIENTS, "", "must list at least one client count, e.g. 1,5,10,20");
        }
        List<Integer> out = new ArrayList<>();
        for (String part : value.split(",")) {
            String p = part.trim();
            try {
                out.add(Integer.parseInt(p));
            } catch (NumberFormatException e) {
                throw invalid(P_CLIENTS, value, "'" + p + "' is not a whole number; give positive client counts like 1,5,10,20");
            }
        }
        return out;
    }

    private static int parseInt(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw invalid(key, value, "must be a whole number");
        }
    }

    private static double parseDouble(String key, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw invalid(key, value, "must be a number");
        }
    }

    private static IllegalArgumentException invalid(String key, String value, String rule) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "%s=%s: %s", key, value, rule));
    }

    /**
     * How many clients this machine can drive in one step, from its cores, its open-files limit ({@code ulimit -n},
     * which JMeter and the local components inherit from Maven) and JMeter's heap. The ramp's largest step must not
     * exceed the smallest of the three ({@link #check}); past it a step does not run as planned (at 5,000 clients on
     * 2 cores a 10-s step lasted 128 s; at 100,000 JMeter had started 1,415 threads after 9.5 minutes).
     *
     * @param cores        cores of this machine (JMeter, and on the local target the whole case, share them)
     * @param openFiles    the open-files limit of this JVM and its children; 0 or less when unknown (no bound)
     * @param jmeterHeapMb heap of the JMeter JVM, MB ({@value #P_JMETER_HEAP_MB})
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
            if (jmeterHeapMb < JMETER_MIN_HEAP_MB) {
                throw invalid(P_JMETER_HEAP_MB, Integer.toString(jmeterHeapMb), "must be at least " + JMETER_MIN_HEAP_MB
                        + " MB (JMeter starts with -Xms" + JMETER_MIN_HEAP_MB + "m)");
            }
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
                    throw invalid(P_CLIENTS, String.join(",", clients.stream().map(String::valueOf).toList()),
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
