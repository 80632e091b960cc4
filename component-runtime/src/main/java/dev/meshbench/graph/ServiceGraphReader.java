package dev.meshbench.graph;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a service graph file into a {@link ServiceGraph}:
 *
 * <pre>
 * apiVersion: v1alpha1
 * kind: MockServiceGraph
 * defaults:                    # optional; these are the defaults of the defaults
 *   requestSize: 0 B
 *   responseSize: 0 B
 *   errorRate: 0%
 *   replicas: 1
 * services:
 *   - name: frontend           # a DNS label: lower-case letters, digits, '-'
 *     isEntrypoint: true       # default false; at least one service must be an entrypoint
 *     responseSize: 1 KB
 *     script:
 *       - call: backend                          # POST with backend's requestSize
 *       - call: {service: backend, size: 10 KB}  # POST with 10 KB
 *       - sleep: 10ms
 *       - - call: a                              # a list of steps: run concurrently, wait for all
 *         - sleep: 1s
 *   - name: backend
 * </pre>
 *
 * <ul>
 *   <li>Sizes: a whole number and a unit, {@code B}, {@code KB} or {@code MB}, where 1 KB = 1024 B and 1 MB = 1024 KB
 *       (the space is optional), or a bare whole number of bytes; at most 1024 MB.</li>
 *   <li>Durations: a number (decimals allowed) and a unit, {@code ns}, {@code us} (or {@code µs}), {@code ms},
 *       {@code s}, {@code m}, {@code h}: {@code 250us}, {@code 1.5s}; rounded to the nanosecond.</li>
 *   <li>Error rates: a percentage ({@code 0.01%}) or a fraction ({@code 0.0001}), from 0 to 100%.</li>
 * </ul>
 *
 * <p>Refused, each as a {@link GraphException} naming the file, the line and the reason: invalid YAML; unknown keys
 * (at the top level, in {@code defaults}, in a service, in a call), or a key given twice; a wrong or missing
 * {@code apiVersion} or {@code kind}; a missing or empty {@code services}; a service without a name, with a name that
 * is not a DNS label, or with the name of an earlier service; a bad size, duration, error rate, {@code isEntrypoint}
 * or {@code replicas} (below 1); a step that is neither a call nor a sleep, an empty or nested concurrent group; a call
 * to a service that is not in the graph; no entrypoint; calls that form a cycle.
 *
 * <p><b>Stops at the first problem</b>, found in this order: YAML syntax; the document's structure and values, top to
 * bottom; calls to unknown services, in file order; the missing entrypoint; cycles (reported at the call that closes
 * the cycle, the first one met going through the services in file order and each script in order).
 */
public final class ServiceGraphReader {
    public static final String API_VERSION = "v1alpha1";
    public static final String KIND = "MockServiceGraph";
    /** The largest size a graph may give: 1024 MB. */
    public static final long MAX_SIZE = 1024L * 1024 * 1024;

