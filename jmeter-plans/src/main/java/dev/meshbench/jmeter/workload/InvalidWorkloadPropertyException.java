package dev.meshbench.jmeter.workload;

import java.util.Locale;

/** A workload property has a value the plan cannot run with; the message names the property, value and rule. */
public final class InvalidWorkloadPropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;

    public InvalidWorkloadPropertyException(String property, String value, String rule) {
        super(String.format(Locale.ROOT, "%s=%s: %s", property, value == null ? "" : value, rule));
        this.property = property;
    }

    /** The JMeter property at fault, e.g. {@code clients}. */
    public String property() {
        return property;
    }
}
