package dev.meshbench.dataplane.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

@DisplayName("proxy command lines")
class ProxyCommandsTest {
    static final String SIDECAR = "sidecar";
    static final String EGRESS_GATEWAY = "egress-gateway";
    static final String SNI_PROXY = "sni-proxy";

    @TempDir
    static Path dir;
    static List<String> tlsArgs;

    @BeforeAll
    static void pem() {
        CertificateAuthority ca = CertificateAuthority.create("cli test CA");
        ca.writeCertificatePem(dir.resolve("ca.pem"));
        ca.issue(CertificateSpec.workload("cluster.local", "default", "booking")).writePem(dir, "w");
        tlsArgs = List.of("--ca-file", dir.resolve("ca.pem").toString(), "--cert-file", dir.resolve("w.crt").toString(),
                "--key-file", dir.resolve("w.key").toString());
    }

    /** Parses as {@code dataplane <command> <args>} does and checks the options, without starting anything. */
    private static ComponentConfig parse(String command, List<String> args) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(args);
        CommandLine.ParseResult r = DataplaneMain.commandLine(new DataplaneCommand(false)).parseArgs(all.toArray(String[]::new));
        return ((ProxyCommand) r.subcommand().commandSpec().userObject()).config();
    }

    private static ComponentConfig read(String c, String... args) {
        return parse(c, List.of(args));
    }

    private static ComponentConfig readWithTls(String c, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(tlsArgs);
        return parse(c, all);
    }

    /** The message of the one error line (between {@code dataplane <command>: } and {@code  (see --help)}). */
    private static String error(String c, String... args) {
        return ComponentCommandLine.describe(assertThrows(ParameterException.class, () -> parse(c, List.of(args))));
    }

    @Test
    @DisplayName("reads a sidecar with a plain inbound listener and an mTLS-originating Mongo listener")
    void sidecar() {
        ComponentConfig c = readWithTls(SIDECAR, "--name", "sidecar-booking", "--admin-port=0",
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:8080,upstream-name=booking",
                "--listener", "name=mongo,port=0,upstream=127.0.0.1:40123,upstream-name=egress-gateway,tls=mtls-originate,"
                        + "sni=mongo.meshbench.test,peer-id=spiffe://cluster.local/ns/istio-system/sa/istio-egressgateway");
        assertEquals("sidecar-booking", c.name());
        assertEquals(2, c.listeners().size());
        ListenerConfig mongo = c.listeners().get(1);
        assertEquals("mongo", mongo.name());
        assertEquals("egress-gateway", ((Routing.Fixed) mongo.routing()).upstream().displayName());
        UpstreamTls.MutualTls tls = assertInstanceOf(UpstreamTls.MutualTls.class, mongo.upstreamTls());
        assertEquals("mongo.meshbench.test", tls.serverName());
        assertEquals(URI.create("spiffe://cluster.local/ns/istio-system/sa/istio-egressgateway"), tls.peerIdentity());
        assertNotNull(c.tls());
    }

    @Test
    @DisplayName("reads upstream=a|b|c as a round robin over one service's replicas with one name, one upstream as a fixed route")
    void replicas() {
        ComponentConfig c = readWithTls(SIDECAR, "--name", "sidecar-booking",
                "--listener", "name=to-customer,port=0,upstream=127.0.0.1:7001|127.0.0.1:7002|[::1]:7003,upstream-name=customer",
                "--listener", "name=to-customer-mesh,port=0,upstream=customer-0.local:15006|customer-1.local:15006,"
                        + "upstream-name=sidecar-customer,tls=mtls-originate,sni=customer.default.svc,peer-id=spiffe://cluster.local/ns/default/sa/customer",
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:8080,tls=mtls-terminate");
        Routing.RoundRobin plain = assertInstanceOf(Routing.RoundRobin.class, c.listeners().get(0).routing());
        assertEquals(List.of(Upstream.of(new HostAndPort("127.0.0.1", 7001), "customer"), Upstream.of(new HostAndPort("127.0.0.1", 7002), "customer"),
                Upstream.of(new HostAndPort("::1", 7003), "customer")), plain.upstreams());
        assertEquals("none", c.listeners().get(0).tlsMode());
        ListenerConfig mesh = c.listeners().get(1);
        Routing.RoundRobin replicas = assertInstanceOf(Routing.RoundRobin.class, mesh.routing());
        assertEquals(List.of("customer-0.local:15006", "customer-1.local:15006"),
                replicas.upstreams().stream().map(u -> u.address().toString()).toList());
        assertTrue(replicas.upstreams().stream().allMatch(u -> u.displayName().equals("sidecar-customer")));
        UpstreamTls.MutualTls tls = assertInstanceOf(UpstreamTls.MutualTls.class, mesh.upstreamTls());
        assertEquals("customer.default.svc", tls.serverName());
        assertEquals(URI.create("spiffe://cluster.local/ns/default/sa/customer"), tls.peerIdentity());
        ListenerConfig inbound = c.listeners().get(2);
        assertEquals(new Routing.Fixed(Upstream.of(new HostAndPort("127.0.0.1", 8080), null)), inbound.routing());
        assertTrue(inbound.terminateMtls());
    }

    @Test
    @DisplayName("an empty entry, a bad host:port or a repeated upstream among replicas is an error naming the listener and the value")
    void badReplicas() {
        for (String upstream : List.of("127.0.0.1:1||127.0.0.1:2", "127.0.0.1:1|", "|127.0.0.1:1", "127.0.0.1:1| |127.0.0.1:2")) {
            String spec = "name=to-customer,port=0,upstream=" + upstream;
            assertEquals("--listener '" + spec + "': upstream '" + upstream + "' has an empty entry (replicas are HOST:PORT|HOST:PORT|...)",
                    error(SIDECAR, "--name", "s", "--listener", spec));
        }
        assertEquals("--listener 'name=to-customer,port=0,upstream=127.0.0.1:1|customer': address must be host:port (got 'customer')",
                error(SIDECAR, "--name", "s", "--listener", "name=to-customer,port=0,upstream=127.0.0.1:1|customer"));
        assertEquals("--listener 'name=to-customer,port=0,upstream=127.0.0.1:1|127.0.0.1:0': port of 127.0.0.1:0 must be 1-65535 (got 0)",
                error(SIDECAR, "--name", "s", "--listener", "name=to-customer,port=0,upstream=127.0.0.1:1|127.0.0.1:0"));
        assertEquals("--listener 'name=to-customer,port=0,upstream=127.0.0.1:1|127.0.0.1:2|127.0.0.1:1': upstream 127.0.0.1:1 is given twice",
                error(SIDECAR, "--name", "s", "--listener", "name=to-customer,port=0,upstream=127.0.0.1:1|127.0.0.1:2|127.0.0.1:1"));
        assertEquals("--listener 'name=to-customer,port=0,upstream=Customer.local:80|customer.LOCAL:80': upstream customer.LOCAL:80 is given twice",
                error(SIDECAR, "--name", "s", "--listener", "name=to-customer,port=0,upstream=Customer.local:80|customer.LOCAL:80"));
    }

    @Test
    @DisplayName("reads an egress gateway in both modes and an SNI proxy with wildcard routes")
    void gatewayAndProxy() {
        ComponentConfig pass = read(EGRESS_GATEWAY, "--name", "egress-gateway", "--listen-port", "0",
                "--mode", "sni-passthrough", "--route", "mongo.meshbench.test=127.0.0.1:40123,upstream-name=mongo");
        assertInstanceOf(Routing.ByClientHello.class, pass.listeners().get(0).routing());
        assertEquals(EgressGatewayCommand.LISTENER, pass.listeners().get(0).name());
        ComponentConfig mtls = readWithTls(EGRESS_GATEWAY, "--name", "egress-gateway", "--mode", "mtls",
                "--route", "*.meshbench.test=127.0.0.1:40124,upstream-name=sni-proxy");
        assertTrue(mtls.listeners().get(0).terminateMtls());
        ComponentConfig proxy = read(SNI_PROXY, "--name", "sni-proxy", "--route", "*.meshbench.test=127.0.0.1:40123",
                "--route", "*=127.0.0.1:40125");
        Routing.ByClientHello r = assertInstanceOf(Routing.ByClientHello.class, proxy.listeners().get(0).routing());
        assertEquals(40125, r.routes().match("x.org").orElseThrow().upstream().address().port());
    }

    @Test
    @DisplayName("--tls-provider is a common option, auto by default; boringssl is checked where it is read")
    void tlsProvider() {
        assertEquals(TlsProvider.AUTO, read(SNI_PROXY, "--name", "p", "--route", "*=h:1").tlsProvider());
        assertEquals(TlsProvider.AUTO, read(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider", "auto").tlsProvider());
        assertEquals(TlsProvider.JDK, read(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider=JDK").tlsProvider());
        assertEquals(TlsProvider.JDK, readWithTls(EGRESS_GATEWAY, "--name", "g", "--mode", "mtls", "--route", "*=h:1",
                "--tls-provider", "jdk").tlsProvider());
        assertEquals(TlsProvider.JDK, readWithTls(SIDECAR, "--name", "s", "--tls-provider", "jdk",
                "--listener", "name=a,port=0,upstream=h:1,tls=mtls-terminate").tlsProvider());
        if (TlsProvider.BORINGSSL.usable()) {
            assertEquals(TlsProvider.BORINGSSL, read(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider", "boringssl")
                    .tlsProvider());
        } else {
            assertTrue(error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider", "boringssl")
                    .startsWith("--tls-provider boringssl: BoringSSL (netty-tcnative-boringssl-static"));
        }
        assertEquals("--tls-provider must be auto, boringssl or jdk (got 'conscrypt')",
                error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider", "conscrypt"));
        assertEquals("--tls-provider is given twice",
                error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--tls-provider", "jdk", "--tls-provider", "jdk"));
    }

    @Test
    @DisplayName("names the option in every error")
    void errorsNameTheOption() {
        assertTrue(error(SIDECAR, "--listener", "name=a,port=0,upstream=127.0.0.1:1").contains("--name is required"));
        assertTrue(error(SIDECAR, "--name", "s").contains("--listener is required"));
        assertTrue(error(SIDECAR, "--name", "s", "--listener", "name=a,port=x,upstream=127.0.0.1:1")
                .matches("--listener 'name=a,port=x,upstream=127.0.0.1:1': port must be .*got 'x'.*"));
        assertTrue(error(SIDECAR, "--name", "s", "--listener", "name=a,port=0").contains("missing upstream="));
        assertTrue(error(SIDECAR, "--name", "s", "--listener", "name=a,port=0,upstream=h:1,colour=red")
                .contains("unknown key 'colour'"));
        assertTrue(error(SIDECAR, "--name", "s", "--listener", "name=a,port=0,upstream=h:1,tls=mtls-originate")
                .contains("needs sni="));
        assertTrue(error(SIDECAR, "--name", "s", "--listener", "name=a,port=0,upstream=h:1,tls=mtls-originate,sni=m.test")
                .contains("--ca-file is required for mutual TLS"));
        assertTrue(error(SIDECAR, "--name", "s", "--bogus", "1").contains("unknown option '--bogus'"));
        assertTrue(error(SIDECAR, "--name").contains("--name needs a value"));
        assertTrue(error(SIDECAR, "--name", "a", "--name", "b").contains("--name is given twice"));
        assertTrue(error(SIDECAR, "--name", "s", "--admin-port", "70000", "--listener", "name=a,port=0,upstream=h:1")
                .contains("--admin-port must be"));
        assertTrue(error(EGRESS_GATEWAY, "--name", "g", "--mode", "tcp", "--route", "*=h:1").contains("--mode must be"));
        assertTrue(error(EGRESS_GATEWAY, "--name", "g", "--mode", "mtls", "--route", "*=h:1").contains("--ca-file"));
        assertTrue(error(SNI_PROXY, "--name", "p").contains("--route is required"));
        assertTrue(error(SNI_PROXY, "--name", "p", "--route", "a.*.org=h:1").contains("--route 'a.*.org=h:1'"));
        assertTrue(error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--ca-file", "x").contains("unknown option '--ca-file'"));
        String missingFile = error(EGRESS_GATEWAY, "--name", "g", "--mode", "mtls", "--route", "*=h:1",
                "--ca-file", "/nonexistent/ca.pem", "--cert-file", "/nonexistent/w.crt", "--key-file", "/nonexistent/w.key");
        assertTrue(missingFile.contains("/nonexistent/"), missingFile);
    }

    @Test
    @DisplayName("the listener-spec converter quotes the spec and says what is wrong with which key")
    void listenerSpecErrors() {
        ListenerSpecConverter listener = new ListenerSpecConverter();
        for (String[] c : new String[][] {
            {"name=a,port=0,upstream=h:1,tls=sideways", "tls must be none, mtls-originate or mtls-terminate (got 'sideways')"},
            {"name=a,port=0,upstream=h:1,sni=m.test", "sni and peer-id apply only with tls=mtls-originate"},
            {"name=a,port=0,upstream=h:1,tls=mtls-originate,sni=m.test,peer-id=a b", "peer-id is not a URI: "},
            {"name=a,name=b,port=0,upstream=h:1", "key 'name' is given twice"},
            {"name=a,port,upstream=h:1", "'port' is not key=value"},
            {"port=0,upstream=h:1", "missing name="},
            {"name=a,port=70000,upstream=h:1", "port must be 0-65535 (got 70000)"},
            {"name=a,port=0,upstream=h", "address must be host:port (got 'h')"}}) {
            String message = assertThrows(TypeConversionException.class, () -> listener.convert(c[0])).getMessage();
            assertTrue(message.startsWith("'" + c[0] + "': " + c[1]), message);
        }
        assertEquals("--listener 'name=a,port=0,upstream=h:1,tls=sideways': tls must be none, mtls-originate or mtls-terminate (got 'sideways')",
                error(SIDECAR, "--name", "s", "--listener", "name=a,port=0,upstream=h:1,tls=sideways"));
        RouteSpecConverter route = new RouteSpecConverter();
        assertEquals("'*.test': a route is PATTERN=HOST:PORT[,upstream-name=NAME]",
                assertThrows(TypeConversionException.class, () -> route.convert("*.test")).getMessage());
        assertEquals("'*=h:1,colour=red': unknown key 'colour' (allowed: upstream-name)",
                assertThrows(TypeConversionException.class, () -> route.convert("*=h:1,colour=red")).getMessage());
        assertEquals("--route '*=h:1,colour=red': unknown key 'colour' (allowed: upstream-name)",
                error(SNI_PROXY, "--name", "p", "--route", "*=h:1,colour=red"));
    }

    @Test
    @DisplayName("--listen-port and --io-threads name the option and the rule")
    void numbers() {
        assertEquals("--listen-port must be a number 0-65535 (got 'x')", error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--listen-port", "x"));
        assertEquals("--io-threads must be a number 0-256, 0 meaning Netty's default (got '300')",
                error(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--io-threads", "300"));
        assertEquals(4, read(SNI_PROXY, "--name", "p", "--route", "*=h:1", "--io-threads=4").ioThreads());
    }
}
