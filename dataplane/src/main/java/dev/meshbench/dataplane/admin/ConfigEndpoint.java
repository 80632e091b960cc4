package dev.meshbench.dataplane.admin;

import java.util.concurrent.CompletableFuture;

/** What the admin endpoint's {@code /config} serves: the listener configuration in force, and a new one to switch to. */
public interface ConfigEndpoint {
    /** What {@code GET /config} answers: {@code {"version":...,"listeners":[{"name":...,"address":...,"spec":...}]}}. */
    String configJson();

    /**
     * Parses and applies a new configuration off the caller's thread.
     *
     * @param version the request's {@code ?version=}, null when it had none or several
     * @param body    the request body, the command's arguments one per line
     * @return completes with what {@code GET /config} then answers once the new configuration serves new connections,
     *         or exceptionally with a {@link dev.meshbench.dataplane.config.ConfigRefusedException} (nothing changed)
     */
    CompletableFuture<String> putConfig(String version, String body);
}
