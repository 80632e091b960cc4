package dev.meshbench.component;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one line a component prints on stdout once it serves:
 * {@code MESHBENCH-READY component=<name> address=<host:port> [key=value ...]}. Values hold no spaces.
 * The orchestrator waits for it; people can read it too.
 *
 * @param component the component's name (for example {@code mongo}, {@code booking}, {@code sidecar-booking})
 * @param fields    everything after the prefix, in order, including {@code component}
 */
public record ReadyLine(String component, Map<String, String> fields) {
    public static final String PREFIX = "MESHBENCH-READY";

    public ReadyLine {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** Builds a ready line; {@code keyValues} alternate key, value. */
    public static ReadyLine of(String component, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("ready line fields come in key/value pairs");
        }
        Map<String, String> f = new LinkedHashMap<>();
        f.put("component", component);
        for (int i = 0; i < keyValues.length; i += 2) {
            String v = keyValues[i + 1];
            if (v.isEmpty() || v.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("ready line value for " + keyValues[i] + " must be non-empty without spaces: '" + v + "'");
            }
            f.put(keyValues[i], v);
        }
        return new ReadyLine(component, f);
    }

    /** Parses a line; empty when it is not a ready line. */
    public static Optional<ReadyLine> parse(String line) {
        if (line == null || !line.startsWith(PREFIX + " ")) {
            return Optional.empty();
        }
        Map<String, String> f = new LinkedHashMap<>();
        for (String token : line.substring(PREFIX.length()).trim().split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                return Optional.empty();
            }
            f.put(token.substring(0, eq), token.substring(eq + 1));
        }
        String c = f.get("component");
        return c == null ? Optional.empty() : Optional.of(new ReadyLine(c, f));
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(fields.get(key));
    }

    /** Prints the line to stdout and flushes it. */
    public void print() {
        System.out.println(this);
        System.out.flush();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(PREFIX);
        fields.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }
}