    static final List<String> TOP_KEYS = List.of("apiVersion", "kind", "defaults", "services");
    static final List<String> DEFAULTS_KEYS = List.of("requestSize", "responseSize", "errorRate", "replicas");
    static final List<String> SERVICE_KEYS = List.of("name", "isEntrypoint", "replicas", "requestSize", "responseSize",
            "errorRate", "script");
    static final List<String> CALL_KEYS = List.of("service", "size");
    static final String STEP_SHAPE = "a step must be 'call: <service>', 'sleep: <duration>' or a list of those (run concurrently)";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern SIZE = Pattern.compile("(-?)([0-9]+)\\s*(B|KB|MB)?");
    private static final Pattern DURATION = Pattern.compile("(-?)([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|µs|ms|s|m|h)");
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]{1,9}");

    private final String source;
    private final List<CallSite> callSites = new ArrayList<>();

    /** A call as written: who calls whom, on which line. */
    private record CallSite(String caller, String callee, int line) {
    }

    private record Defaults(long requestSize, long responseSize, double errorRate, int replicas) {
    }

    private ServiceGraphReader(String source) {
        this.source = source;
    }

    /**
     * Reads a graph file (UTF-8).
     *
     * @throws IOException    when the file cannot be read
     * @throws GraphException when it is not a valid graph; its message is {@code <file>:<line>: <reason>}
     */
    public static ServiceGraph read(Path file) throws IOException, GraphException {
        return read(file.toString(), Files.readString(file));
    }

    /**
     * Reads a graph from text.
     *
     * @param sourceName names the text in messages and in {@link ServiceGraph#source()} (a file name)
     * @throws GraphException when it is not a valid graph; its message is {@code <sourceName>:<line>: <reason>}
     */
    public static ServiceGraph read(String sourceName, String yamlText) throws GraphException {
        return new ServiceGraphReader(sourceName).graph(yamlText);
    }

    private ServiceGraph graph(String text) throws GraphException {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw new GraphException(source, m == null ? 1 : m.getLine() + 1, "not valid YAML: " + problem);
        } catch (YAMLException e) {
            throw new GraphException(source, 1, "not valid YAML: " + e.getMessage());
        }
        if (root == null || isNull(root)) {
            throw new GraphException(source, 1, "the file is empty; a graph has apiVersion, kind and services");
        }
        if (!(root instanceof MappingNode top)) {
            throw error(root, "the top level must be a mapping of apiVersion, kind, defaults and services; got " + describe(root));
        }
        Map<String, NodeTuple> keys = keys(top, TOP_KEYS, "at the top level");
        fixed(top, keys, "apiVersion", API_VERSION);
        fixed(top, keys, "kind", KIND);
        Defaults defaults = defaults(keys.get("defaults"));

        NodeTuple servicesTuple = keys.get("services");
        if (servicesTuple == null) {
            throw error(top, "missing services: a graph needs at least one service");
        }
        Node servicesNode = servicesTuple.getValueNode();
        if (isNull(servicesNode) || servicesNode instanceof SequenceNode s && s.getValue().isEmpty()) {
            throw error(servicesTuple.getKeyNode(), "services is empty: a graph needs at least one service");
        }
        if (!(servicesNode instanceof SequenceNode list)) {
            throw error(servicesNode, "services must be a list of services; got " + describe(servicesNode));
        }
        List<GraphService> services = new ArrayList<>();
        Map<String, Integer> nameLines = new LinkedHashMap<>();
        for (Node item : list.getValue()) {
            services.add(service(item, defaults, nameLines));
        }

        for (CallSite c : callSites) {
            if (!nameLines.containsKey(c.callee())) {
                throw new GraphException(source, c.line(), "service '" + c.caller() + "' calls '" + c.callee()
                        + "', which is not a service of this graph (services: " + String.join(", ", nameLines.keySet()) + ")");
            }
        }
        if (services.stream().noneMatch(GraphService::entrypoint)) {
            throw error(servicesTuple.getKeyNode(), "no service has isEntrypoint: true; a graph needs at least one entrypoint");
        }
        checkNoCycle(nameLines.keySet());
        return new ServiceGraph(source, services);
    }

    private void fixed(MappingNode top, Map<String, NodeTuple> keys, String key, String expected) throws GraphException {
        NodeTuple t = keys.get(key);
        if (t == null) {
            throw error(top, "missing " + key + ": expected '" + key + ": " + expected + "'");
        }
        String v = text(t.getValueNode(), key);
        if (!expected.equals(v)) {
            throw error(t.getValueNode(), key + " is '" + v + "', expected '" + expected + "'");
        }
    }

    private Defaults defaults(NodeTuple tuple) throws GraphException {
        Defaults d = new Defaults(0, 0, 0, 1);
        if (tuple == null || isNull(tuple.getValueNode())) {
            return d;
        }
        if (!(tuple.getValueNode() instanceof MappingNode m)) {
            throw error(tuple.getValueNode(), "defaults must be a mapping of " + String.join(", ", DEFAULTS_KEYS) + "; got "
                    + describe(tuple.getValueNode()));
        }
        Map<String, NodeTuple> k = keys(m, DEFAULTS_KEYS, "in defaults");
        return new Defaults(
                k.containsKey("requestSize") ? size(k.get("requestSize").getValueNode(), "requestSize") : d.requestSize(),
                k.containsKey("responseSize") ? size(k.get("responseSize").getValueNode(), "responseSize") : d.responseSize(),
                k.containsKey("errorRate") ? errorRate(k.get("errorRate").getValueNode()) : d.errorRate(),
                k.containsKey("replicas") ? replicas(k.get("replicas").getValueNode()) : d.replicas());
    }

    private GraphService service(Node item, Defaults d, Map<String, Integer> nameLines) throws GraphException {
        if (!(item instanceof MappingNode m)) {
            throw error(item, "a service must be a mapping with at least a name; got " + describe(item));
        }
        String guess = null;
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && "name".equals(k.getValue()) && t.getValueNode() instanceof ScalarNode v) {
                guess = v.getValue();
            }
        }
        Map<String, NodeTuple> k = keys(m, SERVICE_KEYS, guess == null ? "in a service" : "in service '" + guess + "'");
        NodeTuple nameTuple = k.get("name");
        if (nameTuple == null) {
            throw error(m, "a service needs a name");
        }
        Node nameNode = nameTuple.getValueNode();
        String name = text(nameNode, "name");
        if (!DNS_LABEL.matcher(name).matches()) {
            throw error(nameNode, "service name '" + name + "' is not a DNS label (lower-case letters, digits and '-',"
                    + " starting with a letter and not ending with '-', at most 63 characters)");
        }
        Integer first = nameLines.putIfAbsent(name, line(nameNode));
        if (first != null) {
            throw error(nameNode, "duplicate service name '" + name + "' (first defined on line " + first + ")");
        }
        return new GraphService(name,
                k.containsKey("isEntrypoint") && bool(k.get("isEntrypoint").getValueNode(), "isEntrypoint"),
                k.containsKey("replicas") ? replicas(k.get("replicas").getValueNode()) : d.replicas(),
                k.containsKey("requestSize") ? size(k.get("requestSize").getValueNode(), "requestSize") : d.requestSize(),
                k.containsKey("responseSize") ? size(k.get("responseSize").getValueNode(), "responseSize") : d.responseSize(),
                k.containsKey("errorRate") ? errorRate(k.get("errorRate").getValueNode()) : d.errorRate(),
                k.containsKey("script") ? script(k.get("script").getValueNode(), name) : List.of());
    }

    private List<Step> script(Node node, String caller) throws GraphException {
        if (isNull(node)) {
            return List.of();
        }
        if (!(node instanceof SequenceNode list)) {
            throw error(node, "script must be a list of steps; got " + describe(node));
        }
        List<Step> steps = new ArrayList<>();
        for (Node item : list.getValue()) {
            if (item instanceof SequenceNode group) {
                if (group.getValue().isEmpty()) {
                    throw error(group, "an empty concurrent group: list at least one call or sleep");
                }
                List<Step> inner = new ArrayList<>();
                for (Node g : group.getValue()) {
                    if (g instanceof SequenceNode) {
                        throw error(g, "a concurrent group holds calls and sleeps, not another group");
                    }
                    inner.add(step(g, caller));
                }
                steps.add(new Step.Concurrent(inner));
            } else {
                steps.add(step(item, caller));
            }
        }
        return steps;
    }

    private Step step(Node node, String caller) throws GraphException {
        if (!(node instanceof MappingNode m)) {
            throw error(node, STEP_SHAPE + "; got " + describe(node));
        }
        List<String> names = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            names.add(t.getKeyNode() instanceof ScalarNode s ? s.getValue() : describe(t.getKeyNode()));
        }
        if (names.size() != 1 || !List.of("call", "sleep").contains(names.get(0))) {
            throw error(node, STEP_SHAPE + "; got " + (names.isEmpty() ? "an empty mapping"
                    : names.size() == 1 ? "key '" + names.get(0) + "'" : "keys " + String.join(", ", names)));
        }
        NodeTuple t = m.getValue().get(0);
        Node value = t.getValueNode();
        if ("sleep".equals(names.get(0))) {
            return new Step.Sleep(duration(value, "sleep"));
        }
        String callee;
        OptionalLong size = OptionalLong.empty();
        if (value instanceof MappingNode call) {
            Map<String, NodeTuple> k = keys(call, CALL_KEYS, "in a call");
            if (!k.containsKey("service")) {
                throw error(call, "a call needs a service: 'call: {service: <name>, size: <size>}'");
            }
            callee = text(k.get("service").getValueNode(), "service");
            if (k.containsKey("size")) {
                size = OptionalLong.of(size(k.get("size").getValueNode(), "size"));
            }
        } else if (value instanceof ScalarNode && !isNull(value)) {
            callee = text(value, "call");
        } else {
            throw error(value, "call must name a service ('call: <service>' or 'call: {service: <name>, size: <size>}'); got "
                    + describe(value));
        }
        callSites.add(new CallSite(caller, callee, line(t.getKeyNode())));
        return new Step.Call(callee, size);
    }

    private void checkNoCycle(Iterable<String> names) throws GraphException {
        Map<String, List<CallSite>> out = new HashMap<>();
        for (CallSite c : callSites) {
            out.computeIfAbsent(c.caller(), k -> new ArrayList<>()).add(c);
        }
        Map<String, Boolean> onPath = new HashMap<>(); // true: on the current path; false: done
        for (String n : names) {
            if (!onPath.containsKey(n)) {
                visit(n, out, onPath, new ArrayList<>());
            }
        }
    }

    private void visit(String service, Map<String, List<CallSite>> out, Map<String, Boolean> onPath, List<String> path)
            throws GraphException {
        onPath.put(service, true);
        path.add(service);
        for (CallSite c : out.getOrDefault(service, List.of())) {
            Boolean state = onPath.get(c.callee());
            if (Boolean.TRUE.equals(state)) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(c.callee()), path.size()));
                cycle.add(c.callee());
                throw new GraphException(source, c.line(), "calls form a cycle: " + String.join(" -> ", cycle));
            }
            if (state == null) {
                visit(c.callee(), out, onPath, path);
            }
        }
        path.remove(path.size() - 1);
        onPath.put(service, false);
    }

    /** The mapping's keys, in order; refuses keys not in {@code allowed}, non-scalar keys and repeated keys. */
    private Map<String, NodeTuple> keys(MappingNode m, List<String> allowed, String where) throws GraphException {
        Map<String, NodeTuple> keys = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw error(t.getKeyNode(), "a key must be a word; got " + describe(t.getKeyNode()) + " " + where);
            }
            String key = k.getValue();
            if (!allowed.contains(key)) {
                throw error(k, "unknown key '" + key + "' " + where + "; allowed: " + String.join(", ", allowed));
            }
            NodeTuple before = keys.putIfAbsent(key, t);
            if (before != null) {
                throw error(k, "key '" + key + "' is given twice " + where + " (first on line " + line(before.getKeyNode()) + ")");
            }
        }
        return keys;
    }

    private long size(Node node, String what) throws GraphException {
        String v = text(node, what);
        Matcher m = SIZE.matcher(v);
        if (!m.matches()) {
            throw error(node, what + " '" + v + "' is not a size: expected a whole number of B, KB or MB (1 KB = 1024 B),"
                    + " e.g. '1 KB', or a whole number of bytes");
        }
        if (!m.group(1).isEmpty()) {
            throw error(node, what + " '" + v + "' is negative");
        }
        String unit = m.group(3) == null ? "B" : m.group(3);
        long multiplier = switch (unit) {
            case "KB" -> 1024L;
            case "MB" -> 1024L * 1024;
            default -> 1L;
        };
        BigInteger bytes = new BigInteger(m.group(2)).multiply(BigInteger.valueOf(multiplier));
        if (bytes.compareTo(BigInteger.valueOf(MAX_SIZE)) > 0) {
            throw error(node, what + " '" + v + "' is larger than 1024 MB");
        }
        return bytes.longValueExact();
    }

    private Duration duration(Node node, String what) throws GraphException {
        String v = text(node, what);
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) {
            throw error(node, what + " '" + v + "' is not a duration: expected a number and a unit (ns, us, ms, s, m, h),"
                    + " e.g. '10ms' or '1.5s'");
        }
        if (!m.group(1).isEmpty()) {
            throw error(node, what + " '" + v + "' is negative");
        }
        long unitNanos = switch (m.group(3)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        try {
            return Duration.ofNanos(new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(unitNanos))
                    .setScale(0, RoundingMode.HALF_UP).longValueExact());
        } catch (ArithmeticException e) {
            throw error(node, what + " '" + v + "' is too long");
        }
    }

    private double errorRate(Node node) throws GraphException {
        String v = text(node, "errorRate");
        boolean percent = v.endsWith("%");
        BigDecimal number;
        try {
            number = new BigDecimal(percent ? v.substring(0, v.length() - 1).trim() : v);
        } catch (NumberFormatException e) {
            throw error(node, "errorRate '" + v + "' is not a rate: expected a percentage such as '0.01%' or a fraction such as 0.0001");
        }
        BigDecimal fraction = percent ? number.movePointLeft(2) : number;
        if (fraction.signum() < 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw error(node, "errorRate '" + v + "' is outside 0..100%" + (percent ? "" : " (a bare number is a fraction: 0.05 means 5%)"));
        }
        return fraction.doubleValue();
    }

    private int replicas(Node node) throws GraphException {
        String v = text(node, "replicas");
        if (!WHOLE.matcher(v).matches()) {
            throw error(node, "replicas '" + v + "' is not a whole number");
        }
        int n = Integer.parseInt(v);
        if (n < 1) {
            throw error(node, "replicas is " + n + "; it must be at least 1");
        }
        return n;
    }

    private boolean bool(Node node, String what) throws GraphException {
        String v = text(node, what);
        return switch (v) {
            case "true", "True", "TRUE" -> true;
            case "false", "False", "FALSE" -> false;
            default -> throw error(node, what + " must be true or false; got '" + v + "'");
        };
    }

    /** The trimmed text of a scalar; refuses lists, mappings and empty values. */
    private String text(Node node, String what) throws GraphException {
        if (!(node instanceof ScalarNode s)) {
            throw error(node, what + " must be a single value; got " + describe(node));
        }
        String v = s.getValue().trim();
        if (isNull(node) || v.isEmpty()) {
            throw error(node, what + " has no value");
        }
        return v;
    }

    private static boolean isNull(Node node) {
        return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
    }

    private static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        return isNull(node) ? "nothing" : "'" + ((ScalarNode) node).getValue() + "'";
    }

    private static int line(Node node) {
        return node.getStartMark().getLine() + 1;
    }

    private GraphException error(Node node, String reason) {
        return new GraphException(source, line(node), reason);
    }
}
