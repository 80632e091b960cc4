package dev.meshbench.dataplane.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TlsProviderTest {
    @Test
    @DisplayName("parses auto, boringssl and jdk; anything else names the option and the accepted values")
    void parse() {
        assertEquals(TlsProvider.AUTO, TlsProvider.parse("auto"));
        assertEquals(TlsProvider.BORINGSSL, TlsProvider.parse(" BoringSSL "));
        assertEquals(TlsProvider.JDK, TlsProvider.parse("jdk"));
        for (String bad : List.of("openssl", "", "auto,jdk")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsProvider.parse(bad));
            assertEquals("--tls-provider must be auto, boringssl or jdk (got '" + bad + "')", e.getMessage());
        }
    }

    @Test
    @DisplayName("auto becomes boringssl where BoringSSL is usable and jdk where not; boringssl where not is an error saying why")
    void resolve() {
        assertEquals(TlsProvider.BORINGSSL, TlsProvider.AUTO.resolve(true, null));
        assertEquals(TlsProvider.JDK, TlsProvider.AUTO.resolve(false, "no native library"));
        assertEquals(TlsProvider.JDK, TlsProvider.JDK.resolve(true, null));
        assertEquals(TlsProvider.BORINGSSL, TlsProvider.BORINGSSL.resolve(true, null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TlsProvider.BORINGSSL.resolve(false, "no native library"));
        assertEquals("--tls-provider boringssl: BoringSSL (netty-tcnative-boringssl-static, built for linux x86_64) is not usable in "
                + "this JVM: no native library; use --tls-provider auto or jdk", e.getMessage());
    }

    @Test
    @DisplayName("netty-tcnative-boringssl-static loads on linux x86_64 (the platform whose native library the pom ships)")
    void nativeLibraryLoads() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux") && (arch.equals("amd64") || arch.equals("x86_64")),
                "only linux x86_64 has the native library");
        assertTrue(OpenSsl.isAvailable(), () -> "OpenSsl.unavailabilityCause(): " + OpenSsl.unavailabilityCause());
        assertTrue(OpenSsl.versionString().startsWith("BoringSSL"), OpenSsl.versionString());
    }

    @Test
    @DisplayName("in this JVM auto, the list of usable providers and the reason agree with the BoringSSL handshake self-test")
    void thisJvm() {
        boolean usable = TlsProvider.BORINGSSL.usable();
        assertEquals(usable ? TlsProvider.BORINGSSL : TlsProvider.JDK, TlsProvider.AUTO.resolve());
        assertEquals(usable ? List.of(TlsProvider.BORINGSSL, TlsProvider.JDK) : List.of(TlsProvider.JDK), TlsProvider.available());
        assertEquals(!usable, TlsProvider.boringSslProblem().isPresent());
        assertEquals(usable ? SslProvider.OPENSSL : SslProvider.JDK, TlsProvider.AUTO.sslProvider());
        assertEquals(SslProvider.JDK, TlsProvider.JDK.sslProvider());
        if (!usable) {
            String problem = TlsProvider.boringSslProblem().orElseThrow();
            assertTrue(problem.startsWith("netty-tcnative "), problem);
            String message = assertThrows(IllegalStateException.class, TlsProvider.BORINGSSL::resolve).getMessage();
            assertTrue(message.startsWith("--tls-provider boringssl: ") && message.contains(problem), message);
        }
    }
}
