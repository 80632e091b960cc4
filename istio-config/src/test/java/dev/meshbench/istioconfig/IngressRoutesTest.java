package dev.meshbench.istioconfig;

import static dev.meshbench.istioconfig.IstioCrdSchemaTest.assertMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.component.AcmeairApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one entry the original Acmeair JMeter driver needs (one host:port, routed by path): in base, so in every case,
 * a Gateway on Istio's ingress gateway (port 80 HTTP, any host) and a VirtualService that sends each operation of the
 * client API ({@link AcmeairApi#PUBLIC}: method and exact path, or a regex for a path template) to its service's
 * Service port, and nothing else: no prefix, no catch-all, so internal, loader and config paths have no route.
 */
class IngressRoutesTest {

    /** The services, each reached under {@code /<name>} (their readiness and API paths start so). */
    static final List<String> SERVICES = List.of("auth", "customer", "flight", "booking");

    /** How a route's match is written in a VirtualService: {@code GET exact /auth/logout}, {@code GET regex /customer/byid/[^/]+}. */
    static String matchKey(AcmeairApi.Operation op) {
        return op.method() + (op.isTemplate() ? " regex " + op.regex() : " exact " + op.path());
    }
    static final Map<String, String> INGRESS_SELECTOR = Map.of("istio", "ingressgateway");

    /**
     * Everything wrong with the entry in {@code docs} (a set of resources: base's files, or a case rendered), each
     * message starting with {@code where}; empty when there is exactly one Gateway selecting Istio's ingress gateway
     * with one server (port 80, HTTP, hosts *) and exactly one VirtualService bound to it (hosts *, http routes
     * only) whose matches are exactly the client API's operations, each ({@code method.exact} and {@code uri.exact}
     * or {@code uri.regex}) to {@code <svc>:<its Service's http port>}.
     */
    static List<String> routeProblems(String where, List<JsonNode> docs) {
        List<String> out = new ArrayList<>();
        Map<String, String> expected = new LinkedHashMap<>();
        for (String svc : SERVICES) {
            Optional<Integer> port = docs.stream().filter(d -> is(d, "Service", svc))
                    .flatMap(d -> stream(d.path("spec").path("ports"))).filter(p -> "http".equals(p.path("name").asText()))
                    .map(p -> p.path("port").asInt()).findFirst();
            if (port.isEmpty()) {
                out.add(where + ": no Service " + svc + " with a port named http");
            } else {
                AcmeairApi.of(svc).forEach(op -> expected.put(matchKey(op), svc + ":" + port.get()));
            }
        }
        List<JsonNode> gateways = docs.stream().filter(d -> "Gateway".equals(d.path("kind").asText())
                && selector(d).equals(INGRESS_SELECTOR)).toList();
        if (gateways.size() != 1) {
            out.add(where + ": " + gateways.size() + " Gateways select istio: ingressgateway, should be exactly one");
            return out;
        }
        JsonNode gateway = gateways.get(0);
        String gatewayName = gateway.path("metadata").path("name").asText();
        JsonNode servers = gateway.path("spec").path("servers");
        if (servers.size() != 1) {
            out.add(where + ": Gateway " + gatewayName + ": " + servers.size() + " servers, should be one (port 80 HTTP, hosts *)");
        } else {
            JsonNode s = servers.get(0);
            String actual = "port " + s.path("port").path("number").asText() + " " + s.path("port").path("protocol").asText()
                    + " hosts " + s.path("hosts");
            String wanted = "port 80 HTTP hosts [\"*\"]";
            if (!actual.equals(wanted)) {
                out.add(where + ": Gateway " + gatewayName + ": servers[0]: " + actual + ", should be " + wanted);
            }
        }
        List<JsonNode> services = docs.stream().filter(d -> "VirtualService".equals(d.path("kind").asText())
                && stream(d.path("spec").path("gateways")).anyMatch(g -> g.asText().equals(gatewayName))).toList();
        if (services.size() != 1) {
            out.add(where + ": " + services.size() + " VirtualServices are bound to Gateway " + gatewayName + ", should be exactly one");
            return out;
        }
        JsonNode vs = services.get(0);
        String prefix = where + ": VirtualService " + vs.path("metadata").path("name").asText() + ": ";
        if (!"[\"*\"]".equals(vs.path("spec").path("hosts").toString())) {
            out.add(prefix + "hosts " + vs.path("spec").path("hosts") + ", should be [\"*\"]");
        }
        for (String other : List.of("tcp", "tls")) {
            if (vs.path("spec").has(other)) {
                out.add(prefix + "spec." + other + ": routes other than http, should be none");
            }
        }
        Map<String, String> actual = new LinkedHashMap<>();
        JsonNode http = vs.path("spec").path("http");
        for (int i = 0; i < http.size(); i++) {
            JsonNode route = http.get(i);
            String at = prefix + "http[" + i + "]: ";
            Set<String> extra = new TreeSet<>();
            route.fieldNames().forEachRemaining(extra::add);
            extra.removeAll(Set.of("name", "match", "route"));
            if (!extra.isEmpty()) {
                out.add(at + "has " + String.join(", ", extra) + ", should have only name, match and route");
            }
            JsonNode match = route.path("match");
            if (!match.isArray() || match.isEmpty()) {
                out.add(at + "match should list the operations (method.exact and uri.exact or uri.regex), is "
                        + (route.has("match") ? match.toString() : "missing"));
                continue;
            }
            JsonNode to = route.path("route");
            JsonNode destination = to.path(0).path("destination");
            if (to.size() != 1 || to.get(0).size() != 1 || !destination.path("host").isTextual()
                    || !destination.path("port").path("number").isInt()) {
                out.add(at + "route should be exactly one destination with host and port.number, is " + to);
                continue;
            }
            String target = destination.path("host").asText() + ":" + destination.path("port").path("number").asInt();
            for (int j = 0; j < match.size(); j++) {
                JsonNode m = match.get(j);
                JsonNode uri = m.path("uri");
                String uriKind = uri.size() == 1 ? uri.fieldNames().next() : "";
                if (m.size() != 2 || m.path("method").size() != 1 || !m.path("method").path("exact").isTextual()
                        || !Set.of("exact", "regex").contains(uriKind) || !uri.path(uriKind).isTextual()) {
                    out.add(at + "match[" + j + "] should be method.exact and uri.exact or uri.regex only, is " + m);
                    continue;
                }
                String key = m.path("method").path("exact").asText() + " " + uriKind + " " + uri.path(uriKind).asText();
                if (actual.putIfAbsent(key, target) != null) {
                    out.add(at + key + " is routed twice");
                }
            }
        }
        expected.forEach((key, target) -> {
            String got = actual.get(key);
            if (got == null) {
                out.add(prefix + "no route for " + key + " (to " + target + ")");
            } else if (!got.equals(target)) {
                out.add(prefix + key + " goes to " + got + ", should go to " + target);
            }
        });
        actual.forEach((key, target) -> {
            if (!expected.containsKey(key)) {
                out.add(prefix + key + " goes to " + target + ", not an operation of the client API (AcmeairApi.PUBLIC)");
            }
        });
        return out;
    }

    /** Base's resources as written. */
    static List<JsonNode> baseResources(KitManifests kit) {
        return kit.resources().stream().filter(d -> d.owner() == kit.base()).map(KitManifests.Document::tree).toList();
    }

    private static boolean is(JsonNode d, String kind, String name) {
        return kind.equals(d.path("kind").asText()) && name.equals(d.path("metadata").path("name").asText());
    }

    private static Map<String, String> selector(JsonNode gateway) {
        Map<String, String> out = new LinkedHashMap<>();
        gateway.path("spec").path("selector").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false);
    }

    @Test
    @DisplayName("base routes exactly the client API at Istio's ingress gateway, each operation to its Service's port, and nothing else")
    void baseRoutesEachPrefixToItsService() {
        KitManifests kit = KitManifests.load();
        assertEquals(List.of(), routeProblems("base", baseResources(kit)));
    }

    @TestFactory
    @DisplayName("every case, rendered with kubectl kustomize, has the one entry in base's namespace")
    Stream<DynamicTest> everyCaseHasTheEntry() {
        KitManifests kit = KitManifests.load();
        assertFalse(kit.overlays().isEmpty(), "no case found");
        return kit.overlays().stream().map(k -> dynamicTest(k.dir(), () -> {
            List<JsonNode> rendered = KubectlKustomize.render(kit.moduleDir().resolve(k.dir()));
            assertEquals(List.of(), routeProblems(k.dir(), rendered));
            List<String> namespaces = rendered.stream().filter(d -> Set.of("Gateway", "VirtualService").contains(d.path("kind").asText())
                    && d.path("metadata").path("name").asText().startsWith("acmeair-"))
                    .map(d -> d.path("metadata").path("namespace").asText()).toList();
            assertEquals(List.of(kit.base().namespace(), kit.base().namespace()), namespaces, "namespaces of the entry's Gateway and VirtualService");
        }));
    }

    @Test
    @DisplayName("reports a route to the wrong service, a misspelled path, a prefix, a catch-all route and the wrong Gateway port in a broken copy")
    void reportsABrokenCopy(@TempDir Path copy) throws IOException {
        KitManifests real = KitManifests.load();
        KustomizeLayoutTest.copyTree(real.moduleDir().resolve("base"), copy.resolve("base"));
        KustomizeLayoutTest.copyTree(real.moduleDir().resolve("cases"), copy.resolve("cases"));
        Path ingress = copy.resolve("base/ingress.yaml");
        KustomizeLayoutTest.replace(ingress, "            host: flight\n", "            host: booking\n");
        KustomizeLayoutTest.replace(ingress, "uri: {exact: /auth/logout}", "uri: {exact: /auth/logouts}");
        KustomizeLayoutTest.replace(ingress, "uri: {exact: /customer/ready}", "uri: {prefix: /customer}");
        KustomizeLayoutTest.replace(ingress, "        number: 80\n", "        number: 8080\n");
        Files.writeString(ingress, Files.readString(ingress) + """
                    - name: everything-else
                      route:
                        - destination:
                            host: auth
                """);
        String vs = "base: VirtualService acmeair-routes: ";
        assertMessages(List.of(
                "base: Gateway acmeair-ingress: servers[0]: port 8080 HTTP hosts [\"*\"], should be port 80 HTTP hosts [\"*\"]",
                vs + "http[1]: match[3] should be method.exact and uri.exact or uri.regex only, is "
                        + "{\"method\":{\"exact\":\"GET\"},\"uri\":{\"prefix\":\"/customer\"}}",
                vs + "http[4]: match should list the operations (method.exact and uri.exact or uri.regex), is missing",
                vs + "no route for GET exact /auth/logout (to auth:8080)",
                vs + "no route for GET exact /customer/ready (to customer:8080)",
                vs + "POST exact /flight/queryflights goes to booking:8080, should go to flight:8080",
                vs + "GET exact /flight/ready goes to booking:8080, should go to flight:8080",
                vs + "GET exact /auth/logouts goes to auth:8080, not an operation of the client API (AcmeairApi.PUBLIC)"),
                routeProblems("base", baseResources(KitManifests.at(copy))));
    }

    @Test
    @DisplayName("reports a missing Gateway and a second VirtualService bound to it")
    void reportsMissingOrDoubledResources() {
        KitManifests kit = KitManifests.load();
        List<JsonNode> base = baseResources(kit);
        List<JsonNode> noGateway = base.stream().filter(d -> !"Gateway".equals(d.path("kind").asText())).toList();
        assertMessages(List.of("base: 0 Gateways select istio: ingressgateway, should be exactly one"), routeProblems("base", noGateway));
        List<JsonNode> twice = new ArrayList<>(base);
        twice.add(base.stream().filter(d -> "VirtualService".equals(d.path("kind").asText())).findFirst().orElseThrow().deepCopy());
        assertMessages(List.of("base: 2 VirtualServices are bound to Gateway acmeair-ingress, should be exactly one"),
                routeProblems("base", twice));
    }
}
