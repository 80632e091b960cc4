package dev.meshbench.acmeair.flight;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Replaces airports, segments and flights with generated ones (see {@link FlightGenerator}). */
public final class FlightLoader {
    public static final long DEFAULT_SEED = 42;
    private static final Logger LOG = LoggerFactory.getLogger(FlightLoader.class);

    private final FlightRepository repo;

    public FlightLoader(FlightRepository repo) {
        this.repo = repo;
    }

    /** Loads the first {@code airports} airports of the kit's network ({@link Airport#ALL}). */
    public Map<String, Object> load(int airports, int days, LocalDate start, long seed) {
        return load(FlightGenerator.airportDocuments(airports), FlightGenerator.segments(airports), days, start, seed);
    }

    /** Loads the original Acmeair network ({@link Airport#ORIGINAL}), the airports the original driver queries. */
    public Map<String, Object> loadOriginal(int days, LocalDate start, long seed) {
        return load(FlightGenerator.airportDocuments(Airport.ORIGINAL), FlightGenerator.originalSegments(), days, start, seed);
    }

    private Map<String, Object> load(List<Document> airportDocs, List<Document> segments, int days, LocalDate start, long seed) {
        int airports = airportDocs.size();
        long t0 = System.nanoTime();
        List<Document> flights = FlightGenerator.flights(segments, start, days, seed);
        repo.replaceAll(airportDocs, segments, flights);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        LOG.info("loaded {} airports, {} segments, {} flights ({} days from {}) in {} ms", airports, segments.size(),
                flights.size(), days, start, millis);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("airports", airports);
        body.put("flightSegments", segments.size());
        body.put("flights", flights.size());
        body.put("days", days);
        body.put("startDate", start.toString());
        body.put("seed", seed);
        body.put("millis", millis);
        return body;
    }
}
