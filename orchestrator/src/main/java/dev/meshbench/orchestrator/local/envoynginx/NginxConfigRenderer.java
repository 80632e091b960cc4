package dev.meshbench.orchestrator.local.envoynginx;

import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan.ServerNameRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.SniSource;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SNI proxy's complete, standalone {@code nginx.conf}: the study's nginx {@code stream} server with
 * {@code ssl_preread}, routing by the server name of the app's ClientHello through a {@code map} with
 * {@code hostnames} (so {@code *.meshbench.test} patterns work), in the foreground ({@code daemon off}), logging
 * to stderr at {@code info} (one {@code client ... connected to} line per session, one {@code proxy ... connected to}
 * line per upstream connection) and one access-log line per finished session ({@link #LOG_FORMAT}).
 *
 * <p>A server name no route matches, or a ClientHello without one, maps to the empty string: {@code proxy_pass}
 * then has no host, and nginx ends the session at once with status 500 ({@code no host in upstream ""} in the
 * error log) without opening any upstream connection. Every file nginx writes (pid, access log) is in the work
 * folder; the stream module writes no temporary files, so nginx runs as any user.
 */
public final class NginxConfigRenderer {
    /** The access log's format name. */
    public static final String LOG_FORMAT_NAME = "meshbench";
    /** One line per finished session. */
    public static final String LOG_FORMAT =
            "$remote_addr $ssl_preread_server_name $status $bytes_received $bytes_sent $upstream_addr $session_time";
    /** The variable the server-name map sets. */
    public static final String UPSTREAM_VARIABLE = "$meshbench_upstream";
    /** Per worker process; each proxied session takes two. */
    static final int WORKER_CONNECTIONS = 4096;

    private static final Pattern HOST_PATTERN = Pattern.compile("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*");

    private NginxConfigRenderer() {
    }

    /** The session log nginx writes in {@code workDir}. */
    public static Path accessLog(Path workDir) {
        return workDir.resolve("sni-proxy-access.log");
    }

    /** The master's pid file in {@code workDir}. */
    public static Path pidFile(Path workDir) {
        return workDir.resolve("nginx.pid");
    }

    /**
     * As {@link #render(TopologyPlan, ComponentPlan, LocalAddresses, Path, int, Optional)} with the stream module
     * found by file in {@link NginxModules#USUAL_DIRS} (none found: assumed built in). Prefer the other form with
     * {@link NginxModules#streamModule(Path)} of the binary that will run the file: it also reads the binary's own
     * {@code --modules-path}.
     */
    public static String render(TopologyPlan plan, ComponentPlan sniProxy, LocalAddresses addrs, Path workDir, int workers) {
        Optional<Path> module = NginxModules.USUAL_DIRS.stream().map(d -> d.resolve(NginxModules.STREAM_MODULE_FILE))
                .filter(Files::isRegularFile).findFirst();
        return render(plan, sniProxy, addrs, workDir, workers, module);
    }

    /**
     * The {@code nginx.conf} of {@code sniProxy}.
     *
     * @param workDir      where nginx writes its pid file and access log (its {@code -p} prefix)
     * @param workers      worker processes
     * @param streamModule the dynamic stream module to load, or empty when the binary has it built in
     */
    public static String render(TopologyPlan plan, ComponentPlan sniProxy, LocalAddresses addrs, Path workDir, int workers,
            Optional<Path> streamModule) {
        if (sniProxy.kind() != ComponentKind.SNI_PROXY) {
            throw new IllegalArgumentException("nginx runs the SNI proxy, not " + sniProxy.name() + " (" + sniProxy.kind() + ")");
        }
        if (workers < 1) {
            throw new IllegalArgumentException("nginx workers (" + workers + ") must be at least 1");
        }
        plan.component(sniProxy.name());
        if (sniProxy.listeners().size() != 1) {
            throw new IllegalArgumentException("the nginx SNI proxy serves one listener; " + sniProxy.name() + " has " + sniProxy.listeners().size());
        }
        ListenerPlan l = sniProxy.listeners().get(0);
        if (l.protocol() != Protocol.TCP || l.inbound() != InboundTls.PLAIN || l.upstreamTls().isPresent()
                || !(l.routing().orElse(null) instanceof Routing.ByServerName byName) || byName.source() != SniSource.CLIENT_HELLO) {
            throw new IllegalArgumentException(sniProxy.name() + "/" + l.name()
                    + ": nginx's ssl_preread only routes plain TCP by the ClientHello's server name");
        }

        StringBuilder b = new StringBuilder(1024);
        b.append("# nginx.conf of ").append(sniProxy.name()).append(" (case ").append(plan.id())
                .append("), rendered by meshbench from the plan.\n");
        streamModule.ifPresent(m -> b.append("load_module ").append(quoted(m.toString())).append(";\n"));
        b.append('\n');
        b.append("daemon off;\n");
        b.append("master_process on;\n");
        b.append("worker_processes ").append(workers).append(";\n");
        b.append("pid ").append(quoted(pidFile(workDir).toString())).append(";\n");
        b.append("error_log stderr info;\n");
        b.append('\n');
        b.append("events {\n");
        b.append("    worker_connections ").append(WORKER_CONNECTIONS).append(";\n");
        b.append("}\n");
        b.append('\n');
        b.append("stream {\n");
        b.append("    # A name no route matches (or no name at all) maps to \"\": proxy_pass has no host, and nginx ends\n");
        b.append("    # the session with status 500 without connecting upstream.\n");
        b.append("    map $ssl_preread_server_name ").append(UPSTREAM_VARIABLE).append(" {\n");
        b.append("        hostnames;\n");
        for (ServerNameRoute r : byName.routes()) {
            if (!HOST_PATTERN.matcher(r.pattern()).matches()) {
                throw new IllegalArgumentException(sniProxy.name() + "/" + l.name() + ": '" + r.pattern() + "' is not a host name or *.domain");
            }
            b.append("        ").append(r.pattern()).append(' ').append(addrs.address(r.upstream())).append(";\n");
        }
        b.append("        default \"\";\n");
        b.append("    }\n");
        b.append('\n');
        b.append("    log_format ").append(LOG_FORMAT_NAME).append(" '").append(LOG_FORMAT).append("';\n");
        b.append("    access_log ").append(quoted(accessLog(workDir).toString())).append(' ').append(LOG_FORMAT_NAME).append(";\n");
        b.append('\n');
        b.append("    server {\n");
        b.append("        listen ").append(LocalAddresses.HOST).append(':').append(addrs.port(sniProxy.name(), l.name())).append(";\n");
        b.append("        ssl_preread on;\n");
        b.append("        proxy_pass ").append(UPSTREAM_VARIABLE).append(";\n");
        b.append("        proxy_connect_timeout ").append(EnvoyBootstrapRenderer.CONNECT_TIMEOUT).append(";\n");
        b.append("        proxy_timeout 1h;\n");
        b.append("    }\n");
        b.append("}\n");
        return b.toString();
    }

    /** A path as an nginx token: bare when it has nothing nginx would split on, else in double quotes. */
    static String quoted(String s) {
        if (s.isEmpty() || s.chars().anyMatch(c -> c == '"' || c == '\\' || c == '$' || c < 0x20)) {
            throw new IllegalArgumentException("nginx.conf cannot name the path '" + s + "': empty, or with a quote, backslash, $ or control character");
        }
        boolean bare = s.chars().noneMatch(c -> c == ' ' || c == ';' || c == '\'' || c == '{' || c == '}' || c == '#');
        return bare ? s : '"' + s + '"';
    }
}
