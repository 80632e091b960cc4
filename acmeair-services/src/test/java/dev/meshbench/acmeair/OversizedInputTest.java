package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.ServiceName;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a client sends too much of: a body over the services' limit, a value the error message would echo. */
@ExtendWith(AcmeairSystem.class)
@DisplayName("oversized input")
class OversizedInputTest {
    private static final int TWO_MIB = 2 * 1024 * 1024;

    private static String loginBody(int loginLength) {
        return "login=" + "a".repeat(loginLength) + "&password=password";
    }

    @Test
    @DisplayName("a 2 MiB login body answers 413 saying the limit, whether chunked or with Content-Length")
    void bodyOverTheLimitIs413() {
        byte[] body = loginBody(TWO_MIB).getBytes(StandardCharsets.US_ASCII);
        URI login = URI.create(url(ServiceName.AUTH) + "/auth/login");
        HttpResponse<String> chunked = Http.send(HttpRequest.newBuilder(login).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build());
        assertEquals(413, chunked.statusCode(), chunked.body());
        assertTrue(json(chunked).get("message").asText().startsWith("request body over 1000000 bytes"), chunked.body());
        HttpResponse<String> sized = Http.send(HttpRequest.newBuilder(login).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertEquals(413, sized.statusCode(), sized.body());
        assertTrue(json(sized).get("message").asText().startsWith("request body over 1000000 bytes"), sized.body());
    }

    @Test
    @DisplayName("an error quotes a long value by its first 64 characters and its length, not whole")
    void longValuesAreCutInErrors() {
        HttpResponse<String> r = Http.post(url(ServiceName.AUTH) + "/auth/login", null, "login", "b".repeat(999_000), "password", "password");
        assertEquals(403, r.statusCode());
        assertEquals("bad credentials for login '" + "b".repeat(64) + "...' (999000 characters)", json(r).get("message").asText());
        assertTrue(r.body().length() < 300, r.body().length() + " characters");
        HttpResponse<String> day = Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", null, "fromAirport", "CDG", "toAirport", "JFK",
                "fromDate", "x".repeat(5000), "oneWay", "true");
        assertEquals(400, day.statusCode());
        assertTrue(json(day).get("message").asText().startsWith("field 'fromDate' is '" + "x".repeat(64) + "...' (5000 characters), not "),
                day.body());
    }
}
