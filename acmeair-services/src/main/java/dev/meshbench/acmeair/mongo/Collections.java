package dev.meshbench.acmeair.mongo;

import com.mongodb.client.MongoDatabase;

/** Small collection helpers. */
public final class Collections {
    private Collections() {
    }

    /**
     * Drops a collection only if it exists. MongoDB ignores dropping a missing one, but mongo-java-server logs each
     * such drop as an error with a stack trace.
     */
    public static void dropIfExists(MongoDatabase db, String name) {
        for (String existing : db.listCollectionNames()) {
            if (existing.equals(name)) {
                db.getCollection(name).drop();
                return;
            }
        }
    }
}
