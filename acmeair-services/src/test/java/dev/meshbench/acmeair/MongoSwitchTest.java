package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.DAY1;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.tokenFor;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.config.MongoConfig;
import dev.meshbench.acmeair.config.ServiceConfig;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.mongo.SwitchableMongo;
import dev.meshbench.component.AcmeairApi;
import dev.meshbench.component.testing.ClosedPort;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The kit's MongoDB switch, end to end: services started in-process with {@code --allow-mongo-switch}, reaching the
 * test run's embedded TLS MongoDB through loopback relays ({@link CountingTcpRelay}), one relay per path, so which
 * path a service uses shows on the relays' side (connections accepted and open, bytes relayed). Switched with real
 * HTTP requests to {@value AcmeairApi#MONGO_SWITCH_PATH}.
 */
@ExtendWith(AcmeairSystem.class)
@DisplayName("the kit's MongoDB switch (--allow-mongo-switch, PUT /admin/mongo)")
class MongoSwitchTest {
    private static final String NAME = ReadinessAndTlsTest.NAME;
    /** Every flight query reads MongoDB (no cache), and booking updates miles before it answers. */
    private static final Behaviour UNCACHED = new Behaviour(false, false);
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private CountingTcpRelay relay() throws IOException {
        CountingTcpRelay r = CountingTcpRelay.start(AcmeairSystem.launcher().mongo().address());
        closeables.add(r);
        return r;
    }

    static String uri(int port) {
        return "mongodb://" + NAME + ":" + port + "/?tls=true";
    }

    /** As the kit starts a service: the name, aliased to loopback, trusting the run's MongoDB CA. */
    static MongoConfig mongoAt(String uri) {
        return new MongoConfig(uri, AcmeairSystem.launcher().mongo().caFile(), null, null, Map.of(NAME, "127.0.0.1"),
                Duration.ofSeconds(2));
    }

    private AcmeairService start(ServiceName name, String mongoUri, boolean allowSwitch) {
        Path jwt = AcmeairSystem.launcher().jwtKeys().publicKey();
        MongoConfig mongo = mongoAt(mongoUri);
        ServiceConfig config = switch (name) {
            case CUSTOMER -> new ServiceConfig(name, "127.0.0.1", 0, mongo, null, null, null, jwt, UNCACHED);
            case FLIGHT -> new ServiceConfig(name, "127.0.0.1", 0, mongo, null, null, null, null, UNCACHED);
            case BOOKING -> new ServiceConfig(name, "127.0.0.1", 0, mongo, URI.create(url(ServiceName.CUSTOMER)),
                    URI.create(url(ServiceName.FLIGHT)), null, jwt, UNCACHED);
            case AUTH -> throw new IllegalArgumentException("auth keeps no data");
        };
        AcmeairService s = AcmeairService.start(config.withMongoSwitch(allowSwitch));
        closeables.add(s);
        return s;
    }

    static HttpResponse<String> put(AcmeairService s, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(s.baseUrl() + AcmeairApi.MONGO_SWITCH_PATH)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "text/plain; charset=utf-8").PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    static JsonNode switched(AcmeairService s, String uri) {
        HttpResponse<String> r = put(s, uri);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(uri, json(r).get("uri").asText(), r.body());
        return json(r);
    }

    static JsonNode current(AcmeairService s) {
        HttpResponse<String> r = Http.get(s.baseUrl() + AcmeairApi.MONGO_SWITCH_PATH);
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + DEADLINE.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting until " + what);
            }
        }
    }

    /** The customer service reads a customer (one find). */
    static void readCustomer(AcmeairService customer, String user) {
        HttpResponse<String> r = Http.get(customer.baseUrl() + "/customer/byid/" + user, tokenFor(user));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(user, json(r).get("_id").asText());
    }

    /** The flight service answers a query with a flight (uncached: finds on MongoDB); the first flight option. */
    static JsonNode queryFlight(AcmeairService flight) {
        HttpResponse<String> r = Http.post(flight.baseUrl() + "/flight/queryflights", null, "fromAirport", "JFK", "toAirport", "CDG",
                "fromDate", DAY1, "oneWay", "true");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode option = json(r).get("tripFlights").get(0).get("flightsOptions").get(0);
        assertEquals("JFK", option.get("flightSegment").get("originPort").asText(), r.body());
        return option;
    }

    /** The booking service books {@code flight} for {@code user} and lists the booking (insert, then find). */
    static void bookAndList(AcmeairService booking, String user, JsonNode flight) {
        String jwt = tokenFor(user);
        HttpResponse<String> r = Http.post(booking.baseUrl() + "/booking/bookflights", jwt, "userid", user, "toFlightId",
                flight.get("_id").asText(), "toFlightSegId", flight.get("flightSegmentId").asText(), "oneWayFlight", "true");
        assertEquals(200, r.statusCode(), r.body());
        String id = json(r).get("departBookingId").asText();
        HttpResponse<String> list = Http.get(booking.baseUrl() + "/booking/byuser/" + user, jwt);
        assertEquals(200, list.statusCode(), list.body());
        assertTrue(list.body().contains(id), list.body());
    }

    /** The service's driver command counts by label set, {@code ping} left out (as the kit's work counters leave it out). */
    static Map<String, Double> commandCounts(AcmeairService s) {
        Map<String, Double> out = new LinkedHashMap<>();
        Http.get(s.baseUrl() + "/metrics").body().lines()
                .filter(l -> l.startsWith("mongodb_driver_commands_seconds_count{") && !l.contains("command=\"ping\""))
                .forEach(l -> out.put(l.substring(0, l.lastIndexOf(' ')), Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))));
        return out;
    }

    static double sum(Map<String, Double> counts) {
        return counts.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Whether the service's driver counted a {@code command} at the MongoDB address ending in {@code :port}. */
    static boolean countedAt(AcmeairService s, String command, int port) {
        return commandCounts(s).entrySet().stream().anyMatch(e -> e.getKey().contains("command=\"" + command + "\"")
                && e.getKey().contains("server_address=\"" + NAME + ":" + port + "\"") && e.getValue() > 0);
    }

    @Test
    @DisplayName("after the 200, customer, flight and booking work through the new address, even with the old one gone")
    void everyRepositoryUsesTheNewClient() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        String user = TestUsers.MONGO_SWITCH.email(90);
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        AcmeairService flight = start(ServiceName.FLIGHT, uri(a.port()), true);
        AcmeairService booking = start(ServiceName.BOOKING, uri(a.port()), true);
        readCustomer(customer, user);
        JsonNode option = queryFlight(flight);
        bookAndList(booking, user, option);
        assertTrue(a.accepted() >= 3, "connections through A: " + a.accepted());
        assertEquals(0, b.accepted(), "nothing uses B yet");

        for (AcmeairService s : List.of(customer, flight, booking)) {
            JsonNode body = switched(s, uri(b.port()));
            assertEquals(1, body.get("switches").asInt(), body.toString());
            assertEquals(NAME + ":" + b.port() + " (alias of 127.0.0.1)", body.get("address").asText(), body.toString());
        }
        a.close(); // the old path is gone: whatever still used it would fail now
        long toB = b.bytesToTarget();
        long fromB = b.bytesFromTarget();

        readCustomer(customer, user);
        bookAndList(booking, user, queryFlight(flight));
        for (AcmeairService s : List.of(customer, flight, booking)) {
            HttpResponse<String> ready = Http.get(s.baseUrl() + s.name().readyPath());
            assertEquals(200, ready.statusCode(), ready.body());
            assertEquals(NAME + ":" + b.port() + " (alias of 127.0.0.1)", json(ready).get("mongo").asText(), ready.body());
        }
        assertTrue(b.bytesToTarget() > toB && b.bytesFromTarget() > fromB, "requests crossed B: " + toB + " -> " + b.bytesToTarget());
        assertTrue(b.accepted() >= 3, "each service connected through B: " + b.accepted());
        assertTrue(countedAt(customer, "find", b.port()), "customer's find went to B");
        assertTrue(countedAt(flight, "find", b.port()), "flight's finds went to B");
        assertTrue(countedAt(booking, "insert", b.port()) && countedAt(booking, "find", b.port()), "booking's insert and find went to B");
    }

    @Test
    @DisplayName("the replaced client's connections stay open for the grace period, then close; closing the service closes the new one's")
    void oldConnectionsCloseAfterTheGracePeriod() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(91));
        assertTrue(a.open() > 0, "the client holds connections through A");

        long sent = System.nanoTime();
        switched(customer, uri(b.port()));
        await("A's connections are closed", () -> a.open() == 0);
        long firstClose = a.firstCloseSince(sent) - sent;
        assertTrue(firstClose >= SwitchableMongo.OLD_CLIENT_GRACE.toNanos(),
                "A's first connection closed " + TimeUnit.NANOSECONDS.toMillis(firstClose) + " ms after the switch was asked for, "
                        + "before the grace period of " + SwitchableMongo.OLD_CLIENT_GRACE.toMillis() + " ms");
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(91));
        assertTrue(b.open() > 0, "the new client holds connections through B");

        customer.close();
        await("B's connections are closed once the service is", () -> b.open() == 0);
    }

    @Test
    @DisplayName("closing the service during the grace period closes the replaced client too")
    void closingDuringTheGracePeriodClosesBothClients() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(91));
        switched(customer, uri(b.port()));
        customer.close();
        await("A's and B's connections are closed", () -> a.open() == 0 && b.open() == 0);
    }

    @Test
    @DisplayName("the driver's command counter keeps counting across a switch: the old address's series stay, the new one's add")
    void commandCounterKeepsCounting() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        String user = TestUsers.MONGO_SWITCH.email(91);
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        for (int i = 0; i < 3; i++) {
            readCustomer(customer, user);
        }
        Map<String, Double> before = commandCounts(customer);
        assertTrue(sum(before) >= 3, before.toString());

        switched(customer, uri(b.port()));
        for (int i = 0; i < 5; i++) {
            readCustomer(customer, user);
        }
        Map<String, Double> after = commandCounts(customer);
        before.forEach((series, count) -> assertTrue(after.getOrDefault(series, -1.0) >= count,
                series + " was " + count + " before the switch, " + after.get(series) + " after"));
        assertTrue(sum(after) >= sum(before) + 5, "the sum went from " + sum(before) + " to " + sum(after) + " over 5 finds");
        assertTrue(countedAt(customer, "find", b.port()), after.toString());
    }

    @Test
    @DisplayName("an address that does not answer: 503 with the driver's reason, nothing changes, and requests still go to the old one")
    void unreachableAddressChangesNothing() throws IOException {
        CountingTcpRelay a = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        String user = TestUsers.MONGO_SWITCH.email(92);
        readCustomer(customer, user);
        ClosedPort nobody = new ClosedPort();
        closeables.add(nobody);
        int closed = nobody.port();

        HttpResponse<String> r = put(customer, uri(closed));
        assertEquals(503, r.statusCode(), r.body());
        String message = json(r).get("message").asText();
        assertTrue(message.startsWith("switching MongoDB failed: MongoDB at " + NAME + ":" + closed + " (alias of 127.0.0.1) did not answer ping"),
                message);
        assertTrue(message.contains("Connection refused") && message.endsWith("nothing was changed"), message);

        JsonNode now = current(customer);
        assertEquals(uri(a.port()), now.get("uri").asText());
        assertEquals(0, now.get("switches").asInt());
        long toA = a.bytesToTarget();
        readCustomer(customer, user);
        assertTrue(a.bytesToTarget() > toA, "the request crossed A");
        assertEquals(200, Http.get(customer.baseUrl() + "/customer/ready").statusCode());
    }

    @Test
    @DisplayName("a connection string that is invalid, or changes more than the hosts, is refused with 400 naming what, and nothing changes")
    void refusesMoreThanAnAddressChange() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        String to = uri(b.port());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("", "the body must be the new MongoDB connection string");
        expected.put("not a connection string", "MongoDB connection string 'not a connection string' is invalid");
        expected.put("mongodb://" + NAME + ":" + b.port() + "/", "does not enable TLS");
        expected.put("mongodb://" + NAME + ":" + b.port() + "/?tls=false", "does not enable TLS");
        expected.put(to + "&tlsAllowInvalidHostnames=true", "option tlsAllowInvalidHostnames (added)");
        expected.put(to + "&maxPoolSize=5", "option maxPoolSize (added)");
        expected.put("mongodb://kit:s3cret@" + NAME + ":" + b.port() + "/?tls=true",
                "differs from the running one in the credentials (it has user information, the running one has none)");
        expected.put("mongodb://" + NAME + ":" + b.port() + "/acmeair_other?tls=true", "the database part after the hosts");
        expected.put("mongodb+srv://" + NAME + "/?tls=true", "the scheme (mongodb+srv://, running mongodb://)");
        expected.put("mongodb://" + NAME + ":" + b.port() + "/?tls=true".repeat(1000), "more than a MongoDB connection string may have");
        for (Map.Entry<String, String> c : expected.entrySet()) {
            HttpResponse<String> r = put(customer, c.getKey());
            assertEquals(400, r.statusCode(), c.getKey() + ": " + r.body());
            String message = json(r).get("message").asText();
            assertTrue(message.startsWith("switching MongoDB refused: ") && message.contains(c.getValue())
                    && message.endsWith("nothing was changed"), c.getKey() + ": " + message);
            assertFalse(r.body().contains("s3cret"), r.body());
        }
        JsonNode now = current(customer);
        assertEquals(uri(a.port()), now.get("uri").asText());
        assertEquals(0, now.get("switches").asInt());
        assertEquals(0, b.accepted(), "no client was built for a refused connection string");
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
    }

    @Test
    @DisplayName("a running connection string's password is shown masked, in answers and in the log")
    void passwordsAreMasked() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, "mongodb://kit:s3cret@" + NAME + ":" + a.port() + "/?tls=true", true);
        JsonNode now = current(customer);
        assertEquals("mongodb://kit:****@" + NAME + ":" + a.port() + "/?tls=true", now.get("uri").asText());

        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        List<HttpResponse<String>> answers = new ArrayList<>();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            answers.add(put(customer, "mongodb://kit:0ther@" + NAME + ":" + b.port() + "/?tls=true"));
            answers.add(put(customer, "mongodb://kit:s3cret@" + NAME + ":" + b.port() + "/?tls=true&maxPoolSize=1"));
            answers.add(put(customer, "mongodb://kit:s3cret@" + NAME + ":" + b.port() + "/?tls=true&tls=TRUE"));
        } finally {
            System.setErr(stderr);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        for (HttpResponse<String> r : answers) {
            assertEquals(400, r.statusCode(), r.body());
            assertTrue(r.body().contains("mongodb://kit:****@" + NAME + ":" + b.port()), r.body());
            assertFalse(r.body().contains("s3cret") || r.body().contains("0ther"), r.body());
        }
        assertTrue(json(answers.get(0)).get("message").asText().contains("the credentials (user information)"), answers.get(0).body());
        assertTrue(logged.contains("MongoDB switch refused (400)"), "the refusals are logged: " + logged);
        assertFalse(logged.contains("s3cret") || logged.contains("0ther"), logged);
    }

    @Test
    @DisplayName("concurrent switches are applied one at a time: their answers count 1..N and the last one counted is in use")
    void concurrentSwitchesAreSerialised() throws Exception {
        CountingTcpRelay a = relay();
        List<CountingTcpRelay> targets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            targets.add(relay());
        }
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
        ExecutorService senders = Executors.newFixedThreadPool(targets.size());
        closeables.add(senders::shutdownNow);
        List<CompletableFuture<HttpResponse<String>>> answers = targets.stream()
                .map(t -> CompletableFuture.supplyAsync(() -> put(customer, uri(t.port())), senders)).toList();
        Set<Integer> counts = new TreeSet<>();
        String last = null;
        for (CompletableFuture<HttpResponse<String>> f : answers) {
            HttpResponse<String> r = f.get(120, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode(), r.body());
            counts.add(json(r).get("switches").asInt());
            if (json(r).get("switches").asInt() == targets.size()) {
                last = json(r).get("uri").asText();
            }
        }
        assertEquals(new TreeSet<>(List.of(1, 2, 3, 4)), counts);
        assertEquals(last, current(customer).get("uri").asText());
        for (CountingTcpRelay t : targets) {
            if (!uri(t.port()).equals(last)) {
                await("the replaced client at " + t.port() + " is closed", () -> t.open() == 0);
            }
        }
        await("the first client is closed", () -> a.open() == 0);
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
    }

    @Test
    @DisplayName("a switch to the connection string in use (around blanks) reconnects: new connections, the old ones closed, counted")
    void sameAddressReconnects() throws IOException {
        CountingTcpRelay a = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), true);
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
        int before = a.accepted();
        HttpResponse<String> r = put(customer, " " + uri(a.port()) + "\n");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(uri(a.port()), json(r).get("uri").asText());
        assertEquals(1, json(r).get("switches").asInt());
        assertTrue(a.accepted() > before, "the new client opened connections of its own: " + before + " -> " + a.accepted());
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
        int afterRead = a.accepted();
        await("the old client's connections are closed after the grace", () -> a.open() <= afterRead - before);
    }

    @Test
    @DisplayName("without --allow-mongo-switch the path is unknown: 404 for GET and PUT, as any unknown path")
    void offByDefault() throws IOException {
        CountingTcpRelay a = relay();
        CountingTcpRelay b = relay();
        AcmeairService customer = start(ServiceName.CUSTOMER, uri(a.port()), false);
        HttpResponse<String> unknown = Http.get(customer.baseUrl() + "/admin/nothing-here");
        assertEquals(404, unknown.statusCode());
        assertEquals(404, Http.get(customer.baseUrl() + AcmeairApi.MONGO_SWITCH_PATH).statusCode());
        HttpResponse<String> r = put(customer, uri(b.port()));
        assertEquals(404, r.statusCode(), r.body());
        assertEquals(0, b.accepted(), "nothing connected to B");
        readCustomer(customer, TestUsers.MONGO_SWITCH.email(92));
        assertTrue(countedAt(customer, "find", a.port()));
    }
}
