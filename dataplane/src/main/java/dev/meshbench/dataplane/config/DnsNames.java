package dev.meshbench.dataplane.config;

import java.util.Locale;

/** Host name rules shared by SNI values and route patterns (RFC 1123 letters, digits, hyphens). */
public final class DnsNames {
    private DnsNames() {
    }

    /** Lower-cases a name and drops one trailing dot. */
    public static String normalize(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }

    /** True for a syntactically valid DNS host name of at most 253 characters (already normalized). */
    public static boolean isHostName(String name) {
        if (name == null || name.isEmpty() || name.length() > 253) {
            return false;
        }
        int labelStart = 0;
        for (int i = 0; i <= name.length(); i++) {
            if (i == name.length() || name.charAt(i) == '.') {
                if (!isLabel(name, labelStart, i)) {
                    return false;
                }
                labelStart = i + 1;
            }
        }
        return true;
    }

    private static boolean isLabel(String s, int from, int to) {
        int len = to - from;
        if (len < 1 || len > 63 || s.charAt(from) == '-' || s.charAt(to - 1) == '-') {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Throws with a message naming {@code what} unless {@code name} is a host name; returns it normalized. */
    public static String requireHostName(String name, String what) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(what + " must be a DNS host name (got an empty value)");
        }
        String n = normalize(name.trim());
        if (!isHostName(n) || n.matches("[0-9.]+")) {
            throw new IllegalArgumentException(what + " must be a DNS host name like mongo.meshbench.test (got '" + name + "')");
        }
        return n;
    }
}
