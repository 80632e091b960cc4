package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/** State of a run as recorded by the orchestrator. */
public enum RunStatus {
    /** Written at the start; a run still in this state after the orchestrator exited was interrupted. */
    RUNNING("running"),
    /** Every step ran to its end. */
    PASSED("passed"),
    /** The run stopped early; {@code failureReason} says why. Reports list such runs as skipped. */
    FAILED("failed");

    private final String id;

    RunStatus(String id) {
        this.id = id;
    }

    /** The id used in JSON. */
    @JsonValue
    public String id() {
        return id;
    }

    /** Parses an id, naming the allowed values when it is unknown. */
    @JsonCreator
    public static RunStatus fromId(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("status \"" + id + "\" is not one of "
                        + Arrays.stream(values()).map(RunStatus::id).collect(Collectors.joining("|"))));
    }
}
