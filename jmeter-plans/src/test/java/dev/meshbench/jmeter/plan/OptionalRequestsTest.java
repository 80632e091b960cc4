package dev.meshbench.jmeter.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.meshbench.jmeter.JMeterTestEnvironment;
import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.jmeter.control.ThroughputController;
import org.apache.jmeter.engine.util.ValueReplacer;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan's optional requests, those not in the original Acmeair driver that a percent property turns on
 * (docs/extending-the-workload.md): where each sits in the plan, how often its property makes it run, and what it
 * sends, the jwt_token cookie included, through JMeter's own HTTP sampler. A new optional request is a row of
 * {@link #REQUESTS}.
 */
class OptionalRequestsTest {

    static final int ROUNDS = 1000;

    /**
     * One optional request.
     *
     * @param label     its sampler's name, the JTL's label
     * @param property  the JMeter property holding its percent
     * @param service   the service it calls: the sampler's URL is {@code ${<service>Url}} plus {@code path}
     * @param path      the path, with the logged-in user for {@code ${user}}
     * @param example   the path the stub sees for {@code uid0@email.com}
     */
    record OptionalRequest(String label, String property, String service, String path, String example) {
        @Override
        public String toString() {
            return label;
        }
    }

    static final List<OptionalRequest> REQUESTS = List.of(
            new OptionalRequest("viewRewards", "rewards.percent", "customer", "/customer/byid/${user}/rewards",
                    "/customer/byid/uid0@email.com/rewards"),
            new OptionalRequest("bookingCount", "count.percent", "booking", "/booking/byuser/${user}/count",
                    "/booking/byuser/uid0@email.com/count"));

    static Stream<OptionalRequest> requests() {
        return REQUESTS.stream();
    }

    /** Each request with the percents to try and in how many of {@link #ROUNDS} each lets it run. */
    static Stream<Arguments> percents() {
        return REQUESTS.stream().flatMap(r -> Stream.of(Arguments.of(r, null, 0), Arguments.of(r, "0", 0),
                Arguments.of(r, "10", 100), Arguments.of(r, "2.5", 25), Arguments.of(r, "100", 1000)));
    }

    private static HashTree loaded;

    @BeforeAll
    static void load() throws Exception {
        JMeterTestEnvironment.init();
        loaded = SaveService.loadTree(AcmeairPlanTest.PLAN);
    }

    private static <T> List<T> find(HashTree tree, Class<T> type) {
        SearchByClass<T> search = new SearchByClass<>(type);
        tree.traverse(search);
        return List.copyOf(search.getSearchResults());
    }

    private static HTTPSamplerProxy sampler(String name) {
        return find(loaded, HTTPSamplerProxy.class).stream().filter(s -> s.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no sampler '" + name + "' in " + AcmeairPlanTest.PLAN));
    }

    /** The one Throughput Controller whose subtree holds the request. */
    private static ThroughputController controller(OptionalRequest r) {
        SearchByClass<ThroughputController> search = new SearchByClass<>(ThroughputController.class);
        loaded.traverse(search);
        List<ThroughputController> holding = search.getSearchResults().stream()
                .filter(tc -> find(search.getSubTree(tc), HTTPSamplerProxy.class).stream().anyMatch(s -> s.getName().equals(r.label())))
                .toList();
        assertEquals(1, holding.size(), "throughput controllers around " + r.label());
        return holding.get(0);
    }

    /** A copy of a plan element as the engine runs it: ${...} compiled to functions, running version on. */
    @SuppressWarnings("unchecked")
    private static <T extends TestElement> T running(T element) throws Exception {
        T copy = (T) element.clone();
        new ValueReplacer().replaceValues(copy);
        copy.setRunningVersion(true);
        return copy;
    }

    /** In how many of {@link #ROUNDS} rounds the plan's controller lets the request run. */
    private static int roundsWith(OptionalRequest r, String percentProperty) throws Exception {
        Properties saved = JMeterTestEnvironment.setProperties(r.property(), percentProperty);
        try {
            JMeterTestEnvironment.freshContext();
            ThroughputController tc = running(controller(r));
            tc.addTestElement(running(sampler(r.label())));
            tc.initialize();
            tc.testStarted();
            int sent = 0;
            for (int round = 0; round < ROUNDS; round++) {
                tc.iterationStart(null);
                while (tc.next() != null) {
                    sent++;
                }
            }
            return sent;
        } finally {
            JMeterTestEnvironment.restore(saved);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    @DisplayName("is a GET of the logged-in user's resource on its service, with nothing of its own")
    void requestShape(OptionalRequest r) {
        HTTPSamplerProxy s = sampler(r.label());
        assertEquals("GET", s.getMethod());
        assertEquals("${" + r.service() + "Url}" + r.path(), s.getPropertyAsString("HTTPSampler.path"));
        assertEquals(0, s.getArguments().getArgumentCount());
        assertTrue(s.getPropertyAsString("HTTPSampler.domain").isEmpty(), "the URL comes from " + r.service() + "Url only");
        SearchByClass<HTTPSamplerProxy> search = new SearchByClass<>(HTTPSamplerProxy.class);
        loaded.traverse(search);
        HashTree own = search.getSubTree(s).getTree(s);
        assertTrue(own == null || own.isEmpty(), "no own cookie or header manager, assertion or extractor: " + own);
    }

    @Test
    @DisplayName("the plan's one cookie manager sits at plan level, so its jwt_token reaches every optional request too")
    void cookieManagerCoversEverySampler() {
        List<CookieManager> managers = find(loaded, CookieManager.class);
        assertEquals(1, managers.size());
        TestPlan plan = find(loaded, TestPlan.class).get(0);
        assertTrue(loaded.getTree(plan).list().contains(managers.get(0)), "cookie manager is a direct child of the test plan");
        assertTrue(managers.get(0).getClearEachIteration(), "a new session (iteration) starts without the old token");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    @DisplayName("its throughput controller runs in percent mode, shared by all threads, at ${__meshbenchProperty(<its property>)}")
    void controllerSettings(OptionalRequest r) {
        ThroughputController tc = controller(r);
        assertEquals(ThroughputController.BYPERCENT, tc.getStyle());
        assertTrue(!tc.isPerThread());
        assertEquals("${__meshbenchProperty(" + r.property() + ")}", tc.getPercentThroughput());
    }

    @ParameterizedTest(name = "{0} at {1}: {2} of 1000 rounds")
    @MethodSource("percents")
    @DisplayName("runs in its property's percent of the rounds, and in none when it is unset or 0")
    void percentOfRounds(OptionalRequest r, String percent, int expected) throws Exception {
        assertEquals(expected, roundsWith(r, percent));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    @DisplayName("a value JMeter cannot parse would send it every round, so the plan's validator refuses it")
    void unparsablePercentIsRefused(OptionalRequest r) throws Exception {
        assertEquals(ROUNDS, roundsWith(r, "ten"), "JMeter's Throughput Controller reads a bad percentage as 100");
        Properties props = new Properties();
        props.setProperty(r.property(), "ten");
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(props));
        assertEquals(r.property(), e.property());
    }

    /** What the stub customer service saw: method, path, Cookie and Accept headers. */
    record Seen(String method, String path, String cookie, String accept) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    @DisplayName("sends the jwt_token cookie that login set, through the plan's cookie and header managers")
    void carriesLoginCookie(OptionalRequest r) throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/auth/login", exchange -> {
            exchange.getResponseHeaders().add("Set-Cookie", "jwt_token=token-of-uid0; Path=/; HttpOnly");
            answer(exchange, "text/plain", "logged in");
        });
        server.createContext("/" + r.service() + "/", exchange -> {
            seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Cookie"), exchange.getRequestHeaders().getFirst("Accept")));
            answer(exchange, "application/json", "{\"_id\":\"uid0@email.com\"}");
        });
        server.start();
        Properties saved = JMeterTestEnvironment.setProperties("customers", "1");
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            JMeterContext context = JMeterTestEnvironment.freshContext();
            context.getVariables().put("authUrl", base);
            context.getVariables().put(r.service() + "Url", base);
            CookieManager cookies = running(find(loaded, CookieManager.class).get(0));
            cookies.testStarted();
            HeaderManager headers = running(find(loaded, HeaderManager.class).get(0));

            SampleResult login = send(sampler("login"), cookies, headers);
            assertTrue(login.isSuccessful(), login.getResponseCode() + " " + login.getResponseDataAsString());
            assertEquals("uid0@email.com", context.getVariables().get("user"));
            SampleResult optional = send(sampler(r.label()), cookies, headers);
            assertTrue(optional.isSuccessful(), optional.getResponseCode() + " " + optional.getResponseDataAsString());
            assertEquals(r.label(), optional.getSampleLabel());

            assertEquals(1, seen.size(), seen.toString());
            Seen request = seen.get(0);
            assertEquals("GET", request.method());
            assertEquals(r.example(), request.path());
            assertEquals("jwt_token=token-of-uid0", request.cookie());
            assertEquals("application/json", request.accept());
            cookies.testEnded();
        } finally {
            JMeterTestEnvironment.restore(saved);
            server.stop(0);
        }
    }

    private static SampleResult send(HTTPSamplerProxy planSampler, CookieManager cookies, HeaderManager headers)
            throws Exception {
        HTTPSamplerProxy s = running(planSampler);
        s.setCookieManager(cookies);
        s.setHeaderManager(headers);
        return s.sample(null);
    }

    private static void answer(HttpExchange exchange, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
