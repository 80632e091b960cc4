package dev.meshbench.mongo;

import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import java.util.List;

/**
 * mongo-java-server's in-memory backend with working non-unique indexes ({@link SecondaryIndex}), so that queries
 * a real MongoDB answers from an index (bookings by customer, for example) do not scan and lock a whole collection.
 */
final class IndexingMemoryBackend extends MemoryBackend {
    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new IndexingDatabase(databaseName, getCursorRegistry());
    }

    private static final class IndexingDatabase extends MemoryDatabase {
        IndexingDatabase(String name, CursorRegistry cursors) {
            super(name, cursors);
        }

        @Override
        protected Index<Integer> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
            return new SecondaryIndex(indexName, keys, sparse);
        }
    }
}
