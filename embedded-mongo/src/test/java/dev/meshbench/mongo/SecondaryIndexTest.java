package dev.meshbench.mongo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.backend.IndexKey;
import dev.meshbench.pki.TlsContexts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bson.Document;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("non-unique indexes of the embedded server")
class SecondaryIndexTest {
    @TempDir
    Path dir;

    static Set<Object> ids(MongoCollection<Document> c, org.bson.conversions.Bson filter) {
        return c.find(filter).into(new ArrayList<>()).stream().map(d -> d.get("_id")).collect(Collectors.toSet());
    }

    @Test
    @DisplayName("answers equality queries through the index and stays right across inserts, updates and deletes")
    void staysConsistent() {
        try (EmbeddedTlsMongo mongo = EmbeddedTlsMongo.start(EmbeddedMongoConfig.loopback(dir));
                MongoClient c = EmbeddedTlsMongoTest.client(mongo.connectionString(), TlsContexts.client(mongo.caFile(), null, null),
                        EmbeddedTlsMongoTest.aliasToLoopback(mongo.serverName()))) {
            MongoCollection<Document> coll = c.getDatabase("t").getCollection("booking");
            coll.createIndex(Indexes.ascending("customerId"));
            List<Document> docs = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                docs.add(new Document("_id", "b" + i).append("customerId", "c" + (i % 10)).append("n", i));
            }
            coll.insertMany(docs);
            assertEquals(30, ids(coll, new Document("customerId", "c3")).size());
            assertTrue(ids(coll, new Document("customerId", "c3")).contains("b13"));

            coll.updateOne(Filters.eq("_id", "b13"), Updates.set("customerId", "c4"));
            assertFalse(ids(coll, new Document("customerId", "c3")).contains("b13"));
            assertTrue(ids(coll, new Document("customerId", "c4")).contains("b13"));
            coll.updateOne(Filters.eq("_id", "b14"), Updates.set("n", -1)); // not an indexed field
            assertTrue(ids(coll, new Document("customerId", "c4")).contains("b14"));

            coll.deleteOne(Filters.eq("_id", "b23"));
            assertEquals(28, ids(coll, new Document("customerId", "c3")).size());
            coll.deleteMany(new Document("customerId", "c3"));
            assertEquals(0, ids(coll, new Document("customerId", "c3")).size());
            assertEquals(271, coll.countDocuments());

            // queries the index cannot answer still work (scan)
            assertEquals(31, ids(coll, Filters.in("customerId", "c4")).size());
            assertEquals(1, ids(coll, new Document("customerId", "c4").append("n", 4)).size());

            coll.drop();
            coll.createIndex(Indexes.ascending("customerId"));
            coll.insertOne(new Document("_id", "x").append("customerId", "c1"));
            assertEquals(Set.of("x"), ids(coll, new Document("customerId", "c1")));
        }
    }

    @Test
    @DisplayName("takes only plain equality on exactly its fields")
    void handlesOnlyPlainEquality() {
        SecondaryIndex idx = new SecondaryIndex("customerId_1", List.of(new IndexKey("customerId", true)), false);
        assertTrue(idx.canHandle(new de.bwaldvogel.mongo.bson.Document("customerId", "c1")));
        assertFalse(idx.canHandle(new de.bwaldvogel.mongo.bson.Document("customerId", new de.bwaldvogel.mongo.bson.Document("$gt", "c"))));
        assertFalse(idx.canHandle(new de.bwaldvogel.mongo.bson.Document("customerId", "c1").append("n", 1)));
        assertFalse(idx.canHandle(new de.bwaldvogel.mongo.bson.Document("customerId", null)));
        assertFalse(idx.canHandle(new de.bwaldvogel.mongo.bson.Document("n", 1)));
    }
}
