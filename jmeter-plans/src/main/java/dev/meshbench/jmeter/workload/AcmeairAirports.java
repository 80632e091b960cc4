package dev.meshbench.jmeter.workload;

import dev.meshbench.model.Airports;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.random.RandomGenerator;

/**
 * Airport codes the workload queries flights between: the {@code airports} property (comma-separated codes) or,
 * by default, the codes of the data set the meshbench Acmeair services load. The lists come from the kit's one
 * airport file ({@link Airports}, module model, shaded into this plugin's jar), which the services read too.
 */
public final class AcmeairAirports {

    /** The kit's 30 airports, which acmeair-services' flight loader loads by default, in its order ({@link Airports#kit()}). */
    public static final List<String> LOADED = Airports.codes(Airports.kit());

    /**
     * Origins of the original Acmeair driver, in the order of its {@code Airports2.csv}, read one per flight query
     * by every thread in turn (a CSV Data Set shared by all threads, recycled at the end).
     */
    public static final List<String> ORIGINAL_FROM = Airports.codes(Airports.driverFrom());

    /** Destinations of the original Acmeair driver, in the order of its {@code Airports.csv}, read like the origins. */
    public static final List<String> ORIGINAL_TO = Airports.codes(Airports.driverTo());

    private AcmeairAirports() {
    }

    /** The codes to draw from: {@code airports} when set, else {@link #LOADED}. */
    public static List<String> fromProperties(Properties props) {
        String value = props.getProperty(WorkloadProperties.AIRPORTS);
        return value == null ? LOADED : parse(value);
    }

    public static List<String> parse(String value) {
        List<String> out = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String code = part.trim().toUpperCase(Locale.ROOT);
            if (!code.matches("[A-Z]{3}")) {
                throw new InvalidWorkloadPropertyException(WorkloadProperties.AIRPORTS, value,
                        "'" + part.trim() + "' is not a 3-letter IATA airport code");
            }
            if (!out.contains(code)) {
                out.add(code);
            }
        }
        if (out.size() < 2) {
            throw new InvalidWorkloadPropertyException(WorkloadProperties.AIRPORTS, value,
                    "needs at least two distinct airports to query flights between");
        }
        return List.copyOf(out);
    }

    /** A random code from {@code codes}, different from {@code other} unless {@code other} is null or empty. */
    public static String pick(List<String> codes, String other, RandomGenerator random) {
        if (other == null || other.isEmpty() || !codes.contains(other)) {
            return codes.get(random.nextInt(codes.size()));
        }
        int i = random.nextInt(codes.size() - 1);
        String code = codes.get(i);
        return code.equals(other) ? codes.get(codes.size() - 1) : code;
    }
}
