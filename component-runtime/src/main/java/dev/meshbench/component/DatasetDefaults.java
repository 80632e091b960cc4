package dev.meshbench.component;

/**
 * The Acmeair dataset's default sizes, written once for the modules that default to them but cannot read the
 * orchestrator's {@code RunSettings}: {@code RunSettings} takes its values from here, and so does acmeair-services'
 * {@code all} command. (jmeter-plans depends on no kit module; a test in the orchestrator keeps its plan defaults
 * equal to {@code RunSettings}'s.)
 */
public final class DatasetDefaults {
    /** Customers the study loaded: {@code meshbench.customers} under {@code -Pstudy}, and {@code all --customers}. */
    public static final int STUDY_CUSTOMERS = 10_000;

    /** Days of flights loaded: {@code meshbench.flightDays}, and {@code all --days}. */
    public static final int FLIGHT_DAYS = 5;

    /**
     * The most customers the customer service's loader generates ({@code /customer/loader/load?numCustomers=}):
     * the orchestrator refuses more before it deploys anything, instead of the loader refusing them after.
     */
    public static final int MAX_CUSTOMERS = 1_000_000;

    /** The most days of flights the flight service's loader generates ({@code /flight/loader/load?numDays=}). */
    public static final int MAX_FLIGHT_DAYS = 366;

    private DatasetDefaults() {
    }
}
