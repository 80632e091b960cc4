package dev.meshbench.results.samples;

import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.ClusterNode;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkloadInfo;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Writes small, synthetic but realistic run folders (run.json, samples.jtl, cpu-samples.csv) for tests. A simple
 * closed-loop model: each client sends a request, waits for the response (latency grows as the case's capacity
 * saturates), thinks, and repeats; components burn CPU per transaction plus a little when idle. Seeded, so the
 * output is the same on every machine. The numbers are made up to look like the study, not measured. Every run has
 * the load come through the ingress gateway ({@code meshbench.ingress}'s default), which burns mesh CPU of its own.
 */
public final class SampleRunGenerator {
    /** Client steps of every sample run. */
    public static final List<Integer> STEPS = List.of(1, 5, 10, 20, 30);
    static final int STEP_SECONDS = 4;
    static final int WARMUP_SECONDS = 1;
    static final int THINK_MS = 250;
    static final long GAP_MS = 700;
    static final String NETTY_VERSION = "meshbench-netty 0.1.0-SNAPSHOT (JDK TLS)";
    static final String ENVOY_VERSION = "envoy 1.40.0";

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,step";
    private static final String[][] OPERATIONS = {
        {"login", "POST", "/auth/acmeair-as/rest/api/login", "10"},
        {"queryflight", "POST", "/flight/acmeair-fs/rest/api/flights/queryflights", "40"},
        {"viewprofile", "GET", "/customer/acmeair-cs/rest/api/customer/byid/uid0@email.com", "15"},
        {"updateprofile", "POST", "/customer/acmeair-cs/rest/api/customer/byid/uid0@email.com", "10"},
        {"bookflight", "POST", "/booking/acmeair-bs/rest/api/bookings/bookflights", "15"},
        {"cancelbooking", "POST", "/booking/acmeair-bs/rest/api/bookings/cancelbooking", "5"},
        {"logout", "GET", "/auth/acmeair-as/rest/api/login/logout", "5"},
    };

    /** How a case behaves in the model on one data plane. */
    public record CaseModel(String caseId, double capacityPerSecond, double baseLatencyMs, double errorRatio,
            List<Component> components, DataPlaneInfo dataPlane) {
    }

    /** A sampled process: CPU ms per transaction and per idle second. */
    public record Component(String name, ComponentRole role, long pid, double msPerTx, double idleMsPerSecond,
            long rssBytes) {
    }

    /** The five cases on the Netty relays, with mesh CPU and capacity chosen to resemble the study's shape. */
    public static List<CaseModel> cases() {
        return List.of(
                model(DataPlaneInfo.NETTY, "bypass", 92, 12, 0.0, 0.30, 0, 0),
                model(DataPlaneInfo.NETTY, "sidecar", 90, 13, 0.0, 0.42, 0, 0),
                model(DataPlaneInfo.NETTY, "gateway", 88, 14, 0.001, 0.42, 0.45, 0),
                model(DataPlaneInfo.NETTY, "mtls", 82, 16, 0.002, 0.48, 0.80, 0),
                model(DataPlaneInfo.NETTY, "sni", 70, 19, 0.004, 0.48, 0.85, 0.70));
    }

    /** Two cases on Envoy (nginx as SNI proxy): less mesh CPU per transaction, a little more capacity. */
    public static List<CaseModel> envoyCases() {
        return List.of(
                model(DataPlaneInfo.ENVOY, "bypass", 94, 11, 0.0, 0.22, 0, 0),
                model(DataPlaneInfo.ENVOY, "sni", 80, 16, 0.002, 0.34, 0.55, 0.25));
    }

    /** The Netty model of {@code caseId}. */
    public static CaseModel model(String caseId) {
        return model(caseId, DataPlaneInfo.NETTY);
    }

    /** The model of {@code caseId} on the data plane named {@code dataPlane}. */
    public static CaseModel model(String caseId, String dataPlane) {
        return java.util.stream.Stream.concat(cases().stream(), envoyCases().stream())
                .filter(c -> c.caseId().equals(caseId) && c.dataPlane().name().equals(dataPlane))
                .findFirst().orElseThrow();
    }

    private static CaseModel model(String dataPlane, String id, double capacity, double baseMs, double errors,
            double sidecarMsPerTx, double gatewayMsPerTx, double sniProxyMsPerTx) {
        boolean envoy = dataPlane.equals(DataPlaneInfo.ENVOY);
        List<Component> cs = new ArrayList<>();
        // every request passes the ingress gateway once, whatever the case
        cs.add(new Component(ComponentNames.INGRESS_GATEWAY, ComponentRole.MESH, 4099, envoy ? 0.20 : 0.32,
                envoy ? 1 : 2, envoy ? 43_000_000L : 60_000_000L));
        // the names are the orchestrator's (ComponentNames), in its start order: customer, flight, auth, booking
        double[] appMsPerTx = {0.85, 1.05, 0.55, 1.25};
        for (int i = 0; i < ComponentNames.SERVICES.size(); i++) {
            String service = ComponentNames.SERVICES.get(i);
            cs.add(new Component(service, ComponentRole.APP, 4100 + i, appMsPerTx[i], 6,
                    310_000_000L + i * 7_000_000L));
            cs.add(new Component(ComponentNames.sidecarOf(service), ComponentRole.MESH, 4200 + i, sidecarMsPerTx,
                    envoy ? 1 : 2, envoy ? 41_000_000L : 58_000_000L));
        }
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("sidecar", envoy ? ENVOY_VERSION : NETTY_VERSION);
        if (gatewayMsPerTx > 0) {
            cs.add(new Component(ComponentNames.EGRESS_GATEWAY, ComponentRole.MESH, 4300, gatewayMsPerTx, envoy ? 1 : 2,
                    envoy ? 44_000_000L : 61_000_000L));
            versions.put("egress-gateway", envoy ? ENVOY_VERSION : NETTY_VERSION);
        }
        if (sniProxyMsPerTx > 0) {
            cs.add(new Component(ComponentNames.SNI_PROXY, ComponentRole.MESH, 4301, sniProxyMsPerTx, 1,
                    envoy ? 9_000_000L : 45_000_000L));
            versions.put("sni-proxy", envoy ? "nginx 1.22.1" : NETTY_VERSION);
        }
        cs.add(new Component(ComponentNames.MONGO, ComponentRole.DATABASE, 4000, 0.9, 4, 420_000_000L));
        cs.add(new Component("jmeter", ComponentRole.LOAD, 4400, 0.35, 8, 520_000_000L));
        DataPlaneInfo plane = new DataPlaneInfo(dataPlane, versions, 2, true, true, envoy ? "BoringSSL" : "JDK");
        return new CaseModel(id, capacity, baseMs, errors, cs, plane);
    }

    private SampleRunGenerator() {
    }

    /**
     * The cluster of the sample Kubernetes runs: three equal workers the size of an {@code m6i.2xlarge}, as a
     * managed cluster reports them (allocatable a little below the 8 cores and 32 GiB of the machine).
     */
    public static final ClusterInfo CLUSTER = new ClusterInfo("v1.31.4-eks-2d5f260", "1.28.0", List.of(
            new ClusterNode("ip-10-0-1-17.ec2.internal", 7.91, 33_176_207_360L, "m6i.2xlarge"),
            new ClusterNode("ip-10-0-2-41.ec2.internal", 7.91, 33_176_207_360L, "m6i.2xlarge"),
            new ClusterNode("ip-10-0-3-9.ec2.internal", 7.91, 33_176_207_360L, "m6i.2xlarge")));

    /**
     * Writes the run folder {@code dir} for {@code model} on the local target; {@code repeat} (1, 2, ...) changes
     * the seed and start time so repeats of a case differ a little. Netty runs start from 09:00, Envoy runs from
     * 10:00.
     */
    public static RunInputs write(Path dir, CaseModel model, int repeat) throws IOException {
        return write(dir, model, repeat, null);
    }

    /**
     * As {@link #write(Path, CaseModel, int)}, on the Kubernetes target when {@code cluster} is not {@code null}:
     * such runs record the cluster, have seeds of their own and start from 11:00.
     */
    public static RunInputs write(Path dir, CaseModel model, int repeat, ClusterInfo cluster) throws IOException {
        Files.createDirectories(dir);
        String plane = model.dataPlane().name();
        boolean netty = plane.equals(DataPlaneInfo.NETTY);
        // the Netty seeds are those of the samples before data planes were recorded: their JTLs stay the same
        String seed = netty ? model.caseId() : model.caseId() + "/" + plane;
        String firstStart = netty ? "2026-11-20T09:00:00Z" : "2026-11-20T10:00:00Z";
        if (cluster != null) {
            seed += "/" + TargetKind.KUBERNETES.id();
            firstStart = "2026-11-20T11:00:00Z";
        }
        Random random = new Random(seed.hashCode() * 31L + repeat);
        long runStart = Instant.parse(firstStart).toEpochMilli()
                + (dev.meshbench.results.ResultsSchema.caseOrder(model.caseId()) * 3 + repeat - 1) * 60_000L;
        String runId = dir.getFileName().toString();
        RunInputs inputs = RunInputs.starting(runId, model.caseId(),
                cluster == null ? TargetKind.LOCAL : TargetKind.KUBERNETES, STEPS, STEP_SECONDS,
                WARMUP_SECONDS, THINK_MS, 200, new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"),
                new Machine(2, 25_769_803_776L, "Linux 6.1.0-28-amd64 amd64"), Instant.ofEpochMilli(runStart))
                .withDataPlane(model.dataPlane()).withWorkload(WorkloadInfo.FIRST_VERSION);
        if (cluster != null) {
            inputs = inputs.withCluster(cluster);
        }
        // repeats differ a little in capacity, as real repeats do
        double capacity = model.capacityPerSecond() * (1 + (random.nextDouble() - 0.5) * 0.06);
        List<String[]> rows = new ArrayList<>();
        long t = runStart + 1500;
        List<double[]> throughputTimeline = new ArrayList<>();
        for (int clients : STEPS) {
            long start = t + random.nextInt(15);
            long end = start + STEP_SECONDS * 1000L + random.nextInt(25);
            inputs = inputs.withStep(StepWindow.planned(clients).started(start).ended(end));
            long before = rows.size();
            simulateStep(rows, random, model, capacity, clients, start, end);
            throughputTimeline.add(new double[] {start, end, (rows.size() - before) * 1000.0 / (end - start)});
            t = end + GAP_MS;
        }
        inputs = inputs.passed();
        ResultsJson.writeRunInputs(dir.resolve("run.json"), inputs);
        rows.sort(Comparator.comparingLong((String[] r) -> Long.parseLong(r[0]) + Long.parseLong(r[1])));
        try (Writer w = Files.newBufferedWriter(dir.resolve("samples.jtl"), StandardCharsets.UTF_8)) {
            w.write(HEADER + "\n");
            for (String[] r : rows) {
                w.write(String.join(",", r) + "\n");
            }
        }
        writeCpu(dir.resolve("cpu-samples.csv"), random, new Random(seed.hashCode() * 37L + repeat), model, runStart,
                t + 1000, throughputTimeline);
        return inputs;
    }

    private static void simulateStep(List<String[]> rows, Random random, CaseModel model, double capacity,
            int clients, long start, long end) {
        double cycleFloorMs = clients * 1000.0 / capacity - THINK_MS;
        double excess = cycleFloorMs - model.baseLatencyMs();
        double latencyMs = model.baseLatencyMs() + 20 * Math.log1p(Math.exp(excess / 20));
        for (int thread = 1; thread <= clients; thread++) {
            long s = start + random.nextInt(200);
            while (s < end) {
                double factor = Math.exp(random.nextGaussian() * 0.35 - 0.06);
                if (random.nextDouble() < 0.01) {
                    factor *= 3 + random.nextDouble() * 3;
                }
                long elapsed = Math.max(1, Math.round(latencyMs * factor));
                boolean failed = random.nextDouble() < model.errorRatio();
                String[] op = pick(random);
                if (failed) {
                    elapsed = random.nextBoolean() ? 1 + random.nextInt(4) : elapsed;
                }
                rows.add(row(s, elapsed, op, failed, clients, thread, random));
                s += elapsed + Math.round(THINK_MS * (0.5 + random.nextDouble()));
            }
        }
    }

    private static String[] pick(Random random) {
        int r = random.nextInt(100);
        for (String[] op : OPERATIONS) {
            r -= Integer.parseInt(op[3]);
            if (r < 0) {
                return op;
            }
        }
        return OPERATIONS[0];
    }

    private static String[] row(long start, long elapsed, String[] op, boolean failed, int clients, int thread,
            Random random) {
        String code = failed ? "500" : "200";
        String message = failed ? "Internal Server Error" : "OK";
        String failure = failed ? "\"Test failed: code expected to match /200/, got \"\"500\"\"\"" : "";
        long bytes = failed ? 310 : 520 + random.nextInt(220);
        long sent = "GET".equals(op[1]) ? 190 + random.nextInt(20) : 330 + random.nextInt(90);
        long connect = random.nextInt(50) == 0 ? 1 : 0;
        long latency = Math.max(0, elapsed - random.nextInt(2));
        return new String[] {
            Long.toString(start), Long.toString(elapsed), op[0], code, message,
            "Clients " + clients + " 1-" + thread, "text", Boolean.toString(!failed), failure,
            Long.toString(bytes), Long.toString(sent), Integer.toString(clients), Integer.toString(clients),
            "http://127.0.0.1:9080" + op[2], Long.toString(latency), "0", Long.toString(connect),
            Integer.toString(clients)};
    }

    /**
     * The ingress gateway draws from {@code ingressRandom}, every other component from {@code random}: adding the
     * ingress gateway left the other components' samples as they were.
     */
    private static void writeCpu(Path file, Random random, Random ingressRandom, CaseModel model, long from, long to,
            List<double[]> throughput) throws IOException {
        List<Component> cs = model.components();
        double[] cumulative = new double[cs.size()];
        long[] last = new long[cs.size()];
        Random[] draws = new Random[cs.size()];
        for (int i = 0; i < cs.size(); i++) {
            draws[i] = cs.get(i).name().equals(ComponentNames.INGRESS_GATEWAY) ? ingressRandom : random;
            cumulative[i] = 1500 + draws[i].nextInt(3000);
            last[i] = from;
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("epochMs,component,role,pid,cpuMillis,rssBytes\n");
            for (long tick = from; tick <= to; tick += 1000) {
                for (int i = 0; i < cs.size(); i++) {
                    Component c = cs.get(i);
                    Random r = draws[i];
                    long at = tick + 1 + r.nextInt(40);
                    double busy = c.idleMsPerSecond() * (at - last[i]) / 1000.0
                            + c.msPerTx() * transactionsBetween(throughput, last[i], at);
                    cumulative[i] += Math.max(0, busy * (1 + r.nextGaussian() * 0.05));
                    last[i] = at;
                    long rss = c.rssBytes() + r.nextInt(4_000_000);
                    w.write(String.format(Locale.ROOT, "%d,%s,%s,%d,%d,%d\n", at, c.name(), c.role().id(), c.pid(),
                            Math.round(cumulative[i]), rss));
                }
            }
        }
    }

    private static double transactionsBetween(List<double[]> throughput, long a, long b) {
        double n = 0;
        for (double[] step : throughput) {
            double overlap = Math.min(b, step[1]) - Math.max(a, step[0]);
            if (overlap > 0) {
                n += overlap / 1000.0 * step[2];
            }
        }
        return n;
    }
}
