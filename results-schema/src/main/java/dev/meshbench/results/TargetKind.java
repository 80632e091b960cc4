package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Where a run's components ran. */
public enum TargetKind {
    /** Every component as its own OS process on loopback. */
    LOCAL("local"),
    /** A Kubernetes cluster with Istio. */
    KUBERNETES("kubernetes");

    private final String id;

    TargetKind(String id) {
        this.id = id;
    }

    /** The id used in JSON and on the command line. */
    @JsonValue
    public String id() {
        return id;
    }

    /** Parses an id, naming the allowed values when it is unknown. */
    @JsonCreator
    public static TargetKind fromId(String id) {
        return Arrays.stream(values()).filter(t -> t.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("target \"" + id + "\" is not one of "
                        + Arrays.stream(values()).map(TargetKind::id).collect(Collectors.joining("|"))));
    }
}
