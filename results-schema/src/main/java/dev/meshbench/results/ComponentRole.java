package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/** What a sampled process is, for adding up CPU. */
public enum ComponentRole {
    /** Mesh data plane: sidecars, egress gateway, SNI proxy. */
    MESH("mesh"),
    /** The application: auth, customer, flight, booking. */
    APP("app"),
    /** The external MongoDB. */
    DATABASE("database"),
    /** The load generator (JMeter). */
    LOAD("load");

    private final String id;

    ComponentRole(String id) {
        this.id = id;
    }

    /** The id used in JSON and in {@code cpu-samples.csv}. */
    @JsonValue
    public String id() {
        return id;
    }

    /** Parses an id, naming the allowed values when it is unknown. */
    @JsonCreator
    public static ComponentRole fromId(String id) {
        return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("role \"" + id + "\" is not one of " + allowed()));
    }

    /** The allowed ids joined with {@code |}. */
    public static String allowed() {
        return Arrays.stream(values()).map(ComponentRole::id).collect(Collectors.joining("|"));
    }
}
