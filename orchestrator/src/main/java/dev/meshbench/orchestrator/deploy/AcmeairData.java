package dev.meshbench.orchestrator.deploy;

import dev.meshbench.results.WorkloadInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Loads the Acmeair database through the services' own loaders, the same way on every target: customers, then
 * flights for {@code flightDays} days (with the original route network for the original mix). The loaders are
 * reached at the services' {@link AdminEndpoints}, never through the entry, which does not route them.
 */
public final class AcmeairData {
    private AcmeairData() {
    }

    /**
     * @param admin    where the kit reaches each service's own port
     * @param progress where the one line per loader goes, prefixed with {@code [caseId]}
     */
    public static void load(HttpClient http, AdminEndpoints admin, int customers, int flightDays, WorkloadInfo workload,
            String caseId, PrintStream progress) {
        load(http, admin, "customer", "/customer/loader/load?numCustomers=" + customers, caseId, progress);
        // The original mix queries the original driver's airports, so it gets the original's route network.
        load(http, admin, "flight", "/flight/loader/load?numDays=" + flightDays
                + (WorkloadInfo.ORIGINAL_MIX.equals(workload.mix()) ? "&network=original" : ""), caseId, progress);
    }

    /**
     * Waits until {@code GET uri} answers 200, asking every {@code pollMs}; gives up at {@code deadlineNanos}
     * ({@link System#nanoTime}) naming the service, the URL and the last answer, or as soon as {@code failure} says
     * something died.
     */
    public static void awaitReady(HttpClient http, String svc, URI uri, long deadlineNanos, Duration timeout, long pollMs,
            java.util.function.Supplier<java.util.Optional<String>> failure) {
        String last = "no answer";
        while (true) {
            failure.get().ifPresent(f -> {
                throw new TargetException(svc + " is not ready: " + f);
            });
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("waiting for " + svc + " interrupted");
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new TargetException(svc + " not ready after " + timeout.toSeconds() + " s at " + uri + ": " + last);
            }
            try {
                Thread.sleep(pollMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("waiting for " + svc + " interrupted");
            }
        }
    }

    private static void load(HttpClient http, AdminEndpoints admin, String svc, String path, String caseId, PrintStream progress) {
        URI uri = admin.service(svc).resolve(path);
        progress.printf("[%s] loading database: GET %s%n", caseId, path);
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new TargetException("loading the database failed: GET " + uri + " answered " + r.statusCode() + ": " + r.body());
            }
        } catch (IOException e) {
            throw new TargetException("loading the database failed: GET " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetException("loading the database interrupted");
        }
    }
}
