package dev.meshbench.component;

import dev.meshbench.model.settings.Catalogue;

/**
 * The Acmeair dataset's default sizes for the components (acmeair-services' {@code all} command, the loaders'
 * limits): the settings catalogue's ({@link Catalogue}), which the orchestrator's runs read as well.
 */
public final class DatasetDefaults {
    /** Customers the study loaded: {@code meshbench.customers} under {@code -Pstudy}, and {@code all --customers}. */
    public static final int STUDY_CUSTOMERS = Catalogue.STUDY_CUSTOMERS;

    /** Days of flights loaded: {@code meshbench.flightDays}, and {@code all --days}. */
    public static final int FLIGHT_DAYS = Catalogue.DEFAULT_FLIGHT_DAYS;

    /**
     * The most customers the customer service's loader generates ({@code /customer/loader/load?numCustomers=}):
     * the orchestrator refuses more before it deploys anything, instead of the loader refusing them after.
     */
    public static final int MAX_CUSTOMERS = Catalogue.MAX_CUSTOMERS;

    /** The most days of flights the flight service's loader generates ({@code /flight/loader/load?numDays=}). */
    public static final int MAX_FLIGHT_DAYS = Catalogue.MAX_FLIGHT_DAYS;

    private DatasetDefaults() {
    }
}
