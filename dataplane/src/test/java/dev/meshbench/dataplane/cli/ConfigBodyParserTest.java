package dev.meshbench.dataplane.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.dataplane.ConfigRevision;
import dev.meshbench.dataplane.config.ConfigRefusedException;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the body of PUT /config")
class ConfigBodyParserTest {
    private static final ConfigVersion V2 = new ConfigVersion("v2");

    @TempDir
    static Path dir;

    @BeforeAll
    static void pem() {
        CertificateAuthority ca = CertificateAuthority.create("body test CA");
        ca.writeCertificatePem(dir.resolve("ca.pem"));
        ca.issue(CertificateSpec.workload("cluster.local", "default", "booking")).writePem(dir, "w");
    }

    /** The parser of a command that was started with {@code args} (parsed, not started). */
    private static ConfigBodyParser running(String... args) {
        var parsed = DataplaneMain.commandLine(new DataplaneCommand(false)).parseArgs(args);
        return new ConfigBodyParser((ProxyCommand) parsed.subcommand().commandSpec().userObject());
    }

    private static ConfigBodyParser sidecarWithTlsFiles() {
        return running("sidecar", "--name", "sidecar-booking", "--admin-port", "15000", "--io-threads", "2", "--drain-seconds", "0.5",
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:9",
                "--ca-file", dir.resolve("ca.pem").toString(), "--cert-file", dir.resolve("w.crt").toString(),
                "--key-file", dir.resolve("w.key").toString());
    }

    @Test
    @DisplayName("options it leaves out keep the running values: a body of --listener lines may add mutual TLS with the files "
            + "the process started with")
    void omittedOptionsKeepRunningValues() throws ConfigRefusedException {
        String mtls = "name=mongo,port=0,upstream=127.0.0.1:15443,upstream-name=egress-gateway,tls=mtls-originate,sni=mongo.meshbench.test";
        ConfigRevision r = sidecarWithTlsFiles().parse(V2, "--listener\n" + mtls + "\r\n--listener=name=inbound,port=0,upstream=127.0.0.1:9\n");
        assertEquals(V2, r.version());
        assertEquals("sidecar-booking", r.config().name());
        assertEquals(15000, r.config().adminPort());
        assertEquals(2, r.config().ioThreads());
        assertEquals(Duration.ofMillis(500), r.config().drainTime());
        assertNotNull(r.config().tls());
        assertEquals("mtls-originate", r.config().listeners().get(0).tlsMode());
        assertEquals(Map.of("mongo", mtls, "inbound", "name=inbound,port=0,upstream=127.0.0.1:9"), r.specs());
    }

    @Test
    @DisplayName("a fixed option given again with the same value is accepted, a path compared as the file it names")
    void sameValuesAccepted() throws ConfigRefusedException {
        ConfigRevision r = sidecarWithTlsFiles().parse(V2, String.join("\n", "sidecar", "--name", "sidecar-booking", "--admin-port", "15000",
                "--io-threads", "2", "--drain-seconds", "0.50", "--ca-file", dir.resolve("./ca.pem").toString(),
                "--listener", "name=inbound,port=0,upstream=127.0.0.1:10"));
        assertEquals("127.0.0.1:10", r.config().listeners().get(0).routing().describe());
    }

    @Test
    @DisplayName("@file arguments are not read: the body is the whole configuration")
    void noAtFiles() {
        ConfigRefusedException e = assertThrows(ConfigRefusedException.class,
                () -> sidecarWithTlsFiles().parse(V2, "@" + dir.resolve("ca.pem")));
        assertEquals(ConfigRefusedException.Reason.BAD_INPUT, e.reason());
        assertEquals("sidecar: unexpected argument '@" + dir.resolve("ca.pem") + "'", e.getMessage());
    }

    @Test
    @DisplayName("a gateway's or SNI proxy's listener spec is its listener options as given")
    void singleListenerSpec() throws ConfigRefusedException {
        ConfigRevision r = running("sni-proxy", "--name", "sni-proxy", "--route", "*=127.0.0.1:1")
                .parse(V2, "--route\n*.meshbench.test=127.0.0.1:2,upstream-name=mongo\n--listen-port\n0\n--route\nx.test=127.0.0.1:3");
        assertEquals(Map.of("sni", "--listen-port 0 --route *.meshbench.test=127.0.0.1:2,upstream-name=mongo --route x.test=127.0.0.1:3"),
                r.specs());
        assertEquals(List.of("sni"), r.config().listeners().stream().map(l -> l.name()).toList());
    }
}
