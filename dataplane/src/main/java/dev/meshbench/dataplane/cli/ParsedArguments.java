package dev.meshbench.dataplane.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Options of one command: {@code --name value} or {@code --name=value}, repeatable options, and flags.
 * Unknown options, missing values and repeats of single options are {@link UsageException}s naming the option.
 */
final class ParsedArguments {
    private final Map<String, List<String>> values = new LinkedHashMap<>();
    private final List<String> flags = new ArrayList<>();

    static ParsedArguments parse(List<String> args, Set<String> single, Set<String> repeatable, Set<String> flagNames)
            throws UsageException {
        ParsedArguments p = new ParsedArguments();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || a.length() == 2) {
                throw new UsageException("unexpected argument '" + a + "' (options start with --)");
            }
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            if (flagNames.contains(name)) {
                if (value != null) {
                    throw new UsageException(name + " takes no value");
                }
                p.flags.add(name);
                continue;
            }
            if (!single.contains(name) && !repeatable.contains(name)) {
                throw new UsageException("unknown option " + name);
            }
            if (value == null) {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    throw new UsageException(name + " needs a value");
                }
                value = args.get(++i);
            }
            List<String> list = p.values.computeIfAbsent(name, k -> new ArrayList<>());
            if (single.contains(name) && !list.isEmpty()) {
                throw new UsageException(name + " is given twice");
            }
            list.add(value);
        }
        return p;
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    String get(String name, String fallback) {
        List<String> l = values.get(name);
        return l == null ? fallback : l.get(0);
    }

    String require(String name) throws UsageException {
        String v = get(name, null);
        if (v == null || v.isBlank()) {
            throw new UsageException(name + " is required");
        }
        return v;
    }

    List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    boolean has(String name) {
        return values.containsKey(name);
    }
}
