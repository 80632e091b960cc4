package dev.meshbench.acmeair.booking;

import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import dev.meshbench.acmeair.mongo.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bson.Document;

/** The {@code booking} collection, indexed on customerId (bookings are listed per user). */
public final class BookingRepository {
    public static final String COLLECTION = "booking";

    /** The database of the client in use, read for every operation: a MongoDB switch applies to the next one. */
    private final Supplier<MongoDatabase> db;

    public BookingRepository(Supplier<MongoDatabase> db) {
        this.db = db;
    }

    private MongoCollection<Document> bookings() {
        return db.get().getCollection(COLLECTION);
    }

    public void createIndexes() {
        bookings().createIndex(Indexes.ascending("customerId"));
    }

    public Booking insert(String id, String customerId, String flightId, String segmentId, Instant when) {
        Document d = new Document("_id", id).append("customerId", customerId).append("flightId", flightId)
                .append("flightSegmentId", segmentId).append("dateOfBooking", Date.from(when));
        bookings().insertOne(d);
        return Booking.from(d);
    }

    public List<Booking> byUser(String customerId) {
        List<Booking> out = new ArrayList<>();
        bookings().find(eq("customerId", customerId)).sort(Sorts.ascending("dateOfBooking", "_id"))
                .forEach(d -> out.add(Booking.from(d)));
        return out;
    }

    /** The booking with this number if it belongs to the customer (looked up by _id alone, which every server indexes). */
    public Optional<Booking> find(String customerId, String id) {
        return Optional.ofNullable(bookings().find(eq("_id", id)).first()).map(Booking::from)
                .filter(b -> customerId.equals(b.customerId()));
    }

    /** Deletes a booking found with {@link #find}; false if it was gone already. */
    public boolean delete(String id) {
        return bookings().deleteOne(eq("_id", id)).getDeletedCount() == 1;
    }

    /** How many bookings the customer has: one {@code count} on the customerId index, no document crosses the wire. */
    public long countByUser(String customerId) {
        return bookings().countDocuments(eq("customerId", customerId));
    }

    public long count() {
        return bookings().countDocuments();
    }

    /** Drops all bookings and recreates the index; the number dropped. */
    public long clear() {
        long n = count();
        Collections.dropIfExists(db.get(), COLLECTION);
        createIndexes();
        return n;
    }
}
