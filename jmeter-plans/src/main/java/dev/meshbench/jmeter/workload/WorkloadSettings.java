package dev.meshbench.jmeter.workload;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Every workload property, parsed and validated together: what the plan's validator checks before any thread
 * starts.
 *
 * @param ramp        the client steps and their length
 * @param thinkMs     pause before each request of a virtual user
 * @param customers   users are drawn from {@code uid0@email.com} .. {@code uid<customers-1>@email.com}
 * @param flightDays  days of flights loaded, counted from today (UTC); queries stay inside them
 * @param airports    codes flights are queried between
 * @param rewardsPercent percentage of rounds that also view the customer's rewards (0 = never, the original mix)
 * @param serviceUrls base URL per service (auth, customer, flight, booking), in that order
 * @param mix         {@code original} or {@code roundtrip}: how trips are dated ({@link AcmeairDates#tripDay})
 */
public record WorkloadSettings(RampSchedule ramp, int thinkMs, int customers, int flightDays, List<String> airports,
        double rewardsPercent, Map<String, String> serviceUrls, String mix) {

    public WorkloadSettings {
        airports = List.copyOf(airports);
        serviceUrls = Map.copyOf(serviceUrls);
        if (thinkMs < 0) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.THINK_MS, Integer.toString(thinkMs),
                    "must be 0 or more milliseconds");
        }
        if (customers < 1) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.CUSTOMERS, Integer.toString(customers),
                    "must be a positive number of customers");
        }
        if (flightDays < 2) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.FLIGHT_DAYS, Integer.toString(flightDays),
                    "must be at least 2 (a round trip returns the day after it leaves)");
        }
        if (!(rewardsPercent >= 0 && rewardsPercent <= 100)) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.REWARDS_PERCENT, Double.toString(rewardsPercent),
                    "must be from 0 to 100 (a percentage of rounds)");
        }
    }

    public static WorkloadSettings fromProperties(Properties props) {
        RampSchedule ramp = RampSchedule.fromProperties(props);
        StepRates.fromProperties(props, ramp); // a bad rate stops the run before any step (StepRateTimer applies it)
        int think = WorkloadProperties.nonNegativeInt(props, WorkloadProperties.THINK_MS, "milliseconds");
        int customers = WorkloadProperties.customers(props);
        int days = WorkloadProperties.positiveInt(props, WorkloadProperties.FLIGHT_DAYS, "days");
        List<String> airports = AcmeairAirports.fromProperties(props);
        double rewards = WorkloadProperties.percent(props, WorkloadProperties.REWARDS_PERCENT);
        Map<String, String> urls = new LinkedHashMap<>();
        for (String service : WorkloadProperties.SERVICES) {
            urls.put(service, WorkloadProperties.serviceUrl(props, service));
        }
        return new WorkloadSettings(ramp, think, customers, days, airports, rewards, urls, WorkloadProperties.mix(props));
    }

    /** One line for people: what this run will do. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Acmeair ramp: clients %s, %d s per step (%d s in all), think %d ms, "
                        + "%s mix, %d customers, %s, %d flight days, %s;",
                ramp.clients(), ramp.stepSeconds(), ramp.totalSeconds(), thinkMs, mix, customers,
                WorkloadProperties.MIX_ORIGINAL.equals(mix) ? "the original driver's airport lists"
                        : airports.size() + " airports",
                flightDays, rewardsPercent == 0 ? "viewRewards off"
                        : "viewRewards in " + BigDecimal.valueOf(rewardsPercent).stripTrailingZeros().toPlainString()
                                + "% of rounds"));
        for (String service : WorkloadProperties.SERVICES) {
            sb.append(' ').append(service).append('=').append(serviceUrls.get(service));
        }
        return sb.toString();
    }
}
