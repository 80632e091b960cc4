package dev.meshbench.acmeair.flight;

import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.meshbench.acmeair.mongo.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bson.Document;

/**
 * Collections {@code flightSegment {_id, originPort, destPort, miles}}, {@code flight {_id, ..., flightSegmentId,
 * scheduledDepartureTime, scheduledArrivalTime}} and {@code airportCodeMapping {_id, airportName}}.
 * Indexes: unique ones on segment (originPort, destPort) and flight (flightSegmentId, scheduledDepartureTime).
 *
 * <p>Filters are plain documents with exactly the indexed fields: mongo-java-server uses a (unique) index only when
 * a query's top-level keys equal the index keys; the driver's {@code Filters.and} renders {@code $and}, which it
 * would answer with a scan of the collection under a collection-wide lock.
 */
public final class FlightRepository {
    public static final String SEGMENTS = "flightSegment";
    public static final String FLIGHTS = "flight";
    public static final String AIRPORTS = "airportCodeMapping";
    private static final int BATCH = 1000;

    /** The database of the client in use, read for every operation: a MongoDB switch applies to the next one. */
    private final Supplier<MongoDatabase> db;

    public FlightRepository(Supplier<MongoDatabase> db) {
        this.db = db;
    }

    private MongoCollection<Document> segments() {
        return db.get().getCollection(SEGMENTS);
    }

    private MongoCollection<Document> flights() {
        return db.get().getCollection(FLIGHTS);
    }

    private MongoCollection<Document> airports() {
        return db.get().getCollection(AIRPORTS);
    }

    public void createIndexes() {
        segments().createIndex(Indexes.ascending("originPort", "destPort"), new IndexOptions().unique(true));
        flights().createIndex(Indexes.ascending("flightSegmentId", "scheduledDepartureTime"), new IndexOptions().unique(true));
    }

    public Optional<Document> segment(String from, String to) {
        return Optional.ofNullable(segments().find(new Document("originPort", from).append("destPort", to)).first());
    }

    public Optional<Document> segmentById(String id) {
        return Optional.ofNullable(segments().find(eq("_id", id)).first());
    }

    /** Flights of a segment departing at {@code departure} (as in Acmeair: flights leave at midnight, UTC here). */
    public List<Document> flights(String segmentId, Instant departure) {
        return flights().find(new Document("flightSegmentId", segmentId).append("scheduledDepartureTime", Date.from(departure)))
                .into(new ArrayList<>());
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
        Collections.dropIfExists(db.get(), AIRPORTS);
        Collections.dropIfExists(db.get(), SEGMENTS);
        Collections.dropIfExists(db.get(), FLIGHTS);
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
