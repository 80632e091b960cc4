package dev.meshbench.dataplane.loopback;

import dev.meshbench.component.MeshNames;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.pki.CertificateAuthority;
import dev.meshbench.pki.CertificateSpec;
import dev.meshbench.pki.IssuedCertificate;
import java.net.URI;
import java.util.List;

/**
 * Per-run certificates for a loopback chain: a mesh CA with SPIFFE workload certificates for a sidecar and the
 * egress gateway, and a separate "external" CA for the TLS server standing in for MongoDB, as in a real mesh
 * where MongoDB's certificate does not come from the mesh.
 *
 * @param meshCa        the mesh CA
 * @param sidecar       workload certificate of the sidecar (client and server)
 * @param gateway       workload certificate of the egress gateway
 * @param externalCa    the CA the app trusts for MongoDB
 * @param server        the MongoDB stand-in's certificate, for {@code serverName}
 * @param serverName    the external host name the app connects to
 */
public record MeshIdentities(CertificateAuthority meshCa, IssuedCertificate sidecar, IssuedCertificate gateway,
        CertificateAuthority externalCa, IssuedCertificate server, String serverName) {
    public static final String TRUST_DOMAIN = "cluster.local";
    public static final String DEFAULT_SERVER_NAME = MeshNames.MONGO_HOST;

    public static MeshIdentities create() {
        return create(DEFAULT_SERVER_NAME);
    }

    public static MeshIdentities create(String serverName) {
        CertificateAuthority mesh = CertificateAuthority.create("meshbench mesh CA");
        CertificateAuthority external = CertificateAuthority.create("meshbench external CA");
        return new MeshIdentities(mesh,
                mesh.issue(CertificateSpec.workload(TRUST_DOMAIN, "meshbench", "booking")),
                mesh.issue(CertificateSpec.workload(TRUST_DOMAIN, "istio-system", "istio-egressgateway")),
                external,
                external.issue(CertificateSpec.server(serverName, List.of(serverName))),
                serverName);
    }

    public TlsMaterial sidecarTls() {
        return TlsMaterial.of(meshCa.certificate(), sidecar);
    }

    public TlsMaterial gatewayTls() {
        return TlsMaterial.of(meshCa.certificate(), gateway);
    }

    /** The SPIFFE id in the gateway's certificate (what sidecars check with {@code peer-id}). */
    public URI gatewayId() {
        return URI.create("spiffe://" + TRUST_DOMAIN + "/ns/istio-system/sa/istio-egressgateway");
    }
}
