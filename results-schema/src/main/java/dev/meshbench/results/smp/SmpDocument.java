package dev.meshbench.results.smp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The content of {@code smp.json}: a run in the Service Mesh Performance (SMP) format that Meshery reads. SMP defines
 * messages, not a file: this document holds one of each message a run needs, linked by their ids as SMP links them
 * ({@code test_id}, {@code mesh_config_id}, {@code env_id}).
 *
 * <p>Every nested record is one SMP message (package {@code smp}) of {@code protos/service_mesh_performance.proto},
 * {@code protos/service_mesh.proto} and {@code protos/metadata.proto} of
 * github.com/service-mesh-performance/service-mesh-performance, release v0.6.1 (commit
 * {@code 25a6a9601b4da8576214d0f27ce17d444243d2f7}; the protos are unchanged up to {@code 6ecbce7985dd}), written in
 * the proto3 JSON mapping with the proto's own field names (what protojson writes with {@code UseProtoNames} and
 * reads either way; Meshery reads SMP with protojson): enums by name, timestamps as RFC 3339 in UTC, int64 as JSON
 * numbers (the mapping accepts numbers and strings). Fields the kit does not know are left out, which proto3 reads as
 * the field's default. Only fields the kit fills are modelled here; the schema in the tests lists them all.
 *
 * @param environmentConfig       where the run ran
 * @param serviceMeshConfig       the mesh (data plane) and the egress case
 * @param performanceTestConfigs  one per measured step: the load of that step
 * @param performanceTestResults  one per measured step, in run order, each naming its test config
 */
@JsonPropertyOrder({"environment_config", "service_mesh_config", "performance_test_configs",
        "performance_test_results"})
public record SmpDocument(
        @JsonProperty("environment_config") EnvironmentConfig environmentConfig,
        @JsonProperty("service_mesh_config") ServiceMeshConfig serviceMeshConfig,
        @JsonProperty("performance_test_configs") List<PerformanceTestConfig> performanceTestConfigs,
        @JsonProperty("performance_test_results") List<PerformanceTestResult> performanceTestResults) {

    public SmpDocument {
        performanceTestConfigs = List.copyOf(performanceTestConfigs);
        performanceTestResults = List.copyOf(performanceTestResults);
    }

    /** {@code smp.EnvironmentConfig}. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"smp_version", "id", "labels", "kubernetes_version", "nodes"})
    public record EnvironmentConfig(
            @JsonProperty("smp_version") String smpVersion,
            @JsonProperty("id") String id,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("kubernetes_version") String kubernetesVersion,
            @JsonProperty("nodes") List<Node> nodes) {
    }

    /** {@code smp.EnvironmentConfig.Node}: {@code mem_mb} is an int64. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"type", "cores", "mem_mb"})
    public record Node(
            @JsonProperty("type") String type,
            @JsonProperty("cores") Integer cores,
            @JsonProperty("mem_mb") Long memMb) {
    }

    /** {@code smp.ServiceMeshConfig}. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"smp_version", "id", "labels", "mtls_enabled", "proxy_concurrency", "mesh_build",
            "proxy_build", "mesh_type", "application_metadata"})
    public record ServiceMeshConfig(
            @JsonProperty("smp_version") String smpVersion,
            @JsonProperty("id") String id,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("mtls_enabled") Boolean mtlsEnabled,
            @JsonProperty("proxy_concurrency") Integer proxyConcurrency,
            @JsonProperty("mesh_build") String meshBuild,
            @JsonProperty("proxy_build") String proxyBuild,
            @JsonProperty("mesh_type") ServiceMesh meshType,
            @JsonProperty("application_metadata") ApplicationMetadata applicationMetadata) {
    }

    /** {@code smp.ServiceMesh}: {@code type} is a name of {@code smp.ServiceMesh.Type}, absent when none fits. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"type", "version", "labels"})
    public record ServiceMesh(
            @JsonProperty("type") String type,
            @JsonProperty("version") String version,
            @JsonProperty("labels") Map<String, String> labels) {
    }

    /** {@code smp.ApplicationMetadata}: {@code application_protocol} names an {@code ApplicationProtocol}. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"application_name", "application_version", "application_protocol"})
    public record ApplicationMetadata(
            @JsonProperty("application_name") String applicationName,
            @JsonProperty("application_version") String applicationVersion,
            @JsonProperty("application_protocol") String applicationProtocol) {
    }

    /** {@code smp.PerformanceTestConfig}: {@code duration} in Go's notation ({@code 300s}), as Meshery parses it. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"smp_version", "id", "name", "labels", "clients", "duration"})
    public record PerformanceTestConfig(
            @JsonProperty("smp_version") String smpVersion,
            @JsonProperty("id") String id,
            @JsonProperty("name") String name,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("clients") List<Client> clients,
            @JsonProperty("duration") String duration) {
    }

    /** {@code smp.PerformanceTestConfig.Client}: {@code protocol} names a {@code Protocol}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"load_generator", "protocol", "connections", "rps"})
    public record Client(
            @JsonProperty("load_generator") String loadGenerator,
            @JsonProperty("protocol") String protocol,
            @JsonProperty("connections") Integer connections,
            @JsonProperty("rps") Long rps) {
    }

    /** {@code smp.PerformanceTestResult}: times in UTC, latencies in milliseconds. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"smp_version", "id", "labels", "start_time", "end_time", "latencies_ms", "actual_qps",
            "test_id", "mesh_config_id", "env_id"})
    public record PerformanceTestResult(
            @JsonProperty("smp_version") String smpVersion,
            @JsonProperty("id") String id,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("start_time") String startTime,
            @JsonProperty("end_time") String endTime,
            @JsonProperty("latencies_ms") Latency latenciesMs,
            @JsonProperty("actual_qps") Double actualQps,
            @JsonProperty("test_id") String testId,
            @JsonProperty("mesh_config_id") String meshConfigId,
            @JsonProperty("env_id") String envId) {
    }

    /** {@code smp.PerformanceTestResult.Latency}, milliseconds. */
    @JsonPropertyOrder({"min", "average", "p50", "p90", "p99", "max"})
    public record Latency(
            @JsonProperty("min") double min,
            @JsonProperty("average") double average,
            @JsonProperty("p50") double p50,
            @JsonProperty("p90") double p90,
            @JsonProperty("p99") double p99,
            @JsonProperty("max") double max) {
    }
}
