package dev.meshbench.acmeair.booking;

import dev.meshbench.acmeair.peer.CustomerClient;
import dev.meshbench.acmeair.peer.FlightClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds a booking's reward miles to its customer, or takes a cancelled booking's back: per segment (leg), as the
 * original's {@code RewardTracker.updateRewardMiles}, asks flight for the segment's miles
 * ({@code POST /flight/getrewardmiles}) and tells customer ({@code POST /customer/internal/updateCustomerTotalMiles/{id}}),
 * so a round trip makes two of each.
 *
 * <p>Asynchronous (the original Acmeair booking service's way, and the default): the caller's request is answered
 * first and the update runs on one of {@link #THREADS} background threads; a failed update is logged and counted
 * ({@code acmeair.rewards.updates{outcome=failed}}), never reported to the client, as in the original. When more
 * than {@link #QUEUE} updates wait, the caller runs its own: back-pressure, so the deferred work stays under a
 * second and a load step's counters and CPU include the reward work its requests caused (a deep queue would move
 * that work past the step and flatter the step's figures). {@code acmeair.rewards.queued} shows the backlog.
 * Synchronous: the update runs before the answer and its failure is the request's.
 */
public final class RewardsUpdater implements AutoCloseable {
    static final int THREADS = 8;
    static final int QUEUE = 100;
    private static final Logger LOG = LoggerFactory.getLogger(RewardsUpdater.class);

    private final FlightClient flights;
    private final CustomerClient customers;
    private final ThreadPoolExecutor executor;
    private final Counter ok;
    private final Counter failed;

    public RewardsUpdater(FlightClient flights, CustomerClient customers, boolean async, MeterRegistry registry) {
        this.flights = flights;
        this.customers = customers;
        this.ok = Counter.builder("acmeair.rewards.updates").tag("outcome", "ok").register(registry);
        this.failed = Counter.builder("acmeair.rewards.updates").tag("outcome", "failed").register(registry);
        if (async) {
            AtomicInteger n = new AtomicInteger();
            executor = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
                Thread t = new Thread(r, "rewards-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.CallerRunsPolicy());
            io.micrometer.core.instrument.Gauge.builder("acmeair.rewards.queued", executor, e -> e.getQueue().size())
                    .description("reward-miles updates waiting for a background thread").register(registry);
        } else {
            executor = null;
        }
    }

    /**
     * Adds ({@code sign} 1) or removes ({@code sign} -1) the miles of {@code segmentIds} for {@code customerId}, one
     * segment after the other (a failure stops the rest; counted per segment in {@code acmeair.rewards.updates}).
     * Synchronous: returns when done, throwing what the peers answered. Asynchronous: returns at once.
     */
    public void update(String customerId, List<String> segmentIds, int sign) {
        if (executor == null) {
            apply(customerId, segmentIds, sign);
            return;
        }
        executor.execute(() -> {
            try {
                apply(customerId, segmentIds, sign);
            } catch (RuntimeException e) {
                LOG.warn("updating the reward miles of {} for segments {} failed: {}", customerId, segmentIds, e.getMessage());
            }
        });
    }

    private void apply(String customerId, List<String> segmentIds, int sign) {
        for (String seg : segmentIds) {
            try {
                customers.addMiles(customerId, sign * flights.rewardMiles(seg));
                ok.increment();
            } catch (RuntimeException e) {
                failed.increment();
                throw e;
            }
        }
    }

    /** Lets queued updates finish (up to 10 s), then stops the threads. */
    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("{} reward-miles updates were still queued at shutdown and are dropped", executor.getQueue().size());
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
