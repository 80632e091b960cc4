package dev.meshbench.dataplane.stats;

/** JSON string literals for the admin endpoint's flat documents ({@code /stats}, {@code /config}); no library needed. */
public final class JsonStrings {
    private JsonStrings() {
    }

    /** Appends {@code s} as a quoted JSON string, escaping quotes, backslashes and control characters. */
    public static void append(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
