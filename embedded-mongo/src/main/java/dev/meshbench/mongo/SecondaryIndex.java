package dev.meshbench.mongo;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A non-unique index for the in-memory backend, which on its own accepts such indexes but ignores them (every query
 * that is not on a unique key then scans the collection under its lock). It answers equality queries whose top-level
 * fields are exactly the index's fields with plain values ({@code {customerId: "uid1@email.com"}}); anything else
 * (operators, regular expressions, null, arrays, sub-documents) is left to the backend's scan. The backend re-checks
 * every document it gets from here against the whole query, so the index only has to return a superset.
 *
 * <p>Positions are remembered per {@code _id}, because the backend removes documents from every index by document
 * and expects each index to name the same position.
 */
final class SecondaryIndex extends Index<Integer> {
    private final Map<KeyValue, Set<Integer>> positionsByKey = new HashMap<>();
    private final Map<Object, Integer> positionsById = new HashMap<>();

    SecondaryIndex(String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
    }

    @Override
    public synchronized Integer getPosition(Document document) {
        return positionsById.get(document.get("_id"));
    }

    @Override
    public void checkAdd(Document document, MongoCollection<Integer> collection) {
        // not unique: nothing can conflict
    }

    @Override
    public synchronized void add(Document document, Integer position, MongoCollection<Integer> collection) {
        Set<KeyValue> values = keyValues(document);
        if (values.isEmpty()) {
            return;
        }
        positionsById.put(document.get("_id"), position);
        for (KeyValue kv : values) {
            positionsByKey.computeIfAbsent(kv, k -> new LinkedHashSet<>()).add(position);
        }
    }

    @Override
    public synchronized Integer remove(Document document) {
        Integer position = positionsById.remove(document.get("_id"));
        if (position != null) {
            for (KeyValue kv : keyValues(document)) {
                Set<Integer> s = positionsByKey.get(kv);
                if (s != null) {
                    s.remove(position);
                    if (s.isEmpty()) {
                        positionsByKey.remove(kv);
                    }
                }
            }
        }
        return position;
    }

    @Override
    public synchronized boolean canHandle(Document query) {
        if (!query.keySet().equals(keySet())) {
            return false;
        }
        for (Object v : query.values()) {
            if (v == null || v instanceof Document || v instanceof Collection || v instanceof Pattern || v instanceof Map) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized Iterable<Integer> getPositions(Document query) {
        List<Object> values = new ArrayList<>();
        for (String k : keys()) {
            values.add(query.get(k));
        }
        Set<Integer> s = positionsByKey.get(new KeyValue(values).normalized());
        return s == null ? List.of() : List.copyOf(s);
    }

    @Override
    public synchronized long getCount() {
        return positionsById.size();
    }

    @Override
    public long getDataSize() {
        return getCount();
    }

    @Override
    public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Integer> collection) {
        // not unique: nothing can conflict
    }

    @Override
    public synchronized void updateInPlace(Document oldDocument, Document newDocument, Integer position,
            MongoCollection<Integer> collection) {
        remove(oldDocument);
        add(newDocument, position, collection);
    }

    @Override
    public synchronized void drop() {
        positionsByKey.clear();
        positionsById.clear();
    }

    /** The document's index keys, normalised; none for a sparse index when the document has none of the fields. */
    private Set<KeyValue> keyValues(Document document) {
        if (isSparse() && keys().stream().noneMatch(document::containsKey)) {
            return Set.of();
        }
        Set<KeyValue> out = new LinkedHashSet<>();
        for (KeyValue kv : getKeyValues(document)) {
            out.add(kv.normalized());
        }
        return out;
    }
}
