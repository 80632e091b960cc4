package dev.meshbench.dataplane.config;

import java.util.regex.Pattern;

/**
 * The label of a component's listener configuration: {@code --config-version} for the one it starts with, the
 * {@code ?version=} of {@code PUT /config} for each later one. Opaque to the relay (compared, reported, never
 * ordered), as an xDS version_info is to Envoy.
 *
 * @param value 1-64 letters, digits, {@code .}, {@code _}, {@code :} or {@code -}
 */
public record ConfigVersion(String value) {
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._:-]{1,64}"); // before INITIAL, which uses it
    public static final String INITIAL_VALUE = "initial";
    /** The version of a component started without {@code --config-version}. */
    public static final ConfigVersion INITIAL = new ConfigVersion(INITIAL_VALUE);

    public ConfigVersion {
        if (value == null || !VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException("a config version is 1-64 letters, digits, '.', '_', ':' or '-' (got "
                    + (value == null ? "none" : "'" + printable(value) + "'") + ")");
        }
    }

    /** What was given, safe for one log line: control characters escaped, at most 80 characters. */
    private static String printable(String text) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < text.length() && b.length() < 80; i++) {
            char c = text.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return text.length() > 80 ? b + "..." : b.toString();
    }

    @Override
    public String toString() {
        return value;
    }
}
