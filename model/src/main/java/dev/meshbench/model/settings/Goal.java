package dev.meshbench.model.settings;

/** What reads a setting: a study's run, the report, the gate, or the {@code meshbench} command line. */
public enum Goal {
    /** {@code mvn verify -Pcase-<id>} / {@code -Pall-cases}: {@code meshbench:run}. */
    EGRESS_RUN("egress run"),
    /** {@code mvn verify -Platency}: {@code meshbench:latency}. */
    LATENCY_STUDY("latency study"),
    /** {@code meshbench:report} and {@code meshbench:latency-report}. */
    REPORT("report"),
    /** {@code meshbench:check}, the regression gate and the runs' verdict. */
    CHECK("check"),
    /** The {@code meshbench} command ({@code up}, {@code render}): options or {@code -D} properties named after the setting. */
    CLI("CLI");

    private final String label;

    Goal(String label) {
        this.label = label;
    }

    /** The words the reference uses. */
    public String label() {
        return label;
    }
}
