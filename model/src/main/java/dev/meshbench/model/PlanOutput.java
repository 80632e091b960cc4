package dev.meshbench.model;

/**
 * What the JMeter plan's plugin prints on JMeter's console that the kit reads back: the plugin writes these lines
 * (it has the model shaded in), the orchestrator echoes the plan's summary into the run's output.
 */
public final class PlanOutput {
    /** Every line the plugin prints for people starts with this. */
    public static final String PREFIX = "meshbench: ";
    /** The plan's one-line summary of what it will run (its ramp, mix, shares and URLs) starts with this. */
    public static final String SUMMARY = "Acmeair ramp: ";

    private PlanOutput() {
    }
}
