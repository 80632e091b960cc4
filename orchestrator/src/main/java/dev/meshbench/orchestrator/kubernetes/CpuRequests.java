package dev.meshbench.orchestrator.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Scales the CPU the kit's containers request ({@code meshbench.kubernetes.cpuRequestScale}): {@code istio-config}'s
 * requests (500m per service, more for case sni's gateway) add up to more than a small node has, and a request only
 * tells the scheduler where a pod fits; limits, which do bound a container, are left as they are.
 */
final class CpuRequests {
    private CpuRequests() {
    }

    /**
     * Multiplies {@code resources.requests.cpu} of every container and init container of every Deployment in
     * {@code docs} by {@code scale}, in place, rounded to whole millicores (at least 1m).
     *
     * @return how many requests changed
     */
    static int scale(List<ObjectNode> docs, double scale) {
        if (scale == 1) {
            return 0;
        }
        int changed = 0;
        for (ObjectNode doc : docs) {
            if (!"Deployment".equals(doc.path("kind").asText())) {
                continue;
            }
            JsonNode pod = doc.path("spec").path("template").path("spec");
            for (String list : List.of("initContainers", "containers")) {
                for (JsonNode c : pod.path(list)) {
                    JsonNode requests = c.path("resources").path("requests");
                    if (requests instanceof ObjectNode r && r.hasNonNull("cpu")) {
                        r.put("cpu", scaled(r.get("cpu").asText(), scale));
                        changed++;
                    }
                }
            }
        }
        return changed;
    }

    /** {@code cpu} (a Kubernetes quantity such as {@code 500m} or {@code 2}) times {@code scale}, as millicores. */
    static String scaled(String cpu, double scale) {
        BigDecimal cores = Quantity.getAmountInBytes(new Quantity(cpu));
        long millis = cores.multiply(BigDecimal.valueOf(scale)).multiply(BigDecimal.valueOf(1000)).setScale(0, RoundingMode.HALF_UP)
                .longValueExact();
        return Math.max(1, millis) + "m";
    }
}
