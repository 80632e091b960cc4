package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * One node of the Kubernetes cluster a run ran on, as its {@code status.allocatable} described it when the run
 * started: what pods could use, which is a little less than the machine's capacity.
 *
 * @param name                   the node's name ({@code metadata.name})
 * @param allocatableCpuCores    allocatable CPU in cores, e.g. {@code 7.91} for {@code 7910m}
 * @param allocatableMemoryBytes allocatable memory in bytes
 * @param instanceType           the node's {@code node.kubernetes.io/instance-type} label, e.g. {@code m6i.2xlarge};
 *                               {@code null} when the node has none (kind, minikube, bare metal)
 */
@JsonPropertyOrder({"name", "allocatableCpuCores", "allocatableMemoryBytes", "instanceType"})
public record ClusterNode(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) double allocatableCpuCores,
        @JsonProperty(required = true) long allocatableMemoryBytes,
        String instanceType) {

    public ClusterNode {
        Checks.text("cluster.nodes[].name", name);
        String field = "cluster.nodes[" + name + "]";
        Checks.positive(field + ".allocatableCpuCores", allocatableCpuCores);
        Checks.positive(field + ".allocatableMemoryBytes", allocatableMemoryBytes);
        if (instanceType != null) {
            Checks.text(field + ".instanceType", instanceType);
        }
    }

    /**
     * The node's size as a report shows it, independent of the default locale: {@code "8 CPU / 32 GiB"},
     * {@code "7.91 CPU / 29.8 GiB"} (CPU to two decimals, memory in GiB to one, trailing zeros dropped).
     */
    @JsonIgnore
    public String sizeText() {
        return plain(allocatableCpuCores, 2) + " CPU / " + plain(allocatableMemoryBytes / (double) (1L << 30), 1)
                + " GiB";
    }

    private static String plain(double value, int decimals) {
        BigDecimal d = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString();
    }
}
