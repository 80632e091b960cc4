package dev.meshbench.acmeair.graph;

import dev.meshbench.graph.Step;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a service's script for one request: steps in order, a concurrent group's calls all sent at once while the
 * thread sleeps the group's longest sleep, then waits for every call of the group. The first failed call ends the
 * script. Everything a request needs (requests, bodies) is built once, here.
 */
final class ScriptRunner {
    /** One step, ready to run; {@code null} on success, else what failed. */
    private interface Action {
        String run() throws InterruptedException;
    }

    private final Action[] actions;

    ScriptRunner(GraphNodeConfig config, HttpClient http, MeterRegistry registry) {
        Map<String, CalleeClient> clients = new LinkedHashMap<>();
        config.callees().forEach((callee, urls) -> clients.put(callee, new CalleeClient(callee, urls, http, registry)));
        Map<Long, byte[]> bodies = new HashMap<>();
        List<Action> list = new ArrayList<>();
        for (Step step : config.service().script()) {
            if (step instanceof Step.Call call) {
                CalleeClient.Prepared p = prepare(call, config, clients, bodies);
                list.add(p::send);
            } else if (step instanceof Step.Sleep sleep) {
                long nanos = sleep.duration().toNanos();
                list.add(() -> sleep(nanos));
            } else if (step instanceof Step.Concurrent group) {
                List<CalleeClient.Prepared> calls = new ArrayList<>();
                long longestSleep = 0;
                for (Step s : group.steps()) {
                    if (s instanceof Step.Call call) {
                        calls.add(prepare(call, config, clients, bodies));
                    } else if (s instanceof Step.Sleep sleep) {
                        longestSleep = Math.max(longestSleep, sleep.duration().toNanos());
                    }
                }
                list.add(group(calls.toArray(new CalleeClient.Prepared[0]), longestSleep));
            }
        }
        this.actions = list.toArray(new Action[0]);
    }

    private static CalleeClient.Prepared prepare(Step.Call call, GraphNodeConfig config, Map<String, CalleeClient> clients,
            Map<Long, byte[]> bodies) {
        long size = config.graph().requestSize(call);
        byte[] body = bodies.computeIfAbsent(size, s -> Payload.of(Math.toIntExact(s)));
        return clients.get(call.service()).prepare(body);
    }

    private static Action group(CalleeClient.Prepared[] calls, long sleepNanos) {
        return () -> {
            List<CompletableFuture<String>> pending = new ArrayList<>(calls.length);
            for (CalleeClient.Prepared c : calls) {
                pending.add(c.sendAsync());
            }
            sleep(sleepNanos);
            String failure = null;
            for (CompletableFuture<String> f : pending) {
                String r = f.join();
                if (failure == null) {
                    failure = r;
                }
            }
            return failure;
        };
    }

    private static String sleep(long nanos) throws InterruptedException {
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
        return null;
    }

    /** Runs the script; {@code null} when every step succeeded, else what failed first. */
    String run() throws InterruptedException {
        for (Action a : actions) {
            String failure = a.run();
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }
}
