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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The viewRewards request (docs/extending-the-workload.md): where it sits in the plan, how often the rewards.percent
 * property makes it run, and what it sends, the jwt_token cookie included, through JMeter's own HTTP sampler.
 */
class RewardsRequestTest {

    static final String LABEL = "viewRewards";
    static final int ROUNDS = 1000;

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

    /** The one Throughput Controller whose subtree holds viewRewards. */
    private static ThroughputController rewardsController() {
        SearchByClass<ThroughputController> search = new SearchByClass<>(ThroughputController.class);
        loaded.traverse(search);
        List<ThroughputController> holding = search.getSearchResults().stream()
                .filter(tc -> find(search.getSubTree(tc), HTTPSamplerProxy.class).stream().anyMatch(s -> s.getName().equals(LABEL)))
                .toList();
        assertEquals(1, holding.size(), "throughput controllers around " + LABEL);
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

    /** In how many of {@link #ROUNDS} rounds the plan's rewards controller lets viewRewards run. */
    private static int roundsWithRewards(String percentProperty) throws Exception {
        Properties saved = JMeterTestEnvironment.setProperties("rewards.percent", percentProperty);
        try {
            JMeterTestEnvironment.freshContext();
            ThroughputController tc = running(rewardsController());
            tc.addTestElement(running(sampler(LABEL)));
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

    @Test
    @DisplayName("viewRewards is a GET of the logged-in user's rewards on the customer service, with nothing of its own")
    void requestShape() {
        HTTPSamplerProxy s = sampler(LABEL);
        assertEquals("GET", s.getMethod());
        assertEquals("${customerUrl}/customer/byid/${user}/rewards", s.getPropertyAsString("HTTPSampler.path"));
        assertEquals(0, s.getArguments().getArgumentCount());
        assertTrue(s.getPropertyAsString("HTTPSampler.domain").isEmpty(), "the URL comes from customerUrl only");
        SearchByClass<HTTPSamplerProxy> search = new SearchByClass<>(HTTPSamplerProxy.class);
        loaded.traverse(search);
        HashTree own = search.getSubTree(s).getTree(s);
        assertTrue(own == null || own.isEmpty(), "no own cookie or header manager, assertion or extractor: " + own);
    }

    @Test
    @DisplayName("the plan's one cookie manager sits at plan level, so its jwt_token reaches viewRewards too")
    void cookieManagerCoversEverySampler() {
        List<CookieManager> managers = find(loaded, CookieManager.class);
        assertEquals(1, managers.size());
        TestPlan plan = find(loaded, TestPlan.class).get(0);
        assertTrue(loaded.getTree(plan).list().contains(managers.get(0)), "cookie manager is a direct child of the test plan");
        assertTrue(managers.get(0).getClearEachIteration(), "a new session (iteration) starts without the old token");
    }

    @Test
    @DisplayName("its throughput controller runs in percent mode, shared by all threads, at ${__meshbenchProperty(rewards.percent)}")
    void controllerSettings() {
        ThroughputController tc = rewardsController();
        assertEquals(ThroughputController.BYPERCENT, tc.getStyle());
        assertTrue(!tc.isPerThread());
        assertEquals("${__meshbenchProperty(rewards.percent)}", tc.getPercentThroughput());
    }

    @ParameterizedTest(name = "rewards.percent={0}: {1} of 1000 rounds")
    @CsvSource(nullValues = "unset", value = {"unset, 0", "0, 0", "10, 100", "2.5, 25", "100, 1000"})
    @DisplayName("runs viewRewards in rewards.percent of the rounds, and in none when it is unset or 0")
    void percentOfRounds(String percent, int expected) throws Exception {
        assertEquals(expected, roundsWithRewards(percent));
    }

    @Test
    @DisplayName("a value JMeter cannot parse would send viewRewards every round, so the plan's validator refuses it")
    void unparsablePercentIsRefused() throws Exception {
        assertEquals(ROUNDS, roundsWithRewards("ten"), "JMeter's Throughput Controller reads a bad percentage as 100");
        Properties props = new Properties();
        props.setProperty("rewards.percent", "ten");
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(props));
        assertEquals("rewards.percent", e.property());
    }

    /** What the stub customer service saw: method, path, Cookie and Accept headers. */
    record Seen(String method, String path, String cookie, String accept) {
    }

    @Test
    @DisplayName("sends the jwt_token cookie that login set, through the plan's cookie and header managers")
    void carriesLoginCookie() throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/auth/login", exchange -> {
            exchange.getResponseHeaders().add("Set-Cookie", "jwt_token=token-of-uid0; Path=/; HttpOnly");
            answer(exchange, "text/plain", "logged in");
        });
        server.createContext("/customer/", exchange -> {
            seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Cookie"), exchange.getRequestHeaders().getFirst("Accept")));
            answer(exchange, "application/json", "{\"_id\":\"uid0@email.com\",\"tier\":\"GOLD\"}");
        });
        server.start();
        Properties saved = JMeterTestEnvironment.setProperties("customers", "1");
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            JMeterContext context = JMeterTestEnvironment.freshContext();
            context.getVariables().put("authUrl", base);
            context.getVariables().put("customerUrl", base);
            CookieManager cookies = running(find(loaded, CookieManager.class).get(0));
            cookies.testStarted();
            HeaderManager headers = running(find(loaded, HeaderManager.class).get(0));

            SampleResult login = send(sampler("login"), cookies, headers);
            assertTrue(login.isSuccessful(), login.getResponseCode() + " " + login.getResponseDataAsString());
            assertEquals("uid0@email.com", context.getVariables().get("user"));
            SampleResult rewards = send(sampler(LABEL), cookies, headers);
            assertTrue(rewards.isSuccessful(), rewards.getResponseCode() + " " + rewards.getResponseDataAsString());
            assertEquals(LABEL, rewards.getSampleLabel());

            assertEquals(1, seen.size(), seen.toString());
            Seen request = seen.get(0);
            assertEquals("GET", request.method());
            assertEquals("/customer/byid/uid0@email.com/rewards", request.path());
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
