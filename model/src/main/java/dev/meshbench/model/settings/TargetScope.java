package dev.meshbench.model.settings;

/** Which target a setting applies to ({@code meshbench.target}). */
public enum TargetScope {
    LOCAL("local"),
    KUBERNETES("kubernetes"),
    BOTH("both");

    private final String label;

    TargetScope(String label) {
        this.label = label;
    }

    /** The word the reference uses. */
    public String label() {
        return label;
    }
}
