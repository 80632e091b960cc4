package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.ServiceName;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AcmeairSystem.class)
@DisplayName("Prometheus metrics")
class MetricsTest {
    static boolean hasSample(String metrics, String name, String... labelParts) {
        return metrics.lines().anyMatch(l -> l.startsWith(name + "{") && List.of(labelParts).stream().allMatch(l::contains));
    }

    @Test
    @DisplayName("customer exposes route timers, MongoDB command timers and pool gauges, JVM and process CPU")
    void customerMetrics() {
        String user = TestUsers.METRICS.email(30);
        Http.get(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, login(user));
        Http.get(url(ServiceName.CUSTOMER) + "/customer/no/such/route/" + System.nanoTime());
        HttpResponse<String> r = Http.get(url(ServiceName.CUSTOMER) + "/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        String m = r.body();
        assertTrue(hasSample(m, "http_server_requests_seconds_count", "uri=\"/customer/byid/{custid}\"", "method=\"GET\"",
                "status=\"200\"", "service=\"customer\""), m);
        assertTrue(hasSample(m, "http_server_requests_seconds_count", "uri=\"/customer/internal/validateid\"", "method=\"POST\""), m);
        assertTrue(hasSample(m, "http_server_requests_seconds_count", "uri=\"NOT_FOUND\"", "status=\"404\""), m);
        assertFalse(m.contains("/customer/no/such/route"), "raw paths must not become metric labels");
        assertTrue(hasSample(m, "mongodb_driver_commands_seconds_count", "command=\"find\""), m);
        assertTrue(hasSample(m, "mongodb_driver_pool_size"), m);
        assertTrue(hasSample(m, "mongodb_driver_pool_checkedout"), m);
        assertTrue(m.lines().anyMatch(l -> l.startsWith("process_cpu_usage")), m);
        assertTrue(m.lines().anyMatch(l -> l.startsWith("system_cpu_count")), m);
        assertTrue(hasSample(m, "jvm_memory_used_bytes"), m);
        assertTrue(hasSample(m, "jvm_threads_live_threads"), m);
    }

    @Test
    @DisplayName("every service serves /metrics, auth with its client timer for the customer call")
    void everyServiceHasMetrics() {
        login(TestUsers.METRICS.email(31));
        for (ServiceName s : ServiceName.values()) {
            HttpResponse<String> r = Http.get(url(s) + "/metrics");
            assertEquals(200, r.statusCode(), s.id());
            assertTrue(r.body().contains("service=\"" + s.id() + "\""), s.id());
        }
        assertTrue(hasSample(Http.get(url(ServiceName.AUTH) + "/metrics").body(), "http_client_requests_seconds_count",
                "peer=\"customer\"", "uri=\"/customer/internal/validateid\""));
    }
}
