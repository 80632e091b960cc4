package dev.meshbench.acmeair.flight;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.SplittableRandom;
import org.bson.Document;

/**
 * Deterministic flight data: airports, segments {@code AA<n>} between each hub and every other airport (both ways),
 * and one flight per segment per day, id {@code <segment>-<yyyyMMdd>}, leaving at midnight UTC as Acmeair's flights
 * leave at midnight, arriving after the segment's flying time. Prices vary with distance and a seeded random part.
 */
public final class FlightGenerator {
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final String[] PLANES = {"A320", "B737", "A330", "B787", "B777", "A350", "B747"};

    private FlightGenerator() {
    }

    public static List<Airport> airports(int n) {
        return Airport.ALL.subList(0, n);
    }

    public static List<Document> airportDocuments(int n) {
        return airportDocuments(airports(n));
    }

    /** Segments among the first {@code n} airports of the kit's network ({@link Airport#ALL}). */
    public static List<Document> segments(int n) {
        return segments(airports(n), Math.min(Airport.HUBS, n));
    }

    /**
     * Segments of the original Acmeair network among the original driver's airports ({@link Airport#ORIGINAL}): one
     * way, from each of {@link Airport#ORIGINAL_ORIGINS} to each of the first {@link Airport#ORIGINAL_DESTINATIONS}
     * airports other than itself, as the original loader reads {@code mileage.csv} (rows to columns): 170 segments,
     * so 170 of the 210 origin-destination pairs the driver queries have an outbound flight.
     */
    public static List<Document> originalSegments() {
        List<Document> out = new ArrayList<>();
        for (String origin : Airport.ORIGINAL_ORIGINS) {
            Airport from = Airport.ORIGINAL.stream().filter(a -> a.code().equals(origin)).findFirst().orElseThrow();
            for (Airport to : Airport.ORIGINAL.subList(0, Airport.ORIGINAL_DESTINATIONS)) {
                if (!to.equals(from)) {
                    out.add(new Document("_id", "AA" + out.size()).append("originPort", from.code())
                            .append("destPort", to.code()).append("miles", from.milesTo(to)));
                }
            }
        }
        return out;
    }

    public static List<Document> airportDocuments(List<Airport> airports) {
        return airports.stream().map(a -> new Document("_id", a.code()).append("airportName", a.name())).toList();
    }

    private static List<Document> segments(List<Airport> as, int hubs) {
        List<Document> out = new ArrayList<>();
        for (int i = 0; i < as.size(); i++) {
            for (int j = 0; j < as.size(); j++) {
                if (i != j && (i < hubs || j < hubs)) {
                    Airport from = as.get(i);
                    Airport to = as.get(j);
                    out.add(new Document("_id", "AA" + out.size()).append("originPort", from.code())
                            .append("destPort", to.code()).append("miles", from.milesTo(to)));
                }
            }
        }
        return out;
    }

    /** One flight per segment and day from {@code start} for {@code days} days. */
    public static List<Document> flights(List<Document> segments, LocalDate start, int days, long seed) {
        List<Document> out = new ArrayList<>(segments.size() * days);
        for (int d = 0; d < days; d++) {
            LocalDate day = start.plusDays(d);
            Instant midnight = day.atStartOfDay(ZoneOffset.UTC).toInstant();
            for (Document seg : segments) {
                String segId = seg.getString("_id");
                long miles = seg.getLong("miles");
                SplittableRandom r = new SplittableRandom(seed * 7919L + segId.hashCode() * 31L + d);
                Instant departure = midnight;
                long flightMinutes = 30 + miles * 60 / 500;
                int plane = (int) Math.min(PLANES.length - 1, miles / 1200);
                out.add(new Document("_id", segId + "-" + DAY.format(day))
                        .append("firstClassBaseCost", 300 + miles / 4 + r.nextInt(200))
                        .append("economyClassBaseCost", 100 + miles / 12 + r.nextInt(100))
                        .append("numFirstClassSeats", plane >= 3 ? 20 : 8)
                        .append("numEconomyClassSeats", plane >= 3 ? 280 : 150)
                        .append("airplaneTypeId", PLANES[plane])
                        .append("flightSegmentId", segId)
                        .append("scheduledDepartureTime", Date.from(departure))
                        .append("scheduledArrivalTime", Date.from(departure.plusSeconds(flightMinutes * 60))));
            }
        }
        return out;
    }
}
