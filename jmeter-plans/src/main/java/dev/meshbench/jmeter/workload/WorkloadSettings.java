package dev.meshbench.jmeter.workload;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Setting;
import java.math.BigDecimal;
import java.util.Collections;
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
 * @param knobs       the other driver properties ({@link Catalogue#DRIVER}, those without a field here) that are not
 *                    at their default, JMeter name to value: each is checked by its catalogue setting's rule, so a
 *                    knob added to the catalogue is checked, and shown in the {@link #summary} when set, with no code
 *                    here
 */
public record WorkloadSettings(RampSchedule ramp, int thinkMs, int customers, int flightDays, List<String> airports,
        double rewardsPercent, Map<String, String> serviceUrls, String mix, Map<String, String> knobs) {

    /** The driver's settings this record has a field for; the rest are {@link #knobs}. */
    private static final List<Setting<?>> FIELDS = List.of(Catalogue.CLIENTS, Catalogue.STEP_SECONDS,
            Catalogue.THINK_TIME_MS, Catalogue.CUSTOMERS, Catalogue.FLIGHT_DAYS, Catalogue.WORKLOAD, Catalogue.REWARDS_PERCENT);

    public WorkloadSettings {
        airports = List.copyOf(airports);
        serviceUrls = Map.copyOf(serviceUrls);
        knobs = Collections.unmodifiableMap(new LinkedHashMap<>(knobs));
    }

    /** Reads and checks every property; each driver property by its catalogue setting's rule ({@link WorkloadProperties#driver}). */
    public static WorkloadSettings fromProperties(Properties props) {
        RampSchedule ramp = RampSchedule.fromProperties(props);
        StepRates.fromProperties(props, ramp); // a bad rate stops the run before any step (StepRateTimer applies it)
        int think = WorkloadProperties.driver(props, Catalogue.THINK_TIME_MS);
        int customers = WorkloadProperties.customers(props);
        int days = WorkloadProperties.driver(props, Catalogue.FLIGHT_DAYS);
        List<String> airports = AcmeairAirports.fromProperties(props);
        double rewards = WorkloadProperties.driver(props, Catalogue.REWARDS_PERCENT);
        Map<String, String> urls = new LinkedHashMap<>();
        for (String service : WorkloadProperties.SERVICES) {
            urls.put(service, WorkloadProperties.serviceUrl(props, service));
        }
        Map<String, String> knobs = new LinkedHashMap<>();
        for (Setting<?> s : Catalogue.DRIVER) {
            if (!FIELDS.contains(s)) {
                String name = s.jmeterName();
                Object value = WorkloadProperties.driver(props, s);
                if (!value.equals(s.parse(WorkloadProperties.DEFAULTS.get(name)))) {
                    knobs.put(name, WorkloadProperties.raw(props, name));
                }
            }
        }
        return new WorkloadSettings(ramp, think, customers, days, airports, rewards, urls, WorkloadProperties.mix(props), knobs);
    }

    /** One line for people: what this run will do. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(dev.meshbench.model.PlanOutput.SUMMARY).append(String.format(Locale.ROOT, "clients %s, %d s per step (%d s in all), think %d ms, "
                        + "%s mix, %d customers, %s, %d flight days, %s;",
                ramp.clients(), ramp.stepSeconds(), ramp.totalSeconds(), thinkMs, mix, customers,
                WorkloadProperties.MIX_ORIGINAL.equals(mix) ? "the original driver's airport lists"
                        : airports.size() + " airports",
                flightDays, rewardsPercent == 0 ? "viewRewards off"
                        : "viewRewards in " + BigDecimal.valueOf(rewardsPercent).stripTrailingZeros().toPlainString()
                                + "% of rounds"));
        if (!knobs.isEmpty()) {
            sb.setLength(sb.length() - 1);
            knobs.forEach((name, value) -> sb.append(", ").append(name).append(' ').append(value));
            sb.append(';');
        }
        for (String service : WorkloadProperties.SERVICES) {
            sb.append(' ').append(service).append('=').append(serviceUrls.get(service));
        }
        return sb.toString();
    }
}
