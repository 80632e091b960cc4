package dev.meshbench.orchestrator.run;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * When a load has run so far past its plan that it is no measurement any more and must be stopped: longer than
 * {@value #GROSS_FACTOR} times its planned length plus {@link #MARGIN}. A step that only overran is flagged in the
 * results ({@code StepWindow#overran}); this is the run that would otherwise hold the machine for many times its plan
 * (100,000 clients made a 10-s step run 9.5 minutes until Ctrl-C).
 *
 * @param plannedSeconds the load's planned length: every step back to back ({@link RunSettings#loadSecondsPerCase()})
 */
public record LoadDeadline(long plannedSeconds) {
    /**
     * Twice the plan: a load that took that long spent at least as much time off its plan as on it, so its steps'
     * figures describe the load generator's struggle rather than the case; and the user planned for the time, not
     * for an open-ended run.
     */
    public static final int GROSS_FACTOR = 2;
    /**
     * Plus this, however short the plan: the plan's connect and response timeouts (10 s + 60 s), which the last
     * request of a step may take, and 20 s for JMeter's JVM to start and start its threads.
     */
    public static final Duration MARGIN = Duration.ofSeconds(90);

    public LoadDeadline {
        if (plannedSeconds < 1) {
            throw new IllegalArgumentException("plannedSeconds (" + plannedSeconds + ") must be at least 1");
        }
    }

    /** How long the load may run before it is stopped, seconds. */
    public long limitSeconds() {
        return GROSS_FACTOR * plannedSeconds + MARGIN.toSeconds();
    }

    /**
     * The reason to stop the load once it has run {@code elapsedMs}, or empty while it is within {@link #limitSeconds()}.
     *
     * @param where what the load was doing, e.g. {@code step 3/4 (5000 clients)}; empty when not known
     */
    public Optional<String> exceeded(long elapsedMs, String where) {
        if (elapsedMs <= limitSeconds() * 1000) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the load ran %s, more than %s its planned %s plus %s: stopped%s; "
                        + "too many clients for this machine, or answers far slower than the steps",
                CaseRun.human(elapsedMs / 1000), GROSS_FACTOR == 2 ? "twice" : GROSS_FACTOR + " times",
                CaseRun.human(plannedSeconds), CaseRun.human(MARGIN.toSeconds()), where.isBlank() ? "" : " at " + where));
    }
}
