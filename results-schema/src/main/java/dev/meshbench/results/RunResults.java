package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Optional;

/**
 * The content of {@code results.json}: a run's inputs and what each of its steps measured.
 *
 * @param schemaVersion {@link ResultsSchema#VERSION}
 * @param inputs        the run's {@code run.json} as it was when the run was converted
 * @param conversion    how the numbers were computed
 * @param steps         one entry per step that ran, in run order
 * @param notes         what the converter noticed and a reader should know (skipped samples, restarts, gaps)
 */
@JsonPropertyOrder({"schemaVersion", "inputs", "conversion", "steps", "notes"})
public record RunResults(
        @JsonProperty(required = true) String schemaVersion,
        @JsonProperty(required = true) RunInputs inputs,
        @JsonProperty(required = true) ConversionMethod conversion,
        @JsonProperty(required = true) List<StepResult> steps,
        @JsonProperty(required = true) List<String> notes) {

    public RunResults {
        if (!ResultsSchema.VERSION.equals(schemaVersion)) {
            throw new IllegalArgumentException("schemaVersion (" + schemaVersion + ") must be "
                    + ResultsSchema.VERSION + ", the version this build writes (older files are upgraded when read)");
        }
        Checks.present("inputs", inputs);
        Checks.present("conversion", conversion);
        steps = List.copyOf(Checks.present("steps", steps));
        notes = List.copyOf(Checks.present("notes", notes));
    }

    /** The client counts of the measured steps, in run order. */
    @JsonIgnore
    public List<Integer> clientSteps() {
        return steps.stream().map(StepResult::clients).toList();
    }

    /** The step of {@code clients} clients, if it was measured. */
    public Optional<StepResult> step(int clients) {
        return steps.stream().filter(s -> s.clients() == clients).findFirst();
    }
}
