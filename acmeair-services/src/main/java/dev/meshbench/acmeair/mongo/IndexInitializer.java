package dev.meshbench.acmeair.mongo;

import com.mongodb.MongoException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a service's indexes in the background, retrying until MongoDB answers, so a service starts (and reports
 * not-ready) instead of hanging when MongoDB is away.
 */
public final class IndexInitializer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexInitializer.class);
    private static final long RETRY_MILLIS = 2000;

    private final Thread thread;
    private final AtomicBoolean done = new AtomicBoolean();

    public IndexInitializer(String service, Runnable createIndexes) {
        this.thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    createIndexes.run();
                    done.set(true);
                    LOG.info("{}: indexes in place", service);
                    return;
                } catch (MongoException e) {
                    LOG.warn("{}: creating indexes failed, retrying in {} ms: {}", service, RETRY_MILLIS, e.getMessage());
                }
                try {
                    Thread.sleep(RETRY_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, service + "-index-initializer");
        thread.setDaemon(true);
        thread.start();
    }

    public boolean done() {
        return done.get();
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
