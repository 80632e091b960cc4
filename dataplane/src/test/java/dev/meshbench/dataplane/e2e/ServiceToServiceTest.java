package dev.meshbench.dataplane.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.Routing;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import dev.meshbench.dataplane.config.Upstream;
import dev.meshbench.dataplane.config.UpstreamTls;
import dev.meshbench.dataplane.loopback.EchoServer;
import dev.meshbench.dataplane.testing.Eventually;
import dev.meshbench.dataplane.testing.TlsProviders;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A call between services: caller's sidecar =mTLS=> callee's sidecar -> callee (plain HTTP bytes, L4 relay), with
 * every pairing of TLS providers, so a BoringSSL sidecar and a JDK one interoperate both ways.
 */
class ServiceToServiceTest {
    static Stream<Arguments> providerPairs() {
        return TlsProviders.both().flatMap(caller -> TlsProviders.both().map(callee -> Arguments.of(caller, callee)));
    }

    @ParameterizedTest(name = "caller {0}, callee {1}")
    @MethodSource("providerPairs")
    @DisplayName("carries a call from one sidecar to another over mutual TLS, each checking the other's workload certificate")
    void sidecarToSidecar(TlsProvider callerProvider, TlsProvider calleeProvider) throws Exception {
        TlsProviders.assumeUsable(callerProvider);
        TlsProviders.assumeUsable(calleeProvider);
        CertificateAuthority mesh = CertificateAuthority.create("mesh CA");
        TlsMaterial booking = TlsMaterial.of(mesh.certificate(), mesh.issue(CertificateSpec.workload("cluster.local", "default", "booking")));
        TlsMaterial customer = TlsMaterial.of(mesh.certificate(), mesh.issue(CertificateSpec.workload("cluster.local", "default", "customer")));
        try (EchoServer customerApp = EchoServer.start(null, EchoServer.Mode.ECHO);
                DataplaneBootstrap customerSidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-customer", List.of(
                        new ListenerConfig("inbound", 0, true, new Routing.Fixed(Upstream.of(HostAndPort.of(customerApp.address()), "customer")),
                                UpstreamTls.NONE)), customer).withTlsProvider(calleeProvider))) {
            InetSocketAddress customerInbound = customerSidecar.start().listener("inbound");
            try (DataplaneBootstrap bookingSidecar = new DataplaneBootstrap(ComponentConfig.of("sidecar-booking", List.of(
                    ListenerConfig.mtlsOriginating("to-customer", 0, Upstream.of(HostAndPort.of(customerInbound), "sidecar-customer"),
                            new UpstreamTls.MutualTls("customer.default.svc", URI.create("spiffe://cluster.local/ns/default/sa/customer")))),
                    booking).withTlsProvider(callerProvider))) {
                InetSocketAddress entry = bookingSidecar.start().listener("to-customer");
                byte[] request = "POST /customer/internal/validateid HTTP/1.1\r\nHost: customer\r\nContent-Length: 0\r\n\r\n"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                try (Socket app = new Socket(entry.getAddress(), entry.getPort())) {
                    app.setSoTimeout(10_000);
                    app.getOutputStream().write(request);
                    assertArrayEquals(request, app.getInputStream().readNBytes(request.length));
                }
                assertEquals(request.length, bookingSidecar.stats("to-customer").bytesClientToUpstream());
                assertEquals(request.length, customerSidecar.stats("inbound").bytesClientToUpstream());
                assertEquals(request.length, customerSidecar.stats("inbound").bytesUpstreamToClient());
                Eventually.await("closed", () -> customerSidecar.stats("inbound").active() == 0);
            }
        }
    }
}
