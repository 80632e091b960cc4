package dev.meshbench.orchestrator.deploy;

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

    private static final String SERVER = """
            http_server_requests_seconds_count{method="GET",status="200",uri="/customer/byid/{custid}"} 300
            http_server_requests_seconds_sum{method="GET",status="200",uri="/customer/byid/{custid}"} 0.45
            http_server_requests_seconds_count{method="POST",status="200",uri="/customer/byid/{custid}"} 100
            http_server_requests_seconds_sum{method="POST",status="200",uri="/customer/byid/{custid}"} 0.25
            http_server_requests_seconds_count{method="POST",status="200",uri="/customer/internal/validateid"} 500
            http_server_requests_seconds_sum{method="POST",status="200",uri="/customer/internal/validateid"} 0.2
            http_server_requests_seconds_count{method="GET",status="200",uri="/customer/loader/load"} 1
            http_server_requests_seconds_sum{method="GET",status="200",uri="/customer/loader/load"} 3.0
            """;

    @Test
    @DisplayName("a service's client API requests and their time: the routes the entry serves, not the calls between services or the loader")
    void clientApiOnly() {
        assertEquals(400.0, PrometheusText.sum(SERVER, "http_server_requests_seconds_count", ServiceCounters.CLIENT_API));
        // 0.45 + 0.25 s over those 400 requests: 1.75 ms each, a figure JMeter's whole milliseconds cannot show
        assertEquals(0.70, PrometheusText.sum(SERVER, "http_server_requests_seconds_sum", ServiceCounters.CLIENT_API), 1e-12);
    }
}
