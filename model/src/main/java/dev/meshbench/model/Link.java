package dev.meshbench.model;

import java.util.Objects;

/**
 * One link of a case's MongoDB path: traffic leaves {@code from} for {@code to}, protected as {@code security}
 * says, and {@code to} routes it by a fixed upstream or by the SNI of the app's ClientHello.
 */
public record Link(HopKind from, HopKind to, LinkSecurity security, Routing routing) {
    public Link {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(routing, "routing");
        if (from == to) {
            throw new IllegalArgumentException("a link must join two different hops, got " + from + " -> " + to);
        }
    }

    /** How the receiving hop picks where to send the stream next. */
    public enum Routing {
        /** The receiving hop is the destination, or forwards to one configured upstream. */
        FIXED,
        /** The receiving hop reads the server name from the app's ClientHello (no termination) and routes by it. */
        SNI_EXACT,
        /** As {@link #SNI_EXACT}, with wildcard host patterns such as {@code *.example}. */
        SNI_WILDCARD
    }
}
