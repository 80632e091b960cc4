package dev.meshbench.acmeair.graph;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code graph-node} command line, falling back to environment variables (for Kubernetes, where the graph
 * comes from a ConfigMap). The command line wins. Every option takes {@code --name value} or {@code --name=value}.
 *
 * <pre>
 * option                      env var        meaning
 * --graph FILE                GRAPH_FILE     the service graph (required)
 * --service NAME              SERVICE_NAME   which of its services to be (required)
 * --port P                    PORT           port to bind, 0 for a free one (required)
 * --bind-host HOST            BIND_HOST      address to bind (default 127.0.0.1)
 * --call SERVICE=URL[,URL]                   where a callee is (repeatable; default http://SERVICE:8080)
 * --pause-every N             PAUSE_EVERY    every Nth request waits --pause-ms before answering
 * --pause-ms MS               PAUSE_MS       (the two go together)
 * --exit-on-stdin-eof                        exit when the parent closes stdin
 * </pre>
 */
public final class GraphNodeOptionsReader {
    public static final String USAGE = "usage: java -jar acmeair-services.jar graph-node --graph FILE --service NAME --port P"
            + " [--bind-host 127.0.0.1] [--call SERVICE=URL[,URL...]]... [--pause-every N --pause-ms MS] [--exit-on-stdin-eof]";

    /** Option name to environment variable ({@code null}: command line only). */
    static final Map<String, String> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("--graph", "GRAPH_FILE");
        OPTIONS.put("--service", "SERVICE_NAME");
        OPTIONS.put("--port", "PORT");
        OPTIONS.put("--bind-host", "BIND_HOST");
        OPTIONS.put("--call", null);
        OPTIONS.put("--pause-every", "PAUSE_EVERY");
        OPTIONS.put("--pause-ms", "PAUSE_MS");
    }

    private GraphNodeOptionsReader() {
    }

    /** @throws IllegalArgumentException naming the option (and its variable) and what is wrong with it */
    public static GraphNodeOptions read(List<String> args, Map<String, String> env) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        boolean exitOnEof = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ("--exit-on-stdin-eof".equals(a)) {
                exitOnEof = true;
                continue;
            }
            String name = a;
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    throw new IllegalArgumentException(OPTIONS.containsKey(a) ? a + " needs a value" : "unknown option '" + a + "'");
                }
                value = args.get(++i);
            }
            if (!OPTIONS.containsKey(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "'");
            }
            values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        OPTIONS.forEach((option, var) -> {
            String v = var == null ? null : env.get(var);
            if (!values.containsKey(option) && v != null && !v.isBlank()) {
                values.put(option, List.of(v.trim()));
            }
        });

        Path graph = Path.of(required(values, "--graph"));
        String service = required(values, "--service");
        int port = whole(values, "--port", -1);
        if (port < 0) {
            throw new IllegalArgumentException("--port (PORT) is required: the port to listen on, 0 for a free one");
        }
        if (port > 65535) {
            throw new IllegalArgumentException("--port " + port + " must be between 0 and 65535");
        }
        String host = single(values, "--bind-host", "127.0.0.1");
        int pauseEvery = whole(values, "--pause-every", 0);
        int pauseMs = whole(values, "--pause-ms", -1);
        if (values.containsKey("--pause-every") != values.containsKey("--pause-ms")) {
            throw new IllegalArgumentException("--pause-every (PAUSE_EVERY) and --pause-ms (PAUSE_MS) go together; "
                    + (values.containsKey("--pause-every") ? "--pause-ms" : "--pause-every") + " is missing");
        }
        if (values.containsKey("--pause-every") && pauseEvery < 1) {
            throw new IllegalArgumentException("--pause-every " + pauseEvery + " must be at least 1");
        }
        return new GraphNodeOptions(graph, service, host, port, calls(values.getOrDefault("--call", List.of())), pauseEvery,
                Math.max(pauseMs, 0), exitOnEof);
    }

    /** {@code SERVICE=URL[,URL...]}, one per callee. */
    static Map<String, List<URI>> calls(List<String> specs) {
        Map<String, List<URI>> calls = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("--call '" + spec + "' must be SERVICE=URL[,URL...], e.g. backend=http://127.0.0.1:9081");
            }
            String callee = spec.substring(0, eq).trim();
            List<URI> urls = new ArrayList<>();
            for (String u : spec.substring(eq + 1).split(",")) {
                urls.add(url(callee, u.trim()));
            }
            if (calls.put(callee, urls) != null) {
                throw new IllegalArgumentException("--call " + callee + " is given twice; list its URLs in one --call, comma-separated");
            }
        }
        return calls;
    }

    /** An http(s) URL with a host; an empty path becomes {@code /}. */
    static URI url(String callee, String u) {
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException("--call " + callee + ": '" + u + "' is not an http(s) URL with a host, e.g. http://127.0.0.1:9081");
        }
        return uri.getRawPath() == null || uri.getRawPath().isEmpty() ? uri.resolve("/") : uri;
    }

    private static String required(Map<String, List<String>> values, String option) {
        String v = single(values, option, null);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(option + " (" + OPTIONS.get(option) + ") is required");
        }
        return v;
    }

    private static String single(Map<String, List<String>> values, String option, String fallback) {
        List<String> v = values.get(option);
        if (v == null) {
            return fallback;
        }
        if (v.size() > 1) {
            throw new IllegalArgumentException(option + " is given " + v.size() + " times; it takes one value");
        }
        return v.get(0);
    }

    private static int whole(Map<String, List<String>> values, String option, int fallback) {
        String v = single(values, option, null);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new IllegalArgumentException(option + " " + v + " must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + v + "' is not a whole number");
        }
    }
}
