package dev.meshbench.acmeair.mongo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A MongoDB connection string cut into its text parts, {@code scheme://[userInfo@]hosts[/database][?options]}, so the
 * MongoDB switch ({@link SwitchableMongo}) can check that only the hosts changed, and so a connection string can be
 * shown without its password ({@link #masked}).
 *
 * <p>The cut follows the Connection String specification, which the driver enforces (checked here with driver 5.14):
 * the user information and hosts end at the first {@code /} or {@code ?}, because a password must percent-encode
 * those, and the user information ends at the last {@code @} before that. The driver's {@code ConnectionString}
 * parses the same text, but gives interpreted values only (one getter per option, many defaulted), so "everything
 * but the hosts" would be a list of some forty comparisons that a new option would slip past; comparing the text
 * parts leaves nothing out. Option names compare case-insensitively (as the driver reads them) and the last of a
 * repeated option counts (as in the driver); values compare exactly, so {@code tls=TRUE} for {@code tls=true} is a
 * change.
 *
 * @param scheme   {@code mongodb} or {@code mongodb+srv}
 * @param userInfo the credentials as written ({@code user:password}), or null
 * @param hosts    the host list as written ({@code a:27017,b:27017})
 * @param database the database part after {@code /}, empty when there is none
 * @param options  by lower-cased name: the name as written and the value
 */
record ConnectionStringParts(String scheme, String userInfo, String hosts, String database, Map<String, Option> options) {

    /** One option as written. */
    record Option(String name, String value) {
    }

    /** What a connection string shows for a password, and for credentials that cannot be told apart from the rest. */
    static final String MASK = "****";

    ConnectionStringParts {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(hosts, "hosts");
        Objects.requireNonNull(database, "database");
        options = Map.copyOf(options);
    }

    /** The parts of a connection string the driver accepted (check it with {@code new ConnectionString(uri)} first). */
    static ConnectionStringParts of(String uri) {
        int start = uri.indexOf("://");
        if (start < 0) {
            throw new IllegalArgumentException("not a MongoDB connection string (no scheme://)");
        }
        String scheme = uri.substring(0, start);
        start += 3;
        int end = authorityEnd(uri, start);
        String authority = uri.substring(start, end);
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? null : authority.substring(0, at);
        String hosts = authority.substring(at + 1);
        String rest = uri.substring(end);
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        String query = q < 0 ? "" : rest.substring(q + 1);
        Map<String, Option> options = new LinkedHashMap<>();
        for (String pair : query.split("[&;]")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            options.put(name.toLowerCase(Locale.ROOT), new Option(name, eq < 0 ? "" : pair.substring(eq + 1)));
        }
        return new ConnectionStringParts(scheme, userInfo, hosts, path.startsWith("/") ? path.substring(1) : path, options);
    }

    /**
     * What differs from {@code running} besides the hosts, each named without its value (a value could be a secret):
     * empty when only the hosts differ, or nothing.
     */
    List<String> differencesBesidesHosts(ConnectionStringParts running) {
        List<String> out = new ArrayList<>();
        if (!scheme.equals(running.scheme)) {
            out.add("the scheme (" + scheme + "://, running " + running.scheme + "://)");
        }
        if (!Objects.equals(userInfo, running.userInfo)) {
            out.add(userInfo == null ? "the credentials (it has none, the running one has)"
                    : running.userInfo == null ? "the credentials (it has user information, the running one has none)"
                    : "the credentials (user information)");
        }
        if (!database.equals(running.database)) {
            out.add("the database part after the hosts");
        }
        TreeSet<String> keys = new TreeSet<>(options.keySet());
        keys.addAll(running.options.keySet());
        List<String> changed = new ArrayList<>();
        for (String key : keys) {
            Option mine = options.get(key);
            Option theirs = running.options.get(key);
            if (mine == null || theirs == null || !mine.value().equals(theirs.value())) {
                changed.add((mine != null ? mine : theirs).name() + (mine == null ? " (left out)" : theirs == null ? " (added)" : ""));
            }
        }
        if (!changed.isEmpty()) {
            out.add((changed.size() == 1 ? "option " : "options ") + String.join(", ", changed));
        }
        return out;
    }

    /**
     * {@code text} with its password replaced by {@value #MASK}: {@code mongodb://user:****@host:27017/?tls=true}. Any
     * text, even one the driver refused: when the user information cannot be told from the rest (an {@code @} after
     * the first {@code /} or {@code ?}), everything from the scheme to the last {@code @} is masked, user name included.
     */
    static String masked(String text) {
        int start = text.indexOf("://");
        int at = text.lastIndexOf('@');
        if (at < 0) {
            return text;
        }
        if (start < 0 || at < start + 3) {
            return MASK + text.substring(at);
        }
        start += 3;
        String userInfo = text.substring(start, at);
        String shown;
        if (at < authorityEnd(text, start)) {
            int colon = userInfo.indexOf(':');
            shown = colon < 0 ? userInfo : userInfo.substring(0, colon) + ":" + MASK;
        } else {
            shown = MASK;
        }
        return text.substring(0, start) + shown + text.substring(at);
    }

    private static int authorityEnd(String uri, int start) {
        for (int i = start; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '/' || c == '?') {
                return i;
            }
        }
        return uri.length();
    }
}
