package dev.meshbench.acmeair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.Behaviour;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.http.Json;
import dev.meshbench.acmeair.local.AllInOneLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * MongoDB commands and inter-service HTTP calls per request, for every endpoint the workload uses, with the
 * services as the original Acmeair runs them (flight cache on, rewards asynchronous) and as the kit's first version
 * did (cache off, rewards before the answer). Counted from the services' own Micrometer timers (the driver's
 * command listener: {@code mongodb_driver_commands_seconds_count}, and {@code http_client_requests_seconds_count}),
 * the figures the orchestrator scrapes during a run. Each expectation is worked out by hand in its comment.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("MongoDB commands per request, flight cache on and off")
class MongoCommandsPerRequestTest {
    private static final String USER = "uid7@email.com";
    private static final String DAY0 = "2030-01-01";
    private static final String DAY1 = "2030-01-02";
    private AllInOneLauncher original;
    private AllInOneLauncher uncached;

    @BeforeAll
    void start() {
        original = AllInOneLauncher.start(new AllInOneLauncher.Settings(0, 50, 2, Behaviour.ORIGINAL));
        uncached = AllInOneLauncher.start(new AllInOneLauncher.Settings(0, 50, 2, new Behaviour(false, false)));
        // The launchers load flights from today (UTC): fixed days instead, so a run that crosses midnight still queries
        // days that have flights.
        for (AllInOneLauncher system : List.of(original, uncached)) {
            HttpResponse<String> r = Http.get(system.service(ServiceName.FLIGHT).baseUrl() + "/flight/loader/load?numDays=2&startDate=" + DAY0);
            assertEquals(200, r.statusCode(), r.body());
        }
    }

    @AfterAll
    void stop() {
        if (original != null) {
            original.close();
        }
        if (uncached != null) {
            uncached.close();
        }
    }

    /** Commands and peer calls one action caused, summed over customer, flight and booking. */
    record Cost(double mongoCommands, double peerCalls) {
    }

    private static final class Session {
        final AllInOneLauncher system;
        String jwt;

        Session(AllInOneLauncher system) {
            this.system = system;
        }

        String url(ServiceName s) {
            return system.service(s).baseUrl();
        }

        double metric(String name, String excludeLabel) {
            double sum = 0;
            for (ServiceName s : List.of(ServiceName.AUTH, ServiceName.CUSTOMER, ServiceName.FLIGHT, ServiceName.BOOKING)) {
                sum += Http.get(url(s) + "/metrics").body().lines()
                        .filter(l -> l.startsWith(name + "{") && (excludeLabel == null || !l.contains(excludeLabel)))
                        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            }
            return sum;
        }

        double rewardUpdatesDone() {
            return metric("acmeair_rewards_updates_total", null);
        }

        /** Runs {@code action}, waits for {@code rewardUpdates} background miles updates, and returns what it cost. */
        <T> Cost cost(int rewardUpdates, Supplier<T> action) {
            double commands = metric("mongodb_driver_commands_seconds_count", "command=\"ping\"");
            double calls = metric("http_client_requests_seconds_count", null);
            double updates = rewardUpdatesDone();
            action.get();
            assertEquals(updates + rewardUpdates, AcmeairSystem.eventually(updates + rewardUpdates, this::rewardUpdatesDone),
                    "reward-miles updates finished");
            return new Cost(metric("mongodb_driver_commands_seconds_count", "command=\"ping\"") - commands,
                    metric("http_client_requests_seconds_count", null) - calls);
        }

        HttpResponse<String> ok(HttpResponse<String> r) {
            assertEquals(200, r.statusCode(), r.body());
            return r;
        }

        HttpResponse<String> login() {
            HttpResponse<String> r = ok(Http.post(url(ServiceName.AUTH) + "/auth/login", null, "login", USER, "password", "password"));
            jwt = Http.jwtCookie(r);
            return r;
        }

