package dev.meshbench.jmeter.workload;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Setting;

import dev.meshbench.model.Service;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Names, defaults and parsers of the JMeter properties the Acmeair plan reads. The Maven load profile passes
 * every one of them; the defaults here apply when the plan runs without them (JMeter GUI, plain {@code jmeter}).
 * A property that is absent takes its default; one that is present but blank is an error, not a default.
 */
public final class WorkloadProperties {

    public static final String CLIENTS = "clients";
    public static final String STEP_SECONDS = "step.seconds";
    public static final String THINK_MS = "think.ms";
    public static final String CUSTOMERS = "customers";
    public static final String FLIGHT_DAYS = "flight.days";
    public static final String AIRPORTS = "airports";
    public static final String BASE_URL = "base.url";
    /** Clients of the warm-up thread group, which runs before the ramp at the largest step's rate; 0 skips it. */
    public static final String WARMUP_CLIENTS = "warmup.clients";
    /** The longest the warm-up thread group runs, seconds; it ends earlier when {@link #WARM_FILE} appears. */
    public static final String WARMUP_SECONDS = "warmup.seconds";
    /** The file whose appearance ends the warm-up: the kit creates it when the system is warm. */
    public static final String WARM_FILE = "meshbench.warmFile";
    /** The warm-up thread group's name, and the step label its samples carry (0: not a step of the ramp). */
    public static final String WARMUP_GROUP = "warm-up";
    public static final int WARMUP_STEP = 0;
    /**
     * Percentage of a session's rounds that also request {@code viewRewards} (a Throughput Controller in percent
     * mode). 0, the default, never sends it and keeps the original Acmeair mix exactly.
     */
    public static final String REWARDS_PERCENT = "rewards.percent";
    /**
     * How trips are dated: {@code original} (the original Acmeair driver: leave in 0..5 days, return in 6..12 days,
     * so with the default 5 loaded days most bookings are one way) or {@code roundtrip} (the kit's first plan: leave
     * inside the loaded days, return the next day, so every found flight is booked as a round trip).
     */
    public static final String WORKLOAD = "workload";
    public static final String MIX_ORIGINAL = "original";
    public static final String MIX_ROUNDTRIP = "roundtrip";

    /**
     * The services, in the order the session first calls them; {@code <service>.url} overrides {@link #BASE_URL}.
     * {@code ServiceNamesTest} makes sure no service of the model ({@link Service}) is missing.
     */
    public static final List<String> SERVICES = Stream.of(Service.AUTH, Service.CUSTOMER, Service.FLIGHT, Service.BOOKING)
            .map(Service::id).toList();

    /**
     * What the plan runs with when JMeter is given no value (the GUI, plain {@code jmeter}, the {@code load} profile):
     * the egress study's ramp and dataset and the kit's workload defaults, read from the kit's catalogue of settings
     * (shaded into this plugin), so they are written nowhere else. A kit run passes every one explicitly.
     */
    public static final Map<String, String> DEFAULTS = Map.of(
            CLIENTS, studyValue(Catalogue.CLIENTS),
            STEP_SECONDS, studyValue(Catalogue.STEP_SECONDS),
            THINK_MS, studyValue(Catalogue.THINK_TIME_MS),
            CUSTOMERS, studyValue(Catalogue.CUSTOMERS),
            FLIGHT_DAYS, studyValue(Catalogue.FLIGHT_DAYS),
            REWARDS_PERCENT, studyValue(Catalogue.REWARDS_PERCENT),
            WORKLOAD, studyValue(Catalogue.WORKLOAD),
            BASE_URL, "http://127.0.0.1:8080",
            WARMUP_CLIENTS, "0",
            WARMUP_SECONDS, "1");

    /** The egress study's value of {@code setting} where it has one, else its default: the kit's catalogue's. */
    private static String studyValue(Setting<?> setting) {
        return setting.text(Map.of(), true).orElseThrow(() -> new IllegalStateException(setting.name() + " has no default"));
    }

    private WorkloadProperties() {
    }

