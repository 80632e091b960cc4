package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.flight.Airport;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the Acmeair driver's mix once per simulated user (seeded) and measures response payload sizes, for the
 * closing note (the study's app averaged about 620 bytes). Per iteration: login; 5 times: (25%) view and update the
 * profile, query flights (random airports and day, half round trips) and book when a flight was found; then list
 * bookings and (25%) cancel bookings down to 2. Writes {@code target/payload-sizes.txt}.
 */
@ExtendWith(AcmeairSystem.class)
@DisplayName("workload payload sizes")
class WorkloadPayloadTest {
    static final int ITERATIONS = 60;

    final Map<String, long[]> sizes = new TreeMap<>(); // request -> {count, bytes}

    HttpResponse<String> record(String request, HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), request + ": " + r.body());
        long[] s = sizes.computeIfAbsent(request, k -> new long[2]);
        s[0]++;
        s[1] += r.body().getBytes(StandardCharsets.UTF_8).length;
        return r;
    }

    @Test
    @DisplayName("the driver's mix runs without errors and its average response payload is measured")
    void measuresPayloads() throws IOException {
        Random rnd = new Random(7);
        String[] days = {AcmeairSystem.DAY1, AcmeairSystem.DAY2, "2030-01-03"};
        for (int it = 0; it < ITERATIONS; it++) {
            String user = "uid" + (100 + rnd.nextInt(100)) + "@email.com";
            HttpResponse<String> login = record("login", Http.post(url(ServiceName.AUTH) + "/auth/login", null, "login", user, "password", "password"));
            String jwt = Http.jwtCookie(login);
            for (int i = 0; i < 5; i++) {
                if (rnd.nextInt(4) == 0) {
                    record("viewProfile", Http.get(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, jwt));
                    record("updateProfile", Http.post(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, jwt,
                            "phoneNumber", "919-555-" + (1000 + rnd.nextInt(9000)), "phoneNumberType", "MOBILE"));
                }
                String from = Airport.ALL.get(rnd.nextInt(Airport.ALL.size())).code();
                String to = from;
                while (to.equals(from)) {
                    to = Airport.ALL.get(rnd.nextInt(Airport.ALL.size())).code();
                }
                boolean oneWay = rnd.nextBoolean();
                JsonNode q = json(record("queryFlights", Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", null,
                        "fromAirport", from, "toAirport", to, "fromDate", days[0], "returnDate", days[1 + rnd.nextInt(2)],
                        "oneWay", Boolean.toString(oneWay))));
                JsonNode out = q.get("tripFlights").get(0).get("flightsOptions");
                if (out.size() > 0) {
                    JsonNode f = out.get(0);
                    if (oneWay) {
                        record("bookFlights", Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", user,
                                "toFlightId", f.get("_id").asText(), "toFlightSegId", f.get("flightSegmentId").asText(), "oneWayFlight", "true"));
                    } else {
                        JsonNode b = q.get("tripFlights").get(1).get("flightsOptions").get(0);
                        record("bookFlights", Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", user,
                                "toFlightId", f.get("_id").asText(), "toFlightSegId", f.get("flightSegmentId").asText(),
                                "retFlightId", b.get("_id").asText(), "retFlightSegId", b.get("flightSegmentId").asText(),
                                "oneWayFlight", "false"));
                    }
                }
            }
            JsonNode bookings = json(record("listBookings", Http.get(url(ServiceName.BOOKING) + "/booking/byuser/" + user, jwt)));
            if (rnd.nextInt(4) == 0) {
                for (int k = 0; k < bookings.size() - 2; k++) {
                    record("cancelBooking", Http.post(url(ServiceName.BOOKING) + "/booking/cancelbooking", jwt,
                            "number", bookings.get(k).get("_id").asText(), "userid", user));
                }
            }
        }
        long count = sizes.values().stream().mapToLong(s -> s[0]).sum();
        long bytes = sizes.values().stream().mapToLong(s -> s[1]).sum();
        double average = (double) bytes / count;
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "average response payload: %.0f bytes over %d requests (%d iterations of the Acmeair mix)%n", average, count, ITERATIONS));
        sizes.forEach((k, s) -> report.append(String.format(Locale.ROOT, "  %-14s %5d requests, average %6.0f bytes%n", k, s[0], (double) s[1] / s[0])));
        System.out.print(report);
        Files.writeString(Path.of("target", "payload-sizes.txt"), report);
        assertTrue(sizes.keySet().containsAll(java.util.List.of("login", "viewProfile", "updateProfile", "queryFlights", "bookFlights",
                "listBookings", "cancelBooking")), sizes.keySet().toString());
        assertTrue(average > 50 && average < 5000, "average payload " + average);
    }
}
