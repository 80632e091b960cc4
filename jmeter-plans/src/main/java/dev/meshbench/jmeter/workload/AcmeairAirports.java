package dev.meshbench.jmeter.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.random.RandomGenerator;

/**
 * Airport codes the workload queries flights between: the {@code airports} property (comma-separated codes) or,
 * by default, the codes of the data set the meshbench Acmeair services load.
 */
public final class AcmeairAirports {

    /** The 30 airports acmeair-services' flight loader knows ({@code Airport.ALL}), in its order; it loads all by default. */
    public static final List<String> LOADED = List.of(
            "JFK", "LHR", "CDG", "FRA", "NRT", "HKG", "DXB", "SFO", "AMS", "BOM", "DEL", "SIN", "SYD", "GRU", "YYZ",
            "MEX", "ORD", "LAX", "ATL", "MAD", "FCO", "ZRH", "IST", "JNB", "CAI", "ICN", "PEK", "BKK", "SVO", "EZE");

    /**
     * Origins of the original Acmeair driver, in the order of its {@code Airports2.csv}, read one per flight query
     * by every thread in turn (a CSV Data Set shared by all threads, recycled at the end).
     */
    public static final List<String> ORIGINAL_FROM = List.of(
            "NRT", "BOM", "DEL", "FRA", "AMS", "HKG", "LHR", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA");

    /** Destinations of the original Acmeair driver, in the order of its {@code Airports.csv}, read like the origins. */
    public static final List<String> ORIGINAL_TO = List.of(
            "DEL", "FRA", "HKG", "LHR", "BOM", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA", "NRT");

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
