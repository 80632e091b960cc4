package dev.meshbench.acmeair.graph;

import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The graph-node command line, checked for form only (the graph is not read yet); {@link GraphNodeConfig#of} checks it
 * against the graph.
 *
 * @param graph          the graph file
 * @param service        which service of the graph this process is
 * @param host           address to bind
 * @param port           port to bind, 0 for a free one
 * @param calls          callee name to its URLs (round-robin), as given by {@code --call}; callees not listed are
 *                       reached at {@code http://<callee>:8080/}
 * @param pauseEvery     every this many requests, one waits {@code pauseMs} before it answers; 0 for never
 * @param pauseMs        how long that request waits
 * @param exitOnStdinEof exit when the parent closes stdin
 */
public record GraphNodeOptions(Path graph, String service, String host, int port, Map<String, List<URI>> calls, int pauseEvery,
        long pauseMs, boolean exitOnStdinEof) {

    public GraphNodeOptions {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(host, "host");
        Map<String, List<URI>> copy = new LinkedHashMap<>();
        calls.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        calls = Collections.unmodifiableMap(copy);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port " + port + " must be between 0 and 65535");
        }
        if (pauseEvery < 0 || pauseMs < 0) {
            throw new IllegalArgumentException("--pause-every and --pause-ms must not be negative");
        }
    }
}
