package dev.meshbench.orchestrator.latency;

import dev.meshbench.graph.GraphException;
import dev.meshbench.graph.GraphService;
import dev.meshbench.graph.ServiceGraph;
import dev.meshbench.graph.ServiceGraphReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds and reads the service graphs a latency run names ({@code meshbench.latency.graphs}): a shipped graph by name
 * ({@code istio-config/latency/graphs/<name>.yaml} of the checkout), or the user's file by path; the graph's name
 * is the file's base name. A graph that does not parse is refused with its file, line and reason before anything
 * starts.
 */
public final class GraphFiles {
    /** Where the shipped graphs are, relative to the checkout. */
    public static final Path SHIPPED = Path.of("istio-config", "latency", "graphs");
    /** The folder's kustomization (it makes the graphs' ConfigMap), not a graph. */
    private static final String KUSTOMIZATION = "kustomization.yaml";

    /** A graph file and what the planner needs of it. */
    public record Graph(Path file, ServiceGraph graph, GraphShape shape) {
    }

    private GraphFiles() {
    }

    public static Graph resolve(String nameOrPath, Path projectRoot) {
        boolean isPath = nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml") || nameOrPath.contains("/");
        Path file = isPath ? Path.of(nameOrPath).toAbsolutePath() : projectRoot.resolve(SHIPPED).resolve(nameOrPath + ".yaml");
        if (!Files.isRegularFile(file) || (!isPath && file.getFileName().toString().equals(KUSTOMIZATION))) {
            throw new IllegalArgumentException(LatencySettings.P_GRAPHS + ": " + (isPath ? "no graph file " + file
                    : "no shipped graph named '" + nameOrPath + "' (shipped: " + String.join(", ", shipped(projectRoot))
                            + "; or give the path of a .yaml file)"));
        }
        String name = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        ServiceGraph graph;
        try {
            graph = ServiceGraphReader.read(file);
        } catch (GraphException e) {
            throw new IllegalArgumentException("graph " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("reading graph " + file + " failed: " + e.getMessage(), e);
        }
        try {
            return new Graph(file, graph, shape(name, graph));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The planner's view: services callees first, who calls whom, the one entrypoint. */
    public static GraphShape shape(String name, ServiceGraph graph) {
        List<GraphService> entries = graph.entrypoints();
        if (entries.size() != 1) {
            throw new IllegalArgumentException("the latency study sends to one entrypoint; graph " + name + " has "
                    + entries.stream().map(GraphService::name).toList());
        }
        Map<String, List<String>> calls = new LinkedHashMap<>();
        for (String s : graph.names()) {
            calls.put(s, graph.callees(s));
        }
        List<String> order = new ArrayList<>();
        for (String s : graph.names()) {
            visit(s, calls, order); // the reader refused cycles
        }
        return new GraphShape(name, order, calls, entries.get(0).name());
    }

    private static void visit(String s, Map<String, List<String>> calls, List<String> order) {
        if (order.contains(s)) {
            return;
        }
        for (String callee : calls.getOrDefault(s, List.of())) {
            visit(callee, calls, order);
        }
        order.add(s);
    }

    private static List<String> shipped(Path projectRoot) {
        try (Stream<Path> s = Files.list(projectRoot.resolve(SHIPPED))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml") && !n.equals(KUSTOMIZATION)).map(n -> n.replaceFirst("\\.yaml$", "")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
