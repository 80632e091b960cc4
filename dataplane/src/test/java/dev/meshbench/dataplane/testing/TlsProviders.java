package dev.meshbench.dataplane.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.meshbench.dataplane.config.TlsProvider;
import java.util.stream.Stream;

/**
 * The TLS providers tests run the relays with. Every test over providers is listed for both; where BoringSSL is
 * not usable (see {@link TlsProvider#boringSslProblem()}) its variants are skipped with the reason, not dropped.
 */
public final class TlsProviders {
    private TlsProviders() {
    }

    /** {@code boringssl} and {@code jdk}, for {@code @MethodSource("dev.meshbench.dataplane.testing.TlsProviders#both")}. */
    public static Stream<TlsProvider> both() {
        return Stream.of(TlsProvider.BORINGSSL, TlsProvider.JDK);
    }

    /** Skips the test when {@code provider} cannot run here. */
    public static void assumeUsable(TlsProvider provider) {
        assumeTrue(provider.usable(), () -> "BoringSSL is not usable here: " + TlsProvider.boringSslProblem().orElse("?"));
    }
}
