package dev.meshbench.dataplane.sni;

/** What {@link ClientHelloReader} made of the bytes seen so far. */
public sealed interface ClientHelloResult {
    /** The ClientHello is not complete yet; read more. */
    record NeedMore() implements ClientHelloResult {
    }

    /** A complete ClientHello naming this server (normalized: lower case, no trailing dot). */
    record ServerName(String name) implements ClientHelloResult {
    }

    /** A complete, well-formed ClientHello without a server_name extension (a client that connected by IP). */
    record NoServerName() implements ClientHelloResult {
    }

    /** Not a usable ClientHello; the reason is safe to log (it never quotes the peer's bytes verbatim). */
    record Invalid(String reason) implements ClientHelloResult {
    }

    ClientHelloResult NEED_MORE = new NeedMore();
    ClientHelloResult NO_SERVER_NAME = new NoServerName();
}
