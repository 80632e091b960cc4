package dev.meshbench.jmeter.workload;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Parser;
import dev.meshbench.model.settings.Setting;

import dev.meshbench.model.Service;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
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

    /*
     * The driver's properties: each is a setting of the kit's catalogue (shaded into this plugin) with its JMeter
     * name, default, study value and rule there, read here with that same rule (driver(...)), so the kit and the plan
     * accept and refuse the same values in the same words.
     */
    public static final String CLIENTS = Catalogue.CLIENTS.jmeterName();
    public static final String STEP_SECONDS = Catalogue.STEP_SECONDS.jmeterName();
    public static final String THINK_MS = Catalogue.THINK_TIME_MS.jmeterName();
    public static final String CUSTOMERS = Catalogue.CUSTOMERS.jmeterName();
    public static final String FLIGHT_DAYS = Catalogue.FLIGHT_DAYS.jmeterName();
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
     * Percent of a session's rounds that also request {@code viewRewards} (a Throughput Controller in percent mode).
     * 0, the default, never sends it and keeps the original Acmeair mix exactly.
     */
    public static final String REWARDS_PERCENT = Catalogue.REWARDS_PERCENT.jmeterName();
    /**
     * How trips are dated: {@code original} (the original Acmeair driver: leave in 0..5 days, return in 6..12 days,
     * so with the default 5 loaded days most bookings are one way) or {@code roundtrip} (the kit's first plan: leave
     * inside the loaded days, return the next day, so every found flight is booked as a round trip).
     */
    public static final String WORKLOAD = Catalogue.WORKLOAD.jmeterName();
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
     * for the driver's properties ({@link Catalogue#DRIVER}) the egress study's value where it has one, else the kit's
     * default, read from the catalogue so they are written nowhere else; and the plan's own few. A kit run passes
     * every driver property explicitly.
     */
    public static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        for (Setting<?> s : Catalogue.DRIVER) {
            d.put(s.jmeterName(), s.text(Map.of(), true).orElseThrow(() -> new IllegalStateException(s.name() + " has no default")));
        }
        d.put(BASE_URL, "http://127.0.0.1:8080");
        d.put(WARMUP_CLIENTS, "0");
        d.put(WARMUP_SECONDS, "1");
        return Collections.unmodifiableMap(d);
    }

    private WorkloadProperties() {
    }

    /** The raw value: the property if present (blank included), else the default, else {@code null}. */
    public static String raw(Properties props, String name) {
        String value = props.getProperty(name);
        return value != null ? value.trim() : DEFAULTS.get(name);
    }

    /**
     * One of the driver's properties ({@link Catalogue#DRIVER}), read with its catalogue setting's rule: the property,
     * else its default; refused in the kit's own words, naming the JMeter property ({@code rewards.percent=ten: ...}).
     */
    public static <T> T driver(Properties props, Setting<T> setting) {
        String name = setting.jmeterName();
        String value = raw(props, name);
        try {
            return setting.parser().read().apply(value == null ? "" : value);
        } catch (Parser.Invalid e) {
            throw new InvalidWorkloadPropertyException(name, value, e.getMessage());
        }
    }

    /** {@code workload}: {@code original} or {@code roundtrip}. */
    public static String mix(Properties props) {
        return driver(props, Catalogue.WORKLOAD);
    }

    /** {@code customers}: users are {@code uid0@email.com} .. {@code uid<customers-1>@email.com}. */
    public static int customers(Properties props) {
        return driver(props, Catalogue.CUSTOMERS);
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
