package dev.meshbench.dataplane.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

@DisplayName("ingress-gateway command line")
class IngressGatewayCommandTest {
    private static final String COMMAND = "ingress-gateway";

    /** Parses as {@code dataplane ingress-gateway <args>} does and checks the options, without starting anything. */
    private static ComponentConfig read(String... args) {
        List<String> all = new ArrayList<>(List.of(COMMAND));
        all.addAll(List.of(args));
        CommandLine.ParseResult r = DataplaneMain.commandLine(new DataplaneCommand(false)).parseArgs(all.toArray(String[]::new));
        return ((ProxyCommand) r.subcommand().commandSpec().userObject()).config();
    }

    /** The message of the one error line (between {@code dataplane ingress-gateway: } and {@code  (see --help)}). */
    private static String error(String... args) {
        return ComponentCommandLine.describe(assertThrows(ParameterException.class, () -> read(args)));
    }

    @Test
    @DisplayName("reads the Acmeair routes, each to its sidecar, with the default body cap and pool size")
    void acmeair() {
        ComponentConfig c = read("--name", "ingress-gateway", "--admin-port", "0", "--io-threads", "2", "--listen-port", "0",
                "--route", "/auth=127.0.0.1:41001,upstream-name=sidecar-auth",
                "--route", "/customer=127.0.0.1:41002,upstream-name=sidecar-customer",
                "--route", "/flight=127.0.0.1:41003,upstream-name=sidecar-flight",
                "--route", "/booking=127.0.0.1:41004,upstream-name=sidecar-booking");
        assertEquals("ingress-gateway", c.name());
        assertEquals(2, c.ioThreads());
        ListenerConfig l = c.listeners().get(0);
        assertEquals(IngressGatewayCommand.LISTENER, l.name());
        assertTrue(l.isHttp());
        assertNull(c.tls());
        Routing.ByPathPrefix r = assertInstanceOf(Routing.ByPathPrefix.class, l.routing());
        assertEquals(List.of("/auth", "/customer", "/flight", "/booking"), r.routes().specs());
        assertEquals("sidecar-booking", r.routes().match("POST", "/booking/bookflights").orElseThrow().upstream().displayName());
        assertEquals(1024 * 1024, r.maxRequestBytes());
        assertEquals(64, r.maxConnectionsPerUpstream());
    }

    @Test
    @DisplayName("reads --max-request-bytes and --max-connections-per-upstream")
    void limits() {
        Routing.ByPathPrefix r = (Routing.ByPathPrefix) read("--name", "g", "--route", "/=127.0.0.1:1",
                "--max-request-bytes", "4096", "--max-connections-per-upstream", "2").listeners().get(0).routing();
        assertEquals(4096, r.maxRequestBytes());
        assertEquals(2, r.maxConnectionsPerUpstream());
    }

    @Test
    @DisplayName("a bad route, a prefix given twice or no route at all is a usage error naming the --route value")
    void badRoutes() {
        assertEquals("--route is required (at least one, e.g. '/auth=127.0.0.1:41001,upstream-name=sidecar-auth')",
                error("--name", "g"));
        assertEquals("--route 'auth=127.0.0.1:1': a path prefix starts with '/' (got 'auth')",
                error("--name", "g", "--route", "auth=127.0.0.1:1"));
        assertEquals("--route '/auth': a route is [METHOD ]PATH=HOST:PORT[,upstream-name=NAME]",
                error("--name", "g", "--route", "/auth"));
        assertEquals("--route '/auth=localhost': address must be host:port (got 'localhost')",
                error("--name", "g", "--route", "/auth=localhost"));
        assertEquals("--route '/auth=h:1,colour=red': unknown key 'colour' (allowed: upstream-name)",
                error("--name", "g", "--route", "/auth=h:1,colour=red"));
        // A trailing slash names the same prefix; the error shows the route as read.
        assertEquals("--route '/auth=127.0.0.1:2': path prefix /auth is already routed by '/auth=127.0.0.1:1,upstream-name=sidecar-auth'",
                error("--name", "g", "--route", "/auth=127.0.0.1:1,upstream-name=sidecar-auth", "--route", "/auth/=127.0.0.1:2"));
        assertEquals("--route 'get /auth/login=127.0.0.1:1': a method is upper-case letters, e.g. GET (got 'get')",
                error("--name", "g", "--route", "get /auth/login=127.0.0.1:1"));
        assertEquals("--route 'GET /auth/=127.0.0.1:1': a path has no empty segment (got '/auth/')",
                error("--name", "g", "--route", "GET /auth/=127.0.0.1:1"));
        assertEquals("--route 'POST /auth/login=127.0.0.1:2': POST /auth/login is already routed by 'POST /auth/login=127.0.0.1:1'",
                error("--name", "g", "--route", "POST /auth/login=127.0.0.1:1", "--route", "POST /auth/login=127.0.0.1:2"));
        assertEquals("--route: upstream name sidecar-auth is given for two addresses (127.0.0.1:1 and 127.0.0.1:2)",
                error("--name", "g", "--route", "/auth=127.0.0.1:1,upstream-name=sidecar-auth",
                        "--route", "/login=127.0.0.1:2,upstream-name=sidecar-auth"));
    }

    @Test
    @DisplayName("names the option when a limit is out of range")
    void badLimits() {
        assertTrue(error("--name", "g", "--route", "/=h:1", "--max-request-bytes", "-1").contains("--max-request-bytes"));
        assertTrue(error("--name", "g", "--route", "/=h:1", "--max-connections-per-upstream", "0")
                .contains("--max-connections-per-upstream"));
        assertTrue(error("--name", "g", "--route", "/=h:1", "--mode", "mtls").contains("unknown option '--mode'"));
    }

    @Test
    @DisplayName("dataplane --help lists ingress-gateway; its help shows the route syntax and the ready line")
    void help() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DataplaneMain.Launch top = DataplaneMain.launch(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, top.exitCode());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("ingress-gateway"), out.toString(StandardCharsets.UTF_8));
        out.reset();
        DataplaneMain.launch(new String[] {COMMAND, "--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.contains("--route=[METHOD ]PATH=HOST:PORT[,upstream-name=NAME]"), help);
        assertTrue(help.contains("--max-request-bytes"), help);
        assertTrue(help.contains(DataplaneCommand.READY_LINE), help);
    }
}
