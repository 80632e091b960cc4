package dev.meshbench.dataplane.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code key=value,key=value} inside one option value (a listener or route spec); errors name the key. */
final class KeyValues {
    private KeyValues() {
    }

    static Map<String, String> parse(String spec, Set<String> allowed) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : spec.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + part + "' is not key=value");
            }
            String k = part.substring(0, eq).trim();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException("unknown key '" + k + "' (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
            if (kv.put(k, part.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("key '" + k + "' is given twice");
            }
        }
        return kv;
    }

    static String required(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing " + key + "=");
        }
        return v;
    }
}
