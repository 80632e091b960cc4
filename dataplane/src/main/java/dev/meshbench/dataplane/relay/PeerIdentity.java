package dev.meshbench.dataplane.relay;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.StandardConstants;

/** Reads who a TLS peer is (URI SANs such as SPIFFE ids) and which server name a client asked for. */
public final class PeerIdentity {
    private static final int SAN_URI = 6;

    private PeerIdentity() {
    }

    /** URI subject alternative names of the peer's leaf certificate. */
    public static List<String> uris(SSLSession session) throws SSLPeerUnverifiedException {
        Certificate[] chain = session.getPeerCertificates();
        List<String> out = new ArrayList<>();
        if (chain.length > 0 && chain[0] instanceof X509Certificate leaf) {
            try {
                Collection<List<?>> sans = leaf.getSubjectAlternativeNames();
                if (sans != null) {
                    for (List<?> san : sans) {
                        if (san.size() >= 2 && Integer.valueOf(SAN_URI).equals(san.get(0))) {
                            out.add(String.valueOf(san.get(1)));
                        }
                    }
                }
            } catch (CertificateParsingException e) {
                return out;
            }
        }
        return out;
    }

    public static boolean hasUri(SSLSession session, URI expected) throws SSLPeerUnverifiedException {
        return uris(session).contains(expected.toString());
    }

    /** The peer's URI SANs, or its subject when it has none; for logs. */
    public static String describe(SSLSession session) {
        try {
            List<String> uris = uris(session);
            if (!uris.isEmpty()) {
                return String.join(",", uris);
            }
            return session.getPeerPrincipal().getName();
        } catch (SSLPeerUnverifiedException e) {
            return "an unverified peer";
        }
    }

    /** The host name a client sent as SNI in the handshake this side terminated. */
    public static Optional<String> requestedServerName(SSLSession session) {
        if (session instanceof ExtendedSSLSession ext) {
            for (SNIServerName n : ext.getRequestedServerNames()) {
                if (n.getType() == StandardConstants.SNI_HOST_NAME) {
                    return Optional.of(n instanceof SNIHostName h ? h.getAsciiName() : new String(n.getEncoded(), StandardCharsets.US_ASCII));
                }
            }
        }
        return Optional.empty();
    }
}
