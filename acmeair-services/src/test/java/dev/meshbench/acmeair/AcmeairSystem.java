package dev.meshbench.acmeair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.http.Json;
import dev.meshbench.acmeair.local.AllInOneLauncher;
import dev.meshbench.acmeair.security.JwtIssuer;
import dev.meshbench.acmeair.security.JwtKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The whole system for integration tests, started once per test run through the real all-in-one launcher: embedded
 * MongoDB with TLS (driver connects by name, verifying the per-run CA), the four services on free ports, 200
 * customers and 3 days of flights from {@link #DAY1}. Closed by JUnit when the run ends.
 */
final class AcmeairSystem implements BeforeAllCallback {
    static final String DAY1 = "2030-01-01";
    static final String DAY2 = "2030-01-02";
    static final int CUSTOMERS = 200;
    private static AllInOneLauncher launcher;

    @Override
    public void beforeAll(ExtensionContext context) {
        synchronized (AcmeairSystem.class) {
            if (launcher == null) {
                AllInOneLauncher l = AllInOneLauncher.start(new AllInOneLauncher.Settings(0, CUSTOMERS, 1));
                launcher = l;
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(AcmeairSystem.class.getName(),
                        (AutoCloseable) () -> {
                            synchronized (AcmeairSystem.class) {
                                l.close();
                                launcher = null;
                            }
                        });
                reloadFlights();
            }
        }
    }

    static AllInOneLauncher launcher() {
        return launcher;
    }

    static String url(ServiceName s) {
        return launcher.service(s).baseUrl();
    }

    static void reloadFlights() {
        HttpResponse<String> r = Http.get(url(ServiceName.FLIGHT) + "/flight/loader/load?numDays=3&startDate=" + DAY1);
        assertEquals(200, r.statusCode(), r.body());
    }

    /** Logs in through auth and returns the jwt_token cookie. */
    static String login(String user) {
        HttpResponse<String> r = Http.post(url(ServiceName.AUTH) + "/auth/login", null, "login", user, "password", "password");
        assertEquals(200, r.statusCode(), r.body());
        return Http.jwtCookie(r);
    }

    /** A token signed with the run's real key, for any subject (to reach a 404 past the JWT check). */
    static String tokenFor(String subject) {
        return new JwtIssuer(JwtKeys.readPrivateKey(launcher.jwtKeys().privateKey()), Clock.systemUTC()).issue(subject);
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return Json.MAPPER.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("response is not JSON: " + r.body(), e);
        }
    }

    /**
     * {@code read}'s value once it equals {@code expected}, or its last value after 10 s: for effects the services
     * apply after answering (reward miles, asynchronous as in the original Acmeair). Callers assert on the result.
     */
    static <T> T eventually(T expected, java.util.function.Supplier<T> read) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        T value = read.get();
        while (!expected.equals(value) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            value = read.get();
        }
        return value;
    }

    static long totalMiles(String user) {
        HttpResponse<String> r = Http.get(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, tokenFor(user));
        assertEquals(200, r.statusCode(), r.body());
        return json(r).get("total_miles").asLong();
    }
}
