package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Switch;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.results.WorkloadInfo;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The application deployed once on the test cluster, every case switched in underneath it by
 * {@link KubernetesDeployment#apply}, MongoDB traffic sent through the entry after each switch, and each case's path
 * proven from the proxies' own counters, as {@code istio-config/test-cluster/e2e.sh} proves a case deployed afresh:
 * MongoDB's bytes through Istio's egress gateway in gateway and mtls only, through the kit's gateway to the SNI proxy
 * in sni only, through the sidecars' own MongoDB cluster in sidecar, nothing of MongoDB in the sidecars in bypass;
 * mTLS handshakes from the sidecars to the gateway and at its listener in mtls and sni (counted from before the switch:
 * the MongoDB driver makes its pooled connections again while the old routes drain), none at Istio's gateway in
 * gateway (TLS passed through); the gateway's certificate istiod's (a SPIFFE identity) in mtls and sni.
 *
 * <p>Used by {@link KubernetesClusterIT} and, as {@link #main}, by {@code e2e.sh} (with {@code meshbench.jar} and the
 * test classes on the class path) until the switched runner ({@code meshbench.method=switched}) drives the same
 * switches with JMeter.
 */
final class SwitchDrill {
    /** MongoDB's name on the test cluster ({@code cluster.sh mongo}). */
    static final String MONGO_HOST = "mongo.meshbench.test";
    private static final String MONGO_BYTES = "^cluster\\.outbound\\|27017\\|\\|" + Pattern.quote(MONGO_HOST) + ";?\\.upstream_cx_tx_bytes_total$";
    private static final String TO_SNI_PROXY = "^cluster\\.outbound\\|27017\\|\\|sni-proxy\\.local;?\\.upstream_cx_tx_bytes_total$";
    /** The sidecars' mTLS handshakes to the egress gateway of case mtls (Istio's) or sni (the kit's). */
    private static String sidecarToGatewayHandshakes(String gateway) {
        return "^cluster\\.outbound\\|443\\|mongo\\|" + Pattern.quote(gateway) + "\\..*\\.ssl\\.handshake$";
    }
    private static final String LISTENER_HANDSHAKES = "^listener\\..*\\.ssl\\.handshake$";
    private static final String SIDECAR_MONGO_ANY = "(27017|PassthroughCluster).*(cx_total|bytes_total)$";

    /** One switch and the checks of the window after it. */
    record Window(Switch change, int rounds, List<String> passed, List<String> failed) {
    }

    private final KubernetesClient client;
    private final KubernetesDeployment deployment;
    private final ProxyAdmin admin;
    private final PrintStream out;

    SwitchDrill(KubernetesClient client, KubernetesDeployment deployment, PrintStream out) {
        this.client = client;
        this.deployment = deployment;
        this.admin = ProxyAdmin.exec(client, Duration.ofSeconds(20));
        this.out = out;
    }

    /**
     * The test cluster's settings ({@code cluster.sh} wrote its state to {@code state}): its MongoDB (name, CA, this
     * machine's address as pods see it), the imported images, CPU requests scaled to its 2 cores, Services at their
     * ClusterIPs.
     */
    static KubernetesSettings settings(Path state, String servicesImage, String namespace, Duration readyTimeout) throws IOException {
        String hostIp = Files.readString(state.resolve("host-ip")).trim();
        KubernetesSettings.Mongo mongo = new KubernetesSettings.Mongo(URI.create("mongodb://" + MONGO_HOST + ":27017/?tls=true"),
                MONGO_HOST, "*.meshbench.test", hostIp + "/32", Files.readString(state.resolve("mongo/mongo-ca.pem")));
        return new KubernetesSettings(Optional.empty(), namespace, Map.of(KubernetesSettings.SERVICES_IMAGE, servicesImage,
                KubernetesSettings.SNI_PROXY_IMAGE, "meshbench.local/nginx:bookworm"), Optional.of(mongo), Optional.empty(),
                Optional.empty(), Optional.empty(), "istio-system/prometheus", "istio-system", "istio-system", false, readyTimeout, 0.25, true,
                Optional.empty());
    }

    /** Switches to each of {@code order} in turn (from the case applied now), each followed by {@code loadSeconds} of traffic. */
    List<Window> run(List<EgressCase> order, int loadSeconds) throws IOException, InterruptedException {
        List<Window> windows = new ArrayList<>();
        URI entry = deployment.endpoints().entry().orElseThrow(() -> new IllegalStateException("the drill sends its traffic through the entry"));
        for (EgressCase next : order) {
            EgressCase from = deployment.egressCase();
            Map<String, String> beforeSwitch = counters(from);
            Switch s = deployment.apply(next);
            out.printf(Locale.ROOT, "e2e: switched %s -> %s in %.1f s%n", from.id(), next.id(), s.seconds());
            s.done().forEach(d -> out.println("e2e:   " + d));
            Map<String, String> before = counters(next);
            Map<String, String> hopsBefore = deployment.hopStats();
            int rounds = load(entry, loadSeconds);
            Map<String, String> after = counters(next);
            Map<String, String> hopsAfter = deployment.hopStats();
            List<String> passed = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            check(next, rounds, beforeSwitch, before, after, passed, failed);
            // The kit's own proof of a measured window (what a switched sitting writes as hops-start.json and hops.json).
            List<String> gaps = dev.meshbench.orchestrator.run.PathProof.gaps(next, hopsBefore, hopsAfter);
            expect(gaps.isEmpty(), next.id() + ": the kit's per-window proof from the proxies' counters (" + hopsAfter.keySet() + ") "
                    + (gaps.isEmpty() ? "proves the path" : "found: " + String.join("; ", gaps)), passed, failed);
            passed.forEach(p -> out.println("e2e: PASS " + p));
            failed.forEach(f -> out.println("e2e: FAIL " + f));
            windows.add(new Window(s, rounds, passed, failed));
        }
        return windows;
    }

    private void check(EgressCase c, int rounds, Map<String, String> beforeSwitch, Map<String, String> before, Map<String, String> after,
            List<String> passed, List<String> failed) {
        String id = c.id();
        long atEgress = delta(before, after, "istio", MONGO_BYTES);
        long sidecarsOwn = delta(before, after, "sidecars", MONGO_BYTES);
        expect(rounds > 0, id + ": " + rounds + " rounds of login, profile and flight query through the entry, all 200", passed, failed);
        switch (c) {
            case BYPASS -> {
                expect(atEgress == 0, id + ": no MongoDB bytes at Istio's egress gateway (" + atEgress + ")", passed, failed);
                long seen = sum(after.get("sidecars"), SIDECAR_MONGO_ANY);
                expect(seen == 0, id + ": the sidecars (restarted by the switch) saw nothing of MongoDB (27017 and passthrough: " + seen + ")",
                        passed, failed);
            }
            case SIDECAR -> {
                expect(atEgress == 0, id + ": no MongoDB bytes at Istio's egress gateway (" + atEgress + ")", passed, failed);
                expect(sidecarsOwn > 0, id + ": MongoDB's bytes through the sidecars' own cluster for it (" + sidecarsOwn + ")", passed, failed);
            }
            case GATEWAY -> {
                expect(atEgress > 0, id + ": MongoDB's bytes through Istio's egress gateway (" + atEgress + ")", passed, failed);
                long handshakes = delta(before, after, "istio", LISTENER_HANDSHAKES);
                expect(handshakes == 0, id + ": TLS passed through, not ended, at the gateway (" + handshakes + " handshakes there)", passed, failed);
            }
            case MTLS, SNI -> {
                String gateway = c == EgressCase.MTLS ? "istio" : "kit";
                if (c == EgressCase.MTLS) {
                    expect(atEgress > 0, id + ": MongoDB's bytes through Istio's egress gateway (" + atEgress + ")", passed, failed);
                } else {
                    long toSniProxy = delta(before, after, "kit", TO_SNI_PROXY);
                    expect(toSniProxy > 0, id + ": MongoDB's bytes through the kit's egress gateway to the SNI proxy (" + toSniProxy + ")",
                            passed, failed);
                    expect(atEgress == 0, id + ": no MongoDB bytes at Istio's egress gateway (" + atEgress + ")", passed, failed);
                }
                // Counted from before the switch: the cluster of mtls existed without TLS in gateway; sni's is new.
                long fromSidecars = delta(beforeSwitch, after, "sidecars", sidecarToGatewayHandshakes(c == EgressCase.MTLS
                        ? "istio-egressgateway" : KubernetesDeployment.KIT_GATEWAY));
                expect(fromSidecars > 0, id + ": mTLS handshakes from the sidecars to the egress gateway since the switch (" + fromSidecars + ")",
                        passed, failed);
                long atListener = delta(beforeSwitch, after, gateway, LISTENER_HANDSHAKES);
                expect(atListener > 0, id + ": mTLS handshakes at the egress gateway's listener since the switch (" + atListener + ")",
                        passed, failed);
                String certs = read(c == EgressCase.MTLS ? "istio-system" : deployment.settings.namespace(),
                        c == EgressCase.MTLS ? "istio-egressgateway" : KubernetesDeployment.KIT_GATEWAY, "certs");
                expect(certs.contains("\"uri\": \"spiffe://cluster.local/ns/"), id + ": the gateway's certificate is istiod's, a SPIFFE identity",
                        passed, failed);
            }
        }
    }

    private static void expect(boolean ok, String what, List<String> passed, List<String> failed) {
        (ok ? passed : failed).add(what);
    }

    /**
     * The counters of the proxies the checks read, by group: {@code istio} (Istio's egress gateway), {@code sidecars}
     * (the four services' sidecars, concatenated: their counters add up), {@code kit} (the kit's gateway, in sni).
     */
    private Map<String, String> counters(EgressCase c) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("istio", read("istio-system", "istio-egressgateway", "stats"));
        StringBuilder sidecars = new StringBuilder();
        for (String svc : ComponentNames.SERVICES) {
            sidecars.append(read(deployment.settings.namespace(), svc, "stats")).append('\n');
        }
        out.put("sidecars", sidecars.toString());
        out.put("kit", c == EgressCase.SNI ? read(deployment.settings.namespace(), KubernetesDeployment.KIT_GATEWAY, "stats") : "");
        return out;
    }

    /** {@code path} of the Envoy admin of the first running pod of Deployment {@code ns/name}; tried three times. */
    private String read(String ns, String name, String path) {
        Deployment d = client.apps().deployments().inNamespace(ns).withName(name).get();
        if (d == null) {
            throw new IllegalStateException("no Deployment " + ns + "/" + name);
        }
        String pod = new ClusterOps(client, ns, ClusterOps.Applier.SERVER_SIDE).runningPods(d).get(0).getMetadata().getName();
        for (int attempt = 1;; attempt++) {
            try {
                return admin.get(ns, pod, path);
            } catch (TargetException e) {
                if (attempt == 3) {
                    throw e;
                }
                out.println("e2e:   reading " + ns + "/" + pod + " " + path + " again: " + e.getMessage());
            }
        }
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String group, String regex) {
        return sum(after.get(group), regex) - sum(before.get(group), regex);
    }

    /** Envoy's counters ({@code name: value} lines) whose names {@code regex} finds, added up. */
    static long sum(String stats, String regex) {
        Pattern p = Pattern.compile(regex);
        long total = 0;
        for (String line : stats == null ? new String[0] : stats.split("\n")) {
            String[] kv = line.split(": ", 2);
            if (kv.length == 2 && p.matcher(kv[0]).find() && kv[1].trim().matches("\\d+")) {
                total += Long.parseLong(kv[1].trim());
            }
        }
        return total;
    }

    /**
     * MongoDB traffic through the entry for {@code seconds}: per round a login (auth asks customer, which reads
     * MongoDB), the profile and a flight query, as the kit's users of the loaded database; any answer but 200 fails.
     */
    static int load(URI entry, int seconds) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        int rounds = 0;
        String day = LocalDate.now(ZoneOffset.UTC) + "T00:00:00Z";
        while (System.nanoTime() < end) {
            String user = "uid" + (rounds % 10) + "@email.com";
            expect200(http, HttpRequest.newBuilder(entry.resolve("/auth/login")).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("login=" + user + "&password=password")), "login " + user);
            expect200(http, HttpRequest.newBuilder(entry.resolve("/customer/byid/" + user)), "profile of " + user);
            expect200(http, HttpRequest.newBuilder(entry.resolve("/flight/queryflights")).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("fromAirport=CDG&toAirport=JFK&fromDate=" + day + "&returnDate=" + day
                            + "&oneWay=true")), "flight query");
            rounds++;
        }
        return rounds;
    }

    private static void expect200(HttpClient http, HttpRequest.Builder request, String what) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(what + " answered " + r.statusCode() + ": " + MongoRoutes.abbreviate(r.body()));
        }
    }

    /**
     * {@code e2e.sh}'s switched part: {@code SwitchDrill STATE_DIR SERVICES_IMAGE [LOAD_SECONDS]}. Deploys bypass into
     * the kit's default namespace ({@code acmeair}) prepared for all five cases, waits until ready (database loaded), switches through
     * sidecar, gateway, mtls, sni and back to bypass with traffic and checks after each, prints {@code e2e: PASS} and
     * {@code e2e: FAIL} lines and each switch's time, tears the namespace down (also on Ctrl-C), and exits 1 if a check
     * or a switch failed.
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: SwitchDrill STATE_DIR SERVICES_IMAGE [LOAD_SECONDS]");
            System.exit(2);
        }
        Path state = Path.of(args[0]);
        int loadSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        KubernetesSettings settings = settings(state, args[1], dev.meshbench.orchestrator.plan.TopologyPlanner.APP_NAMESPACE,
                Duration.ofSeconds(300));
        Config config = Config.fromKubeconfig(state.resolve("kubeconfig").toFile());
        int failures = 0;
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            KubernetesTarget target = new KubernetesTarget(settings, 10, 1, WorkloadInfo.ORIGINAL, true,
                    () -> new KubernetesClientBuilder().withConfig(config).build(), ClusterOps.Applier.SERVER_SIDE, out);
            KubernetesDeployment d = target.deploy(EgressCase.BYPASS, List.of(EgressCase.values()), state.resolve("logs"));
            Thread teardown = new Thread(d::close, "switch-drill-teardown");
            Runtime.getRuntime().addShutdownHook(teardown);
            List<Window> windows = List.of();
            try {
                d.awaitReady(Duration.ofSeconds(300));
                windows = new SwitchDrill(client, d, out).run(List.of(EgressCase.SIDECAR, EgressCase.GATEWAY, EgressCase.MTLS,
                        EgressCase.SNI, EgressCase.BYPASS), loadSeconds);
            } catch (TargetException | IllegalStateException e) {
                out.println("e2e: FAIL the switched sitting stopped: " + e.getMessage());
                failures++;
            } finally {
                d.close();
                Runtime.getRuntime().removeShutdownHook(teardown);
            }
            for (Window w : windows) {
                failures += w.failed().size();
            }
            out.println("e2e: switch times (one namespace): " + String.join(", ", windows.stream().map(w -> String.format(Locale.ROOT,
                    "%s->%s %.1f s", w.change().from().id(), w.change().to().id(), w.change().seconds())).toList()));
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