    /** The raw value: the property if present (blank included), else the default, else {@code null}. */
    public static String raw(Properties props, String name) {
        String value = props.getProperty(name);
        return value != null ? value.trim() : DEFAULTS.get(name);
    }

    public static int positiveInt(Properties props, String name, String unit) {
        int value = wholeNumber(name, raw(props, name));
        if (value < 1) {
            throw new InvalidWorkloadPropertyException(name, raw(props, name), "must be a positive number of " + unit);
        }
        return value;
    }

    public static int nonNegativeInt(Properties props, String name, String unit) {
        int value = wholeNumber(name, raw(props, name));
        if (value < 0) {
            throw new InvalidWorkloadPropertyException(name, raw(props, name), "must be 0 or more " + unit);
        }
        return value;
    }

    static int wholeNumber(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidWorkloadPropertyException(name, value, "is empty; give a whole number");
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new InvalidWorkloadPropertyException(name, value, "is not a whole number");
        }
    }

    /**
     * A percentage from 0 to 100, digits with an optional decimal point ({@code 5}, {@code 2.5}): what JMeter's
     * Throughput Controller reads with {@code Float.parseFloat}. Anything else is rejected here, because that
     * controller treats a value it cannot parse as 100%.
     */
    public static double percent(Properties props, String name) {
        String value = raw(props, name);
        if (value == null || value.isEmpty()) {
            throw new InvalidWorkloadPropertyException(name, value, "is empty; give a percentage from 0 to 100 (0 = never)");
        }
        if (!value.matches("[0-9]+(\\.[0-9]+)?")) {
            throw new InvalidWorkloadPropertyException(name, value,
                    "is not a percentage; give a number from 0 to 100 such as 5 or 2.5 (0 = never)");
        }
        double percent = Double.parseDouble(value);
        if (percent > 100) {
            throw new InvalidWorkloadPropertyException(name, value, "must be from 0 to 100 (a percentage of rounds)");
        }
        return percent;
    }

    /** {@code workload}: {@code original} or {@code roundtrip}. */
    public static String mix(Properties props) {
        String value = raw(props, WORKLOAD);
        String v = value == null ? "" : value.toLowerCase(Locale.ROOT);
        if (!v.equals(MIX_ORIGINAL) && !v.equals(MIX_ROUNDTRIP)) {
            throw new InvalidWorkloadPropertyException(WORKLOAD, value, "must be original (the original Acmeair driver's "
                    + "dates: mostly one-way bookings) or roundtrip (the kit's first plan: a round trip on every found flight)");
        }
        return v;
    }

    /** {@code customers}: users are {@code uid0@email.com} .. {@code uid<customers-1>@email.com}. */
    public static int customers(Properties props) {
        return positiveInt(props, CUSTOMERS, "customers (the number loaded into the database)");
    }

    /**
     * The base URL of one service, without a trailing slash: {@code <service>.url}, else {@code base.url}, else
     * the default. Must be an absolute http or https URL with a host; a path prefix (an ingress route) is kept.
     */
    public static String serviceUrl(Properties props, String service) {
        if (!SERVICES.contains(service)) {
            throw new IllegalArgumentException("unknown Acmeair service '" + service + "'; known: " + SERVICES);
        }
        String name = service + ".url";
        String value = props.getProperty(name);
        if (value == null) {
            name = BASE_URL;
            value = raw(props, BASE_URL);
        }
        return httpUrl(name, value.trim());
    }

    static String httpUrl(String name, String value) {
        if (value.isEmpty()) {
            throw new InvalidWorkloadPropertyException(name, value, "is empty; give a URL like http://127.0.0.1:8080");
        }
        if (!value.contains("://")) {
            throw new InvalidWorkloadPropertyException(name, value, "must start with http:// or https://");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw new InvalidWorkloadPropertyException(name, value, "is not a URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new InvalidWorkloadPropertyException(name, value, "must start with http:// or https://");
        }
        if (uri.getHost() == null) {
            throw new InvalidWorkloadPropertyException(name, value, "has no host; give a URL like http://127.0.0.1:8080");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidWorkloadPropertyException(name, value, "must not have a query or fragment");
        }
        String url = value;
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }
}
