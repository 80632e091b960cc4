package dev.meshbench.orchestrator.latency.load;

import dev.meshbench.orchestrator.latency.load.LoadResult.Errors;
import dev.meshbench.orchestrator.latency.load.LoadResult.Latency;
import dev.meshbench.orchestrator.latency.load.LoadResult.ScheduleKeeping;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * An HTTP/1.1 load generator that does not suffer coordinated omission: one blocking keep-alive connection per
 * thread ({@link HttpConnection}), the same request again and again.
 *
 * <p><b>Closed loop</b> (no rate): every connection sends its next request as soon as it has read the previous
 * answer; latency is from the send to the end of the answer.
 *
 * <p><b>Open loop</b> (a rate): one schedule for all connections, request {@code i} due at
 * {@code start + i / rate}. A free connection takes the next ticket and sends it at its due time, or at once if it
 * is overdue; latency is from the <em>due</em> time, so a request that had to wait for a free connection carries
 * that wait (as wrk2 and HdrHistogram measure). When every connection is busy the schedule does not wait: tickets
 * pile up and are sent late, and those still unsent at the end are counted as missed. How well the schedule was
 * kept, and the rules for "fell behind", are in {@link ScheduleKeeping}.
 *
 * <p>Timing: the warm-up (if any) comes first and is left out of every figure; then {@code duration}. A request
 * belongs to the phase in which it was due (open loop) or sent (closed loop). Requests still in flight when the
 * time is up are waited for (at most the timeout) and counted; no request is started after it. In a closed loop, a
 * connection whose connect failed waits {@value #CONNECT_RETRY_PAUSE_MILLIS} ms before its next try, so a target
 * that is down does not turn into a connect storm; in an open loop the schedule alone decides.
 */
public final class LoadGenerator {
    /** A progress line about this often. */
    public static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    static final long CONNECT_RETRY_PAUSE_MILLIS = 10;
    /** Longest single park while waiting for a due time, so a stop is seen soon. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private LoadGenerator() {
    }

    /**
     * Runs {@code spec} and returns what it measured. Blocks for the warm-up plus the duration, plus whatever the
     * last requests take (at most the timeout).
     *
     * @param progress gets one line with the parameters at the start, one about every
     *                 {@link #PROGRESS_EVERY} (elapsed/total, requests, current rate, errors), and one at the end
     * @throws IllegalArgumentException a target's host cannot be resolved
     * @throws InterruptedException     interrupted: the connections are closed and nothing is returned
     */
    public static LoadResult run(LoadSpec spec, Consumer<String> progress) throws InterruptedException {
        int n = spec.targets().size();
        List<InetSocketAddress> addresses = new ArrayList<>(n);
        List<byte[]> requests = new ArrayList<>(n);
        for (URI target : spec.targets()) {
            addresses.add(HttpConnection.address(target));
            requests.add(HttpConnection.request(target, spec.method(), spec.requestBodyBytes()));
        }
        Run run = new Run(spec);
        List<ConnectionLoop> loops = new ArrayList<>(spec.connections());
        List<Thread> threads = new ArrayList<>(spec.connections());
        try {
            for (int i = 0; i < spec.connections(); i++) {
                ConnectionLoop loop = new ConnectionLoop(run,
                        new HttpConnection(addresses.get(i % n), requests.get(i % n), spec.method()));
                Thread t = new Thread(loop, "load-" + i);
                t.setDaemon(true);
                t.start();
                loops.add(loop);
                threads.add(t);
            }
        } catch (RuntimeException | Error e) {
            run.stop = true;
            run.go.countDown();
            throw e;
        }
        progress.accept("load: " + spec.describe());
        Instant startedAt = Instant.now();
        run.begin(System.nanoTime());
        run.go.countDown();
        try {
            reportUntilDone(run, progress);
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            run.stop = true;
            loops.forEach(l -> l.connection.close());
            threads.forEach(LockSupport::unpark);
            Thread.currentThread().interrupt();
            throw e;
        }
        for (int i = 0; i < loops.size(); i++) {
            if (loops.get(i).failure != null) {
                throw new IllegalStateException("load: connection " + i + " to " + spec.targetOf(i) + " failed: "
                        + loops.get(i).failure, loops.get(i).failure);
            }
        }
        LoadResult result = result(spec, run, loops, startedAt);
        progress.accept(String.format(Locale.ROOT, "load: done, %d requests in %s (%s req/s), errors: %s, latency ms %s%s",
                result.requests(), Figures.seconds(result.elapsed()), Figures.number(result.achievedRate()),
                result.errors().describe(), result.latency().describe(),
                result.schedule().map(s -> s.fellBehind() ? "; FELL BEHIND: " + s.reason() : "; " + s.reason()).orElse("")));
        return result;
    }

    private static void reportUntilDone(Run run, Consumer<String> progress) throws InterruptedException {
        long every = PROGRESS_EVERY.toNanos();
        long next = run.start + every;
        long lastCount = 0;
        long lastTime = run.start;
        double total = (run.end - run.start) / 1e9;
        while (!run.done.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            long now = System.nanoTime();
            long count = run.ended.sum();
            double window = (now - lastTime) / 1e9;
            String phase = now < run.measureFrom ? " (warm-up)" : now >= run.end ? " (last answers)" : "";
            progress.accept(String.format(Locale.ROOT, "load: %.1f/%s s%s, %d requests, %s req/s in the last %.1f s, %d errors",
                    (now - run.start) / 1e9, Figures.number(total), phase, count,
                    Figures.number((count - lastCount) / window), window, run.failed.sum()));
            lastCount = count;
            lastTime = now;
            next += every;
        }
    }

    private static LoadResult result(LoadSpec spec, Run run, List<ConnectionLoop> loops, Instant startedAt) {
        Histogram latency = new Histogram(LoadResult.SIGNIFICANT_DIGITS);
        Histogram service = new Histogram(LoadResult.SIGNIFICANT_DIGITS);
        TreeMap<Integer, Long> byStatus = new TreeMap<>();
        long requests = 0;
        long ok = 0;
        long connect = 0;
        long timeout = 0;
        long io = 0;
        long late = 0;
        long maxLag = 0;
        long lastEnd = run.end;
        for (ConnectionLoop l : loops) {
            latency.add(l.latency);
            service.add(l.service);
            l.byStatus.forEach((status, count) -> byStatus.merge(status, count, Long::sum));
            requests += l.requests;
            ok += l.ok;
            connect += l.connect;
            timeout += l.timeout;
            io += l.io;
            late += l.lateSends;
            maxLag = Math.max(maxLag, l.maxLagNanos);
            lastEnd = Math.max(lastEnd, l.lastEnd);
        }
        Duration elapsed = Duration.ofNanos(lastEnd - run.measureFrom);
        double rate = requests / (elapsed.toNanos() / 1e9);
        Optional<ScheduleKeeping> schedule = Optional.empty();
        if (spec.openLoop()) {
            long scheduled = run.dueBefore(run.end) - run.dueBefore(run.measureFrom);
            schedule = Optional.of(ScheduleKeeping.judge(spec.ratePerSecond().getAsDouble(), scheduled, requests, late,
                    run.lateThresholdNanos / 1e6, Math.round(maxLag / 1e3) / 1e3, rate));
        }
        return new LoadResult(spec, startedAt, elapsed, requests, ok, new Errors(byStatus, connect, timeout, io), rate,
                Latency.of(latency), Latency.of(service), schedule, LoadResult.encode(latency), LoadResult.encode(service));
    }

    /** What all connections share: the clock, the schedule, live counters for progress, the stop flag. */
    private static final class Run {
        final LoadSpec spec;
        final long timeoutNanos;
        final double periodNanos;
        final long lateThresholdNanos;
        final AtomicLong nextTicket = new AtomicLong();
        final LongAdder ended = new LongAdder();
        final LongAdder failed = new LongAdder();
        final CountDownLatch go = new CountDownLatch(1);
        final CountDownLatch done;
        volatile boolean stop;
        /** Set before {@link #go} opens; read by the connections after. */
        long start;
        long measureFrom;
        long end;

        Run(LoadSpec spec) {
            this.spec = spec;
            this.timeoutNanos = spec.timeout().toNanos();
            this.periodNanos = spec.openLoop() ? 1e9 / spec.ratePerSecond().getAsDouble() : 0;
            this.lateThresholdNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), (long) periodNanos);
            this.done = new CountDownLatch(spec.connections());
        }

        void begin(long now) {
            start = now;
            measureFrom = now + spec.warmup().toNanos();
            end = measureFrom + spec.duration().toNanos();
        }

        long dueTime(long ticket) {
            return start + (long) (ticket * periodNanos);
        }

        /** How many tickets are due before {@code t}. */
        long dueBefore(long t) {
            if (t <= start) {
                return 0;
            }
            long i = (long) Math.ceil((t - start) / periodNanos);
            while (i > 0 && dueTime(i - 1) >= t) {
                i--;
            }
            while (dueTime(i) < t) {
                i++;
            }
            return i;
        }
    }

    /** One connection's thread: its loop, and its own counters and histograms (merged when all have ended). */
    private static final class ConnectionLoop implements Runnable {
        final Run run;
        final HttpConnection connection;
        final Histogram latency = new Histogram(LoadResult.SIGNIFICANT_DIGITS);
        final Histogram service = new Histogram(LoadResult.SIGNIFICANT_DIGITS);
        final TreeMap<Integer, Long> byStatus = new TreeMap<>();
        long requests;
        long ok;
        long connect;
        long timeout;
        long io;
        long lateSends;
        long maxLagNanos;
        long lastEnd;
        Throwable failure;

        ConnectionLoop(Run run, HttpConnection connection) {
            this.run = run;
            this.connection = connection;
        }

        @Override
        public void run() {
            try {
                run.go.await();
                if (run.spec.openLoop()) {
                    openLoop();
                } else {
                    closedLoop();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException | Error e) {
                failure = e;
            } finally {
                connection.close();
                run.done.countDown();
            }
        }

        private void closedLoop() {
            while (!run.stop) {
                long sent = System.nanoTime();
                if (sent >= run.end) {
                    return;
                }
                int outcome = connection.exchange(sent + run.timeoutNanos);
                record(sent, sent, outcome, sent >= run.measureFrom);
                if (outcome == HttpConnection.CONNECT_FAILED) {
                    sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_RETRY_PAUSE_MILLIS));
                }
            }
        }

        private void openLoop() {
            while (!run.stop) {
                long due = run.dueTime(run.nextTicket.getAndIncrement());
                if (due >= run.end) {
                    return;
                }
                sleepUntil(due);
                long sent = System.nanoTime();
                if (sent >= run.end || run.stop) {
                    return; // overdue at the end: missed
                }
                int outcome = connection.exchange(sent + run.timeoutNanos);
                boolean measured = due >= run.measureFrom;
                if (measured) {
                    long lag = sent - due;
                    if (lag > run.lateThresholdNanos) {
                        lateSends++;
                    }
                    maxLagNanos = Math.max(maxLagNanos, lag);
                }
                record(due, sent, outcome, measured);
            }
        }

        private void record(long from, long sent, int outcome, boolean measured) {
            long now = System.nanoTime();
            boolean success = outcome >= 200 && outcome < 300;
            run.ended.increment();
            if (!success) {
                run.failed.increment();
            }
            if (!measured) {
                return;
            }
            requests++;
            lastEnd = now;
            if (outcome >= 0) {
                latency.recordValue(Math.max(0, (now - from) / 1000));
                service.recordValue(Math.max(0, (now - sent) / 1000));
                if (success) {
                    ok++;
                } else {
                    byStatus.merge(outcome, 1L, Long::sum);
                }
            } else if (outcome == HttpConnection.CONNECT_FAILED) {
                connect++;
            } else if (outcome == HttpConnection.TIMED_OUT) {
                timeout++;
            } else {
                io++;
            }
        }

        private void sleepUntil(long deadline) {
            long left;
            while ((left = deadline - System.nanoTime()) > 0 && !run.stop) {
                LockSupport.parkNanos(Math.min(left, MAX_PARK_NANOS));
            }
        }
    }
}
