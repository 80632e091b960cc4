package dev.meshbench.acmeair.flight;

import dev.meshbench.model.Airports;
import java.util.List;

/**
 * An airport the loader knows: IATA code, city, position (for great-circle miles). The lists come from the kit's one
 * airport file ({@link Airports}), which the JMeter plan reads too. The first {@link #HUBS} of {@link #ALL} are hubs:
 * the loader makes a segment between every hub and every other airport, in both directions.
 */
public record Airport(String code, String name, double latitude, double longitude) {
    public static final int HUBS = Airports.KIT_HUBS;

    /** The kit's 30 airports ({@link Airports#kit()}); positions rounded to 0.01 degree. */
    public static final List<Airport> ALL = of(Airports.kit());

    /**
     * The original Acmeair driver's 15 airports (its {@code Airports.csv} and {@code Airports2.csv}): the 14 column
     * airports of the original flight service's {@code mileage.csv} first (its destinations), then Amsterdam.
     */
    public static final List<Airport> ORIGINAL = of(Airports.original());

    /** Destinations of the original network: the first 14 of {@link #ORIGINAL} ({@code mileage.csv}'s columns). */
    public static final int ORIGINAL_DESTINATIONS = Airports.ORIGINAL_DESTINATIONS;

    /**
     * Origins of the original network among {@link #ORIGINAL}: the airports that are rows of {@code mileage.csv}
     * (Mumbai and Delhi are columns only). Its segments go one way, from a row airport to a column airport other
     * than itself.
     */
    public static final List<String> ORIGINAL_ORIGINS = Airports.codes(Airports.originalOrigins());

    private static List<Airport> of(List<Airports.Airport> airports) {
        return airports.stream().map(a -> new Airport(a.code(), a.city(), a.latitude(), a.longitude())).toList();
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
