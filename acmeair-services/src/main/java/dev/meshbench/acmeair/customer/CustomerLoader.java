package dev.meshbench.acmeair.customer;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Replaces the customer collection with {@code n} generated customers (see {@link CustomerGenerator}). */
public final class CustomerLoader {
    public static final long DEFAULT_SEED = 42;
    private static final Logger LOG = LoggerFactory.getLogger(CustomerLoader.class);
    private static final int BATCH = 1000;

    private final CustomerRepository repo;

    public CustomerLoader(CustomerRepository repo) {
        this.repo = repo;
    }

    public Map<String, Object> load(int n, long seed) {
        long start = System.nanoTime();
        repo.replaceAll(CustomerGenerator.customers(seed, n), BATCH);
        repo.createIndexes();
        long millis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("loaded {} customers (seed {}) in {} ms", n, seed, millis);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("customers", n);
        body.put("seed", seed);
        body.put("millis", millis);
        return body;
    }
}
