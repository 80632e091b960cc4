package dev.meshbench.orchestrator.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CpuRequestsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode doc(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    @Test
    @DisplayName("every container's CPU request of every Deployment is scaled; limits, memory and other kinds are not")
    void scalesRequestsOnly() throws Exception {
        ObjectNode deployment = doc("""
                {"kind":"Deployment","spec":{"template":{"spec":{
                  "initContainers":[{"name":"init","resources":{"requests":{"cpu":"100m"}}}],
                  "containers":[{"name":"a","resources":{"requests":{"cpu":"500m","memory":"512Mi"},"limits":{"cpu":"2"}}},
                                {"name":"b","resources":{"requests":{"cpu":"1.5"}}},
                                {"name":"c"}]}}}}""");
        ObjectNode pod = doc("""
                {"kind":"Pod","spec":{"containers":[{"name":"p","resources":{"requests":{"cpu":"500m"}}}]}}""");
        assertEquals(3, CpuRequests.scale(List.of(deployment, pod), 0.25));
        var containers = deployment.path("spec").path("template").path("spec").path("containers");
        assertEquals("125m", containers.get(0).path("resources").path("requests").path("cpu").asText());
        assertEquals("512Mi", containers.get(0).path("resources").path("requests").path("memory").asText());
        assertEquals("2", containers.get(0).path("resources").path("limits").path("cpu").asText());
        assertEquals("375m", containers.get(1).path("resources").path("requests").path("cpu").asText());
        assertEquals("25m", deployment.path("spec").path("template").path("spec").path("initContainers").get(0)
                .path("resources").path("requests").path("cpu").asText());
        assertEquals("500m", pod.path("spec").path("containers").get(0).path("resources").path("requests").path("cpu").asText());
    }

    @Test
    @DisplayName("a scale of 1 changes nothing; a tiny request keeps at least 1m")
    void edges() throws Exception {
        ObjectNode d = doc("""
                {"kind":"Deployment","spec":{"template":{"spec":{"containers":[{"resources":{"requests":{"cpu":"2m"}}}]}}}}""");
        assertEquals(0, CpuRequests.scale(List.of(d), 1));
        assertEquals("1m", CpuRequests.scaled("2m", 0.1));
        assertEquals("1000m", CpuRequests.scaled("1", 1));
    }
}
