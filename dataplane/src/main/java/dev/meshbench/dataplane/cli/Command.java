package dev.meshbench.dataplane.cli;

import java.util.Arrays;
import java.util.Optional;

/** The components this jar can run. */
public enum Command {
    SIDECAR("sidecar"),
    EGRESS_GATEWAY("egress-gateway"),
    SNI_PROXY("sni-proxy");

    private final String word;

    Command(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    public static Optional<Command> byWord(String w) {
        return Arrays.stream(values()).filter(c -> c.word.equals(w)).findFirst();
    }
}
