package dev.meshbench.acmeair.flight;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.lt;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import dev.meshbench.acmeair.mongo.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;

/**
 * Collections {@code flightSegment {_id, originPort, destPort, miles}}, {@code flight {_id, ..., flightSegmentId,
 * scheduledDepartureTime, scheduledArrivalTime}} and {@code airportCodeMapping {_id, airportName}}.
 * Indexes: a unique one on segment (originPort, destPort), one on flight (flightSegmentId, scheduledDepartureTime).
 */
public final class FlightRepository {
    public static final String SEGMENTS = "flightSegment";
    public static final String FLIGHTS = "flight";
    public static final String AIRPORTS = "airportCodeMapping";
    private static final int BATCH = 1000;

    private final MongoDatabase db;

    public FlightRepository(MongoDatabase db) {
        this.db = db;
    }

    private MongoCollection<Document> segments() {
        return db.getCollection(SEGMENTS);
    }

    private MongoCollection<Document> flights() {
        return db.getCollection(FLIGHTS);
    }

    private MongoCollection<Document> airports() {
        return db.getCollection(AIRPORTS);
    }

    public void createIndexes() {
        segments().createIndex(Indexes.ascending("originPort", "destPort"), new IndexOptions().unique(true));
        flights().createIndex(Indexes.ascending("flightSegmentId", "scheduledDepartureTime"));
    }

    public Optional<Document> segment(String from, String to) {
        return Optional.ofNullable(segments().find(and(eq("originPort", from), eq("destPort", to))).first());
    }

    public Optional<Document> segmentById(String id) {
        return Optional.ofNullable(segments().find(eq("_id", id)).first());
    }

    /** Flights of a segment departing in [from, to), earliest first. */
    public List<Document> flights(String segmentId, Instant from, Instant to) {
        return flights().find(and(eq("flightSegmentId", segmentId), gte("scheduledDepartureTime", Date.from(from)),
                lt("scheduledDepartureTime", Date.from(to)))).sort(Sorts.ascending("scheduledDepartureTime")).into(new ArrayList<>());
    }

    public long countFlights() {
        return flights().countDocuments();
    }

    public long countSegments() {
        return segments().countDocuments();
    }

    public long countAirports() {
        return airports().countDocuments();
    }

    /** Drops all three collections, inserts the new data and recreates the indexes. */
    public void replaceAll(List<Document> airportDocs, List<Document> segmentDocs, List<Document> flightDocs) {
        Collections.dropIfExists(db, AIRPORTS);
        Collections.dropIfExists(db, SEGMENTS);
        Collections.dropIfExists(db, FLIGHTS);
        createIndexes();
        insert(airports(), airportDocs);
        insert(segments(), segmentDocs);
        insert(flights(), flightDocs);
    }

    private static void insert(MongoCollection<Document> c, List<Document> docs) {
        for (int i = 0; i < docs.size(); i += BATCH) {
            c.insertMany(docs.subList(i, Math.min(docs.size(), i + BATCH)));
        }
    }
}
