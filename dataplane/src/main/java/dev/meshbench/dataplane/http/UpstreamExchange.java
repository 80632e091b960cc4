package dev.meshbench.dataplane.http;

import io.netty.handler.codec.http.FullHttpResponse;

/**
 * The request a pooled upstream connection is serving now; the connection's {@link UpstreamResponseHandler}
 * completes it exactly once, with the response or with why there is none. Called on the upstream connection's
 * event loop.
 */
interface UpstreamExchange {
    /** The full response; ownership passes to the exchange. */
    void response(FullHttpResponse response);

    /** The connection failed or closed before a full response. */
    void failed(String reason);
}
