package dev.meshbench.graph;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One service of a {@link ServiceGraph}, with the graph's defaults already applied.
 *
 * @param name         DNS label (lower-case letters, digits, '-'): also the Kubernetes Service name callers use
 * @param entrypoint   whether clients outside the graph call it ({@code isEntrypoint})
 * @param replicas     instances to run, at least 1
 * @param requestSize  bytes a caller sends by default when it calls this service
 * @param responseSize bytes of body this service answers with
 * @param errorRate    fraction of requests answered with 500, from 0 to 1
 * @param script       what one request does, in order
 */
public record GraphService(String name, boolean entrypoint, int replicas, long requestSize, long responseSize, double errorRate,
        List<Step> script) {

    public GraphService {
        Objects.requireNonNull(name, "name");
        script = List.copyOf(script);
        if (replicas < 1) {
            throw new IllegalArgumentException(name + ": replicas " + replicas + " must be at least 1");
        }
        if (requestSize < 0 || responseSize < 0) {
            throw new IllegalArgumentException(name + ": sizes must not be negative");
        }
        if (!(errorRate >= 0 && errorRate <= 1)) {
            throw new IllegalArgumentException(name + ": errorRate " + errorRate + " must be between 0 and 1");
        }
    }

    /** The services this one calls, each once, in the order of their first call in the script. */
    public List<String> callees() {
        Set<String> names = new LinkedHashSet<>();
        for (Step.Call c : calls()) {
            names.add(c.service());
        }
        return List.copyOf(names);
    }

    /** Every call of the script, those inside concurrent groups included, in script order. */
    public List<Step.Call> calls() {
        List<Step.Call> calls = new ArrayList<>();
        for (Step s : script) {
            if (s instanceof Step.Call c) {
                calls.add(c);
            } else if (s instanceof Step.Concurrent g) {
                for (Step inner : g.steps()) {
                    if (inner instanceof Step.Call c) {
                        calls.add(c);
                    }
                }
            }
        }
        return calls;
    }
}
