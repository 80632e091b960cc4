package dev.meshbench.acmeair.customer;

import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Updates;
import dev.meshbench.acmeair.mongo.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;

/** The {@code customer} collection: {@code {_id: "uidN@email.com", password, status, total_miles, miles_ytd, address, phoneNumber, phoneNumberType}}. */
public final class CustomerRepository {
    public static final String COLLECTION = "customer";

    /** The database of the client in use, read for every operation: a MongoDB switch applies to the next one. */
    private final Supplier<MongoDatabase> db;

    public CustomerRepository(Supplier<MongoDatabase> db) {
        this.db = db;
    }

    MongoCollection<Document> customers() {
        return db.get().getCollection(COLLECTION);
    }

    /** Customers are found by {@code _id} only, which every MongoDB indexes; nothing else to create. */
    public void createIndexes() {
        customers().countDocuments(); // touches the server, so a missing MongoDB is noticed here too
    }

    public Optional<Customer> find(String id) {
        return Optional.ofNullable(customers().find(eq("_id", id)).first()).map(Customer::from);
    }

    /** A customer's miles, as {@link #findMiles} reads them. */
    public record MilesBalance(long totalMiles, long milesYtd) {
    }

    /**
     * Only the customer's {@code total_miles} and {@code miles_ytd} (a projection: the rest of the profile stays on the
     * server); empty when the customer does not exist.
     */
    public Optional<MilesBalance> findMiles(String id) {
        Document d = customers().find(eq("_id", id))
                .projection(new Document("total_miles", 1).append("miles_ytd", 1)).first();
        return Optional.ofNullable(d)
                .map(m -> new MilesBalance(Customer.number(m, "total_miles"), Customer.number(m, "miles_ytd")));
    }

    /** True when the customer exists and the password matches. */
    public boolean credentialsMatch(String id, String password) {
        Document d = customers().find(eq("_id", id)).projection(new Document("password", 1)).first();
        return d != null && password.equals(d.getString("password"));
    }

    /**
     * Applies the changes; empty when the customer does not exist. Three commands, as the original customer
     * service's profile update (find, update, find again for the latest document), so a profile update costs
     * MongoDB what it costs in the study; no changes: one find.
     */
    public Optional<Customer> update(String id, List<Bson> changes) {
        if (changes.isEmpty()) {
            return find(id);
        }
        if (find(id).isEmpty()) {
            return Optional.empty();
        }
        customers().updateOne(eq("_id", id), Updates.combine(changes));
        return find(id);
    }

    /**
     * Adds miles to total_miles and miles_ytd (negative removes them); the updated customer, or empty if unknown.
     * Two commands, as the original's {@code updateCustomerTotalMiles} (which reads, then writes the sum): here an
     * atomic {@code $inc}, then a read of the result, so concurrent updates of one customer are never lost.
     */
    public Optional<Customer> addMiles(String id, long miles) {
        if (customers().updateOne(eq("_id", id), Updates.combine(Updates.inc("total_miles", miles), Updates.inc("miles_ytd", miles)))
                .getMatchedCount() == 0) {
            return Optional.empty();
        }
        return find(id);
    }

    public long count() {
        return customers().countDocuments();
    }

    /** Drops the collection and inserts the given documents in batches. */
    public void replaceAll(Iterable<Document> docs, int batchSize) {
        Collections.dropIfExists(db.get(), COLLECTION);
        java.util.ArrayList<Document> batch = new java.util.ArrayList<>(batchSize);
        for (Document d : docs) {
            batch.add(d);
            if (batch.size() == batchSize) {
                customers().insertMany(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            customers().insertMany(batch);
        }
    }
}
