package dev.meshbench.orchestrator.local;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.lifetime.Lifeline;
import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts component processes, waits for their ready lines, notices when one dies, and stops them all in
 * reverse start order on {@link #close()}, on a JVM shutdown (Ctrl-C) and, through the {@link Lifeline}, even when
 * this JVM is killed outright. Given {@link ComponentCgroups}, each component's processes run in its own cgroup,
 * joined before its program starts, and the group is removed whenever the component is stopped.
 */
public final class ProcessSupervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessSupervisor.class);

    private final Path logDir;
    private final Path ledger;
    private final long stopGraceMillis;
    private final Optional<ComponentCgroups> cgroups;
    private final List<ManagedProcess> processes = Collections.synchronizedList(new ArrayList<>());
    private final Thread shutdownHook;
    private volatile boolean closed;

    public ProcessSupervisor(Path logDir, Duration stopGrace) {
        this(logDir, stopGrace, null);
    }

    /**
     * @param ledger a work folder of {@code WorkFolders} where the process groups started are recorded for
     *               {@code Leftovers}, or {@code null}
     */
    public ProcessSupervisor(Path logDir, Duration stopGrace, Path ledger) {
        this(logDir, stopGrace, ledger, Optional.empty());
    }

    /**
     * @param ledger  as above, or {@code null}
     * @param cgroups the groups each component runs in, or empty: its CPU is then sampled from {@code /proc}
     */
    public ProcessSupervisor(Path logDir, Duration stopGrace, Path ledger, Optional<ComponentCgroups> cgroups) {
        this.logDir = logDir;
        this.cgroups = cgroups;
        this.ledger = ledger;
        this.stopGraceMillis = stopGrace.toMillis();
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new TargetException("creating log directory " + logDir + " failed: " + e.getMessage(), e);
        }
        this.shutdownHook = new Thread(this::stopAll, "meshbench-supervisor-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a process and waits for its ready line.
     *
     * @throws TargetException naming the component when it exits first, prints no ready line in time, or cannot
     *                         be started at all; the process is stopped in every such case
     */
    public ReadyLine start(ProcessSpec spec, Duration readyTimeout) {
        if (closed) {
            throw new TargetException("cannot start " + spec.component().name() + ": supervisor already closed");
        }
        String name = spec.component().name();
        Path log = logDir.resolve(name + ".log");
        List<String> command;
        try {
            command = cgroups.map(c -> c.enter(name, spec.command())).orElse(spec.command());
        } catch (TargetException e) {
            release(name);
            throw new TargetException("starting " + name + " failed: " + e.getMessage(), e);
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        LOG.debug("starting {}: {}", name, String.join(" ", command));
        ManagedProcess mp;
        try {
            mp = new ManagedProcess(spec.component(), Lifeline.start(pb, ledger), log);
        } catch (IOException e) {
            release(name);
            throw new TargetException("starting " + name + " failed: " + e.getMessage(), e);
        }
        processes.add(mp);
        AtomicReference<String> lastUnmet = new AtomicReference<>(); // what a Polled check last found missing
        try {
            ReadyLine line;
            if (spec.readiness() instanceof ProcessSpec.Readiness.HttpOk r) {
                line = probe(mp, readyTimeout, () -> Probes.httpOk(r.uri()),
                        ReadyLine.of(name, "address", r.uri().getHost() + ":" + r.uri().getPort(), "ready", r.uri().getPath()));
            } else if (spec.readiness() instanceof ProcessSpec.Readiness.Polled r) {
                line = probe(mp, readyTimeout, () -> {
                    Optional<String> missing = r.unmet().get();
                    missing.ifPresent(lastUnmet::set);
                    return missing.isEmpty();
                }, ReadyLine.of(name, "address", r.address(), "ready", r.what()));
            } else if (spec.readiness() instanceof ProcessSpec.Readiness.PortOpen r) {
                line = probe(mp, readyTimeout, () -> Probes.portOpen(r.host(), r.port()), ReadyLine.of(name, "address", r.host() + ":" + r.port()));
            } else {
                line = mp.ready().get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            LOG.debug("{} ready (pid {}): {}", name, mp.pid(), line);
            return line;
        } catch (ExecutionException e) {
            stop(mp);
            throw new TargetException("starting " + name + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            stop(mp);
            throw new TargetException("starting " + name + " failed: not ready after " + readyTimeout.toSeconds()
                    + " s" + (lastUnmet.get() == null ? "" : " (" + lastUnmet.get() + ")") + "; last output: " + mp.lastWords() + " (log: " + log + ")");
        } catch (InterruptedException e) {
            stop(mp);
            Thread.currentThread().interrupt();
            throw new TargetException("starting " + name + " interrupted");
        }
    }

    /**
     * Polls a readiness probe until it passes; fails as soon as the process exits (with its last words) or the
     * timeout passes.
     */
    private static ReadyLine probe(ManagedProcess mp, Duration timeout, Probes.Probe probe, ReadyLine line)
            throws ExecutionException, TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (mp.ready().isCompletedExceptionally()) {
                mp.ready().get(); // throws the exit described by the output pump
            }
            if (probe.passes()) {
                mp.ready().complete(line);
                return line;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException();
            }
            Thread.sleep(100);
        }
    }

    /**
     * Starts several processes at once and waits for all their ready lines; if one fails, all of them are stopped
     * and the first failure is thrown.
     */
    public Map<String, ReadyLine> startAll(List<ProcessSpec> specs, Duration readyTimeout) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(specs.size());
        try {
            Map<String, java.util.concurrent.Future<ReadyLine>> futures = new java.util.LinkedHashMap<>();
            for (ProcessSpec spec : specs) {
                futures.put(spec.component().name(), pool.submit(() -> start(spec, readyTimeout)));
            }
            Map<String, ReadyLine> out = new java.util.LinkedHashMap<>();
            TargetException first = null;
            for (var e : futures.entrySet()) {
                try {
                    out.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException ex) {
                    if (first == null) {
                        first = ex.getCause() instanceof TargetException te ? te
                                : new TargetException("starting " + e.getKey() + " failed: " + ex.getCause(), ex.getCause());
                    }
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new TargetException("starting " + futures.keySet() + " interrupted");
                }
            }
            if (first != null) {
                for (ProcessSpec spec : specs) {
                    stop(spec.component().name());
                }
                throw first;
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The processes started so far, in start order. */
    public List<ManagedProcess> processes() {
        synchronized (processes) {
            return List.copyOf(processes);
        }
    }

    /** The first component that exited without being asked to, described for a person. */
    public Optional<String> deadComponent() {
        for (ManagedProcess p : processes()) {
            if (!p.isAlive() && !p.stopping() && !closed) {
                return Optional.of(p.deathNotice());
            }
        }
        return Optional.empty();
    }

    /**
     * CPU time of everything that ran in {@code componentName}'s cgroup, nanoseconds: the kernel's count, children
     * that exited included; empty without cgroups or once the component was stopped.
     */
    public OptionalLong cgroupCpuNanos(String componentName) {
        return cgroups.map(c -> c.usageNanos(componentName)).orElse(OptionalLong.empty());
    }

    /** How each component's CPU is measured: its cgroup's count, or samples of its process tree from {@code /proc}. */
    public CpuMethod cpuMethod() {
        return cgroups.map(ComponentCgroups::method).orElse(CpuMethod.PROC_SAMPLED);
    }

    /** Stops one component (for fault tests and restarts). */
    public void stop(String componentName) {
        processes().stream().filter(p -> p.component().name().equals(componentName)).forEach(this::stop);
    }

    /** Stops {@code p} and its children, then removes its cgroup. */
    private void stop(ManagedProcess p) {
        p.stop(stopGraceMillis);
        release(p.component().name());
    }

    private void release(String componentName) {
        cgroups.ifPresent(c -> c.release(componentName));
    }

    private void stopAll() {
        List<ManagedProcess> all = processes();
        for (int i = all.size() - 1; i >= 0; i--) {
            ManagedProcess p = all.get(i);
            if (p.isAlive()) {
                LOG.debug("stopping {} (pid {})", p.component().name(), p.pid());
            }
            stop(p);
        }
        cgroups.ifPresent(ComponentCgroups::close);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or ran
        }
    }
}
