package dev.meshbench.dataplane.config;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which TLS implementation the relays use for mesh mutual TLS ({@code --tls-provider}). Istio's Envoy uses
 * BoringSSL; Netty reaches it through netty-tcnative ({@link SslProvider#OPENSSL}; the native library here is
 * {@code netty-tcnative-boringssl-static}, linux x86_64 only). Peer checks are the same with both: the JDK's PKIX
 * trust manager against the mesh CA (BoringSSL hands it every peer chain), client certificates required when
 * terminating, SPIFFE ids checked by the relay after the handshake.
 *
 * <p>BoringSSL counts as usable when netty-tcnative loads ({@link OpenSsl#isAvailable()}) <em>and</em> a mutual-TLS
 * handshake in memory succeeds ({@link BoringSslSelfTest}): a netty-tcnative that does not match the Netty version
 * loads, then fails every handshake.
 */
public enum TlsProvider {
    /** BoringSSL when it is usable in this JVM, else the JDK. */
    AUTO("auto"),
    /** BoringSSL through netty-tcnative; refused where it is not usable. */
    BORINGSSL("boringssl"),
    /** The JDK's own TLS (SunJSSE). */
    JDK("jdk");

    /** The option that chooses it on the command line. */
    public static final String OPTION = "--tls-provider";
    public static final TlsProvider DEFAULT = AUTO;

    private final String word;

    TlsProvider(String word) {
        this.word = word;
    }

    /** As on the command line, in the ready line and in {@code /stats}: {@code auto}, {@code boringssl}, {@code jdk}. */
    public String word() {
        return word;
    }

    /** {@code auto}, {@code boringssl} or {@code jdk} (case and surrounding blanks ignored). */
    public static TlsProvider parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.word.equals(t)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(OPTION + " must be auto, boringssl or jdk (got '" + text + "')"));
    }

    /**
     * The provider to use in this JVM: {@link #BORINGSSL} or {@link #JDK}, never {@link #AUTO}.
     *
     * @throws IllegalStateException for {@link #BORINGSSL} where BoringSSL is not usable, naming the option and why
     */
    public TlsProvider resolve() {
        BoringSslSelfTest.Result boringSsl = BoringSslSelfTest.result();
        return resolve(boringSsl.usable(), boringSsl.problem());
    }

    /** {@link #resolve()} for a given usability of BoringSSL (tests decide it). */
    TlsProvider resolve(boolean boringSslUsable, String problem) {
        return switch (this) {
            case AUTO -> boringSslUsable ? BORINGSSL : JDK;
            case JDK -> JDK;
            case BORINGSSL -> {
                if (!boringSslUsable) {
                    throw new IllegalStateException(OPTION + " " + word + ": BoringSSL (netty-tcnative-boringssl-static, built for "
                            + "linux x86_64) is not usable in this JVM: " + problem + "; use " + OPTION + " auto or jdk");
                }
                yield BORINGSSL;
            }
        };
    }

    /** Netty's provider: {@link SslProvider#OPENSSL} for BoringSSL, {@link SslProvider#JDK}; {@link #AUTO} is resolved first. */
    public SslProvider sslProvider() {
        return switch (resolve()) {
            case BORINGSSL -> SslProvider.OPENSSL;
            case JDK -> SslProvider.JDK;
            case AUTO -> throw new IllegalStateException("auto resolves to boringssl or jdk");
        };
    }

    /** Whether this resolves without error here ({@link #BORINGSSL} only where BoringSSL is usable). */
    public boolean usable() {
        return this != BORINGSSL || BoringSslSelfTest.result().usable();
    }

    /** The resolved providers this JVM can run: {@code [BORINGSSL, JDK]}, or {@code [JDK]} where BoringSSL is not usable. */
    public static List<TlsProvider> available() {
        return BORINGSSL.usable() ? List.of(BORINGSSL, JDK) : List.of(JDK);
    }

    /** Why BoringSSL is not usable here; empty when it is. */
    public static Optional<String> boringSslProblem() {
        return Optional.ofNullable(BoringSslSelfTest.result().problem());
    }

    /** For logs: the resolved provider and its implementation, e.g. {@code boringssl (BoringSSL via netty-tcnative)}. */
    public String describe() {
        return switch (resolve()) {
            case BORINGSSL -> "boringssl (" + OpenSsl.versionString() + " via netty-tcnative)";
            case JDK -> "jdk (Java " + Runtime.version() + ")";
            case AUTO -> throw new IllegalStateException("auto resolves to boringssl or jdk");
        };
    }

    /** The innermost cause of {@code t}, as {@code SimpleName: message}. */
    static String reason(Throwable t) {
        if (t == null) {
            return "no reason given";
        }
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.getClass().getName() : c.getClass().getSimpleName() + ": " + c.getMessage();
    }
}