        HttpResponse<String> query(String from, String to, String day, String returnDay) {
            return ok(returnDay == null
                    ? Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", null, "fromAirport", from, "toAirport", to,
                            "fromDate", day, "oneWay", "true")
                    : Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", null, "fromAirport", from, "toAirport", to,
                            "fromDate", day, "returnDate", returnDay, "oneWay", "false"));
        }

        JsonNode firstOption(HttpResponse<String> r, int leg) {
            return json(r).get("tripFlights").get(leg).get("flightsOptions").get(0);
        }

        HttpResponse<String> book(JsonNode out, JsonNode back) {
            return ok(back == null
                    ? Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", USER,
                            "toFlightId", out.get("_id").asText(), "toFlightSegId", out.get("flightSegmentId").asText(), "oneWayFlight", "true")
                    : Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", USER,
                            "toFlightId", out.get("_id").asText(), "toFlightSegId", out.get("flightSegmentId").asText(),
                            "retFlightId", back.get("_id").asText(), "retFlightSegId", back.get("flightSegmentId").asText(),
                            "oneWayFlight", "false"));
        }

        HttpResponse<String> updateProfileJson() {
            HttpRequest r = HttpRequest.newBuilder(java.net.URI.create(url(ServiceName.CUSTOMER) + "/customer/byid/" + USER))
                    .header("Cookie", "jwt_token=" + jwt).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"_id\":\"" + USER + "\",\"status\":\"GOLD\",\"total_miles\":1,"
                            + "\"miles_ytd\":1,\"phoneNumber\":\"919-123-4567\",\"phoneNumberType\":\"BUSINESS\",\"address\":"
                            + "{\"streetAddress1\":\"123 Main St.\",\"city\":\"Anytown\",\"stateProvince\":\"NC\",\"country\":\"USA\","
                            + "\"postalCode\":\"27617\"}}"))
                    .build();
            return ok(Http.send(r));
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return Json.MAPPER.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every action of the workload once; the first flight reads warm the cache, the second ones are measured. */
    private static List<Cost> walk(Session s) {
        String day0 = DAY0;
        String day1 = DAY1;
        Cost login = s.cost(0, s::login);
        Cost view = s.cost(0, () -> s.ok(Http.get(s.url(ServiceName.CUSTOMER) + "/customer/byid/" + USER, s.jwt)));
        Cost update = s.cost(0, s::updateProfileJson);
        Cost roundTripCold = s.cost(0, () -> s.query("JFK", "LHR", day0, day1));
        HttpResponse<String>[] found = new HttpResponse[1];
        Cost roundTripWarm = s.cost(0, () -> found[0] = s.query("JFK", "LHR", day0, day1));
        Cost oneWayWarm = s.cost(0, () -> s.query("JFK", "LHR", day0, null));
        Cost noRouteCold = s.cost(0, () -> s.query("AAA", "BBB", day0, null));
        Cost noRouteWarm = s.cost(0, () -> s.query("AAA", "BBB", day0, null));
        JsonNode out = s.firstOption(found[0], 0);
        JsonNode back = s.firstOption(found[0], 1);
        Cost bookRound = s.cost(2, () -> s.book(out, back));
        Cost bookOneWay = s.cost(1, () -> s.book(out, null));
        String[] number = new String[1];
        Cost list = s.cost(0, () -> number[0] = json(s.ok(Http.get(s.url(ServiceName.BOOKING) + "/booking/byuser/" + USER, s.jwt)))
                .get(0).get("_id").asText());
        Cost cancel = s.cost(1, () -> s.ok(Http.post(s.url(ServiceName.BOOKING) + "/booking/cancelbooking", s.jwt,
                "number", number[0], "userid", USER)));
        return List.of(login, view, update, roundTripCold, roundTripWarm, oneWayWarm, noRouteCold, noRouteWarm, bookRound,
                bookOneWay, list, cancel);
    }

    @Test
    @DisplayName("as the original (cache on, rewards async): flight queries cost nothing once cached, a booking one insert and one miles update (2) per leg")
    void original() {
        List<Cost> c = walk(new Session(original));
        // login: auth -> customer validateid: 1 find; 1 peer call
        assertEquals(new Cost(1, 1), c.get(0), "login");
        // viewProfile: 1 find
        assertEquals(new Cost(1, 0), c.get(1), "viewProfile");
        // updateProfile (JSON body): find, update, find (as the original's putCustomer)
        assertEquals(new Cost(3, 0), c.get(2), "updateProfile");
        // queryFlights round trip, cold: per leg segment find + flights find = 4
        assertEquals(new Cost(4, 0), c.get(3), "queryFlights round trip, cold");
        // the same query again, and its first leg alone: all from the cache
        assertEquals(new Cost(0, 0), c.get(4), "queryFlights round trip, cached");
        assertEquals(new Cost(0, 0), c.get(5), "queryFlights one way, cached");
        // a pair without a route: 1 segment find, then its absence is cached
        assertEquals(new Cost(1, 0), c.get(6), "queryFlights without a route, cold");
        assertEquals(new Cost(0, 0), c.get(7), "queryFlights without a route, cached");
        // bookFlights round trip: 2 inserts; then, off the request path, per leg (as the original's RewardTracker) a
        // getrewardmiles (the miles cache fills on its own first read, not from the queries: a segment find) and a
        // miles update (update + find, as the original's updateCustomerTotalMiles); peer calls: 2 flight, 2 customer
        assertEquals(new Cost(2 + 2 * (1 + 2), 4), c.get(8), "bookFlights round trip (miles not cached yet)");
        // bookFlights one way on the outbound segment: 1 insert + a miles update (2); its miles are cached now
        assertEquals(new Cost(1 + 2, 2), c.get(9), "bookFlights one way (miles cached)");
        // listBookings: 1 find
        assertEquals(new Cost(1, 0), c.get(10), "listBookings");
        // cancelBooking: find + delete, then (async) miles cached + a miles update (2); peer calls: flight, customer
        assertEquals(new Cost(2 + 2, 2), c.get(11), "cancelBooking");
    }

    @Test
    @DisplayName("cache off, rewards synchronous: every flight read and every reward-miles lookup is a MongoDB command")
    void uncached() {
        List<Cost> c = walk(new Session(uncached));
        assertEquals(new Cost(1, 1), c.get(0), "login");
        assertEquals(new Cost(1, 0), c.get(1), "viewProfile");
        assertEquals(new Cost(3, 0), c.get(2), "updateProfile");
        // round trip: 2 legs x (segment find + flights find), every time
        assertEquals(new Cost(4, 0), c.get(3), "queryFlights round trip");
        assertEquals(new Cost(4, 0), c.get(4), "queryFlights round trip, again");
        assertEquals(new Cost(2, 0), c.get(5), "queryFlights one way");
        // no route: the segment find only, every time
        assertEquals(new Cost(1, 0), c.get(6), "queryFlights without a route");
        assertEquals(new Cost(1, 0), c.get(7), "queryFlights without a route, again");
        // round trip: 2 inserts + per leg a getrewardmiles find and a miles update (update + find)
        assertEquals(new Cost(2 + 2 * 3, 4), c.get(8), "bookFlights round trip");
        // one way: 1 insert + 1 getrewardmiles find + a miles update (2)
        assertEquals(new Cost(4, 2), c.get(9), "bookFlights one way");
        assertEquals(new Cost(1, 0), c.get(10), "listBookings");
        // cancel: find + delete + 1 getrewardmiles find + a miles update (2)
        assertEquals(new Cost(5, 2), c.get(11), "cancelBooking");
    }
}
