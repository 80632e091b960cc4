package dev.meshbench.orchestrator.local.envoynginx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The nginx SNI proxy's hop counters, in the JSON shape the Netty relays serve, from its two logs:
 * <ul>
 *   <li>the access log ({@link NginxConfigRenderer#LOG_FORMAT}, one line per finished session): accepted and closed =
 *       sessions, bytes = sums of {@code $bytes_received} (client to upstream) and {@code $bytes_sent}; a session
 *       that did not end with status 200 counts as refused.sni when it never had an upstream ({@code $upstream_addr}
 *       {@code -}: no route for its server name, or no usable ClientHello) and as refused.upstreamConnect when it had
 *       one (nginx answers 502 when the connect fails). A client that closes before sending anything (a port
 *       probe, such as the local target's readiness check) ends with status 200 and no upstream: accepted and closed,
 *       not refused. nginx writes an empty variable as {@code -};</li>
 *   <li>the error log at {@code info} (the process's stderr, captured by the supervisor): {@code connected} counts
 *       {@code client ... connected to} lines, one per session begun, open ones too; {@code upstreamConnected}
 *       counts {@code proxy ... connected to} lines; active = connected - finished sessions.</li>
 * </ul>
 * A log that does not exist yet counts nothing.
 */
public final class NginxStatsReader {
    /** Says in the JSON what the counters cover. */
    public static final String NOTE = "nginx logs a session's bytes and status when it closes: accepted, closed, bytes and refused"
            + " count finished sessions; connected counts every session begun (open ones too), from the error log";

    private static final Pattern CLIENT_CONNECTED = Pattern.compile("\\*\\d+ client \\S+ connected to \\S+");
    private static final Pattern PROXY_CONNECTED = Pattern.compile("\\*\\d+ proxy \\S+ connected to \\S+");

    private NginxStatsReader() {
    }

    /**
     * The hop counters of the SNI proxy {@code c}.
     *
     * @param accessLog its session log ({@link NginxConfigRenderer#accessLog(Path)})
     * @param errorLog  where its stderr goes (its {@code info} messages)
     */
    public static String hopJson(ComponentPlan c, LocalAddresses a, Path accessLog, Path errorLog) {
        return HopJson.write(hopNode(c, a, accessLog, errorLog));
    }

    static ObjectNode hopNode(ComponentPlan c, LocalAddresses a, Path accessLog, Path errorLog) {
        if (c.listeners().size() != 1) {
            throw new IllegalArgumentException("the nginx SNI proxy serves one listener; " + c.name() + " has " + c.listeners().size());
        }
        Sessions s = new Sessions();
        lines(accessLog, s::add);
        long[] connected = new long[2];
        lines(errorLog, line -> {
            if (CLIENT_CONNECTED.matcher(line).find()) {
                connected[0]++;
            } else if (PROXY_CONNECTED.matcher(line).find()) {
                connected[1]++;
            }
        });

        ObjectNode root = HopJson.component(c, "nginx");
        root.put("note", NOTE);
        ListenerPlan l = c.listeners().get(0);
        ObjectNode n = HopJson.listener(root, c, l, a);
        HopJson.counters(n, s.sessions, Math.max(0, connected[0] - s.sessions), s.sessions, s.bytesReceived, s.bytesSent,
                0, s.noUpstream, s.upstreamFailed);
        ObjectNode raw = n.putObject("nginx");
        raw.put("sessions", s.sessions);
        raw.put("connected", connected[0]);
        raw.put("upstreamConnected", connected[1]);
        raw.put("unparsedLines", s.unparsed);
        ObjectNode statuses = raw.putObject("statuses");
        s.statuses.forEach(statuses::put);
        return root;
    }

    private static void lines(Path file, Consumer<String> each) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                each.accept(line);
            }
        } catch (NoSuchFileException e) {
            // nothing logged yet
        } catch (IOException e) {
            throw new UncheckedIOException("reading the nginx log " + file + " failed: " + e.getMessage(), e);
        }
    }

    /** Sums over access-log lines: {@code $remote_addr $ssl_preread_server_name $status $bytes_received $bytes_sent $upstream_addr $session_time}. */
    private static final class Sessions {
        long sessions;
        long bytesReceived;
        long bytesSent;
        long noUpstream;
        long upstreamFailed;
        long unparsed;
        final Map<String, Long> statuses = new TreeMap<>();

        void add(String line) {
            if (line.isBlank()) {
                return;
            }
            // The server name is empty when the ClientHello had none, hence split with limit -1 and exactly 7 fields.
            String[] f = line.split(" ", -1);
            if (f.length != 7) {
                unparsed++;
                return;
            }
            try {
                long received = Long.parseLong(f[3]);
                long sent = Long.parseLong(f[4]);
                sessions++;
                bytesReceived += received;
                bytesSent += sent;
            } catch (NumberFormatException e) {
                unparsed++;
                return;
            }
            String status = f[2];
            statuses.merge(status, 1L, Long::sum);
            if (!status.equals("200")) {
                boolean hadUpstream = !f[5].isEmpty() && !f[5].equals("-");
                if (hadUpstream) {
                    upstreamFailed++;
                } else {
                    noUpstream++;
                }
            }
        }
    }
}
