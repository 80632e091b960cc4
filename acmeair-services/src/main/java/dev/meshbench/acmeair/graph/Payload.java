package dev.meshbench.acmeair.graph;

import java.util.Arrays;

/** Bodies of a given size: ASCII 'x's, so a person with curl sees text. */
final class Payload {
    private Payload() {
    }

    static byte[] of(int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) 'x');
        return b;
    }
}
