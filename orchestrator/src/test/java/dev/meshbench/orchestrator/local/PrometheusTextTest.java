package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Prometheus text: sums of a metric's samples")
class PrometheusTextTest {
    private static final String TEXT = """
            # HELP mongodb_driver_commands_seconds Timer of mongodb commands
            # TYPE mongodb_driver_commands_seconds summary
            mongodb_driver_commands_seconds_count{collection="customer",command="find",service="customer",status="SUCCESS"} 120
            mongodb_driver_commands_seconds_sum{collection="customer",command="find",service="customer",status="SUCCESS"} 0.5
            mongodb_driver_commands_seconds_count{collection="customer",command="findAndModify",service="customer",status="SUCCESS"} 30.0
            mongodb_driver_commands_seconds_count{collection="n/a",command="ping",service="customer",status="SUCCESS"} 7
            mongodb_driver_commands_seconds_count_total{service="customer"} 1000
            http_client_requests_seconds_count 4
            """;

    @Test
    @DisplayName("adds every sample of the name, leaves out the excluded label value, other names and the _sum")
    void sums() {
        assertEquals(150.0, PrometheusText.sum(TEXT, "mongodb_driver_commands_seconds_count", "command", "ping"));
        assertEquals(157.0, PrometheusText.sum(TEXT, "mongodb_driver_commands_seconds_count", null, null));
        assertEquals(4.0, PrometheusText.sum(TEXT, "http_client_requests_seconds_count", null, null), "a sample without labels");
        assertEquals(0.0, PrometheusText.sum(TEXT, "absent_metric", null, null));
    }
}
