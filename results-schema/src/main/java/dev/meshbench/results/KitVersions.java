package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Versions of the software that produced a run.
 *
 * @param kit    meshbench version (the Maven project version)
 * @param jdk    {@code java.version} of the JVM running the components
 * @param jmeter JMeter version that generated the load
 */
@JsonPropertyOrder({"kit", "jdk", "jmeter"})
public record KitVersions(
        @JsonProperty(required = true) String kit,
        @JsonProperty(required = true) String jdk,
        @JsonProperty(required = true) String jmeter) {

    public KitVersions {
        Checks.text("versions.kit", kit);
        Checks.text("versions.jdk", jdk);
        Checks.text("versions.jmeter", jmeter);
    }
}
