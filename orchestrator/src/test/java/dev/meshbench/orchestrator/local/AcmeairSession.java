package dev.meshbench.orchestrator.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.orchestrator.deploy.Endpoints;
import java.io.IOException;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** A real Acmeair user session over HTTP, as the JMeter workload does it, for tests. */
final class AcmeairSession {
    static final ObjectMapper JSON = new ObjectMapper();
    private final Endpoints endpoints;
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(5)).build();

    AcmeairSession(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    HttpResponse<String> post(String service, String path, String form) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(endpoints.service(service).resolve(path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String service, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(endpoints.service(service).resolve(path)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Logs in, reads the profile, finds a flight, books it, lists bookings: every service and every database. */
    void bookOneFlight(String user) throws IOException, InterruptedException {
        expect(200, post("auth", "/auth/login", "login=" + user + "&password=password"), "login");
        expect(200, get("customer", "/customer/byid/" + user), "profile");
        String day = LocalDate.now(ZoneOffset.UTC) + "T00:00:00Z";
        HttpResponse<String> q = queryFlights("CDG", "JFK", day);
        expect(200, q, "queryflights");
        JsonNode flight = JSON.readTree(q.body()).path("tripFlights").path(0).path("flightsOptions").path(0);
        if (flight.isMissingNode()) {
            throw new AssertionError("no flight CDG->JFK on " + day + ": " + q.body());
        }
        expect(200, post("booking", "/booking/bookflights", "userid=" + user + "&toFlightId=" + flight.path("_id").asText()
                + "&toFlightSegId=" + flight.path("flightSegmentId").asText() + "&oneWayFlight=true"), "bookflights");
        expect(200, get("booking", "/booking/byuser/" + user), "byuser");
    }

    HttpResponse<String> queryFlights(String from, String to, String day) throws IOException, InterruptedException {
        return post("flight", "/flight/queryflights", "fromAirport=" + from + "&toAirport=" + to + "&fromDate=" + day
                + "&returnDate=" + day + "&oneWay=true");
    }

    private static void expect(int status, HttpResponse<String> r, String what) {
        if (r.statusCode() != status) {
            throw new AssertionError(what + " answered " + r.statusCode() + ": " + r.body());
        }
    }
}
