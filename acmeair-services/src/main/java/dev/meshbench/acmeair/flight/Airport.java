package dev.meshbench.acmeair.flight;

import java.util.List;

/**
 * An airport the loader knows: IATA code, city, position (for great-circle miles). The first {@link #HUBS} are hubs:
 * the loader makes a segment between every hub and every other airport, in both directions.
 */
public record Airport(String code, String name, double latitude, double longitude) {
    public static final int HUBS = 8;

    /** 30 airports; positions rounded to 0.01 degree. */
    public static final List<Airport> ALL = List.of(
            new Airport("JFK", "New York", 40.64, -73.78),
            new Airport("LHR", "London", 51.47, -0.45),
            new Airport("CDG", "Paris", 49.01, 2.55),
            new Airport("FRA", "Frankfurt", 50.03, 8.57),
            new Airport("NRT", "Tokyo", 35.77, 140.39),
            new Airport("HKG", "Hong Kong", 22.31, 113.92),
            new Airport("DXB", "Dubai", 25.25, 55.36),
            new Airport("SFO", "San Francisco", 37.62, -122.38),
            new Airport("AMS", "Amsterdam", 52.31, 4.76),
            new Airport("BOM", "Mumbai", 19.09, 72.87),
            new Airport("DEL", "Delhi", 28.56, 77.10),
            new Airport("SIN", "Singapore", 1.36, 103.99),
            new Airport("SYD", "Sydney", -33.95, 151.18),
            new Airport("GRU", "Sao Paulo", -23.43, -46.47),
            new Airport("YYZ", "Toronto", 43.68, -79.63),
            new Airport("MEX", "Mexico City", 19.44, -99.07),
            new Airport("ORD", "Chicago", 41.97, -87.91),
            new Airport("LAX", "Los Angeles", 33.94, -118.41),
            new Airport("ATL", "Atlanta", 33.64, -84.43),
            new Airport("MAD", "Madrid", 40.47, -3.56),
            new Airport("FCO", "Rome", 41.80, 12.25),
            new Airport("ZRH", "Zurich", 47.46, 8.55),
            new Airport("IST", "Istanbul", 41.26, 28.74),
            new Airport("JNB", "Johannesburg", -26.14, 28.25),
            new Airport("CAI", "Cairo", 30.12, 31.41),
            new Airport("ICN", "Seoul", 37.46, 126.44),
            new Airport("PEK", "Beijing", 40.08, 116.58),
            new Airport("BKK", "Bangkok", 13.69, 100.75),
            new Airport("SVO", "Moscow", 55.97, 37.41),
            new Airport("EZE", "Buenos Aires", -34.82, -58.54));

    /**
     * The original Acmeair driver's 15 airports (its {@code Airports.csv} and {@code Airports2.csv}): the 14 column
     * airports of the original flight service's {@code mileage.csv} first (its destinations), then Amsterdam.
     */
    public static final List<Airport> ORIGINAL = byCode(List.of("BOM", "DEL", "FRA", "HKG", "LHR", "YUL", "SVO", "JFK",
            "CDG", "FCO", "SIN", "SYD", "IKA", "NRT", "AMS"));

    /** Destinations of the original network: the first 14 of {@link #ORIGINAL} ({@code mileage.csv}'s columns). */
    public static final int ORIGINAL_DESTINATIONS = 14;

    /**
     * Origins of the original network among {@link #ORIGINAL}: the airports that are rows of {@code mileage.csv}
     * (Mumbai and Delhi are columns only). Its segments go one way, from a row airport to a column airport other
     * than itself.
     */
    public static final List<String> ORIGINAL_ORIGINS = List.of(
            "FRA", "HKG", "LHR", "YUL", "SVO", "JFK", "CDG", "FCO", "SIN", "SYD", "IKA", "NRT", "AMS");

    /** The two airports of the original network the kit's 30 lack. */
    private static List<Airport> originalOnly() {
        return List.of(new Airport("YUL", "Montreal", 45.47, -73.74), new Airport("IKA", "Tehran", 35.42, 51.15));
    }

    private static List<Airport> byCode(List<String> codes) {
        List<Airport> known = new java.util.ArrayList<>(ALL);
        known.addAll(originalOnly());
        return codes.stream().map(c -> known.stream().filter(a -> a.code().equals(c)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no airport " + c))).toList();
    }

    /** Great-circle distance in statute miles, rounded. */
    public long milesTo(Airport o) {
        double r = 3958.8;
        double p1 = Math.toRadians(latitude);
        double p2 = Math.toRadians(o.latitude);
        double dp = p2 - p1;
        double dl = Math.toRadians(o.longitude - longitude);
        double a = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
        return Math.round(2 * r * Math.asin(Math.sqrt(a)));
    }
}
