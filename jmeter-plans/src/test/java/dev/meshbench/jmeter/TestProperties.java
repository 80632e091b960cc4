package dev.meshbench.jmeter;

import java.util.Properties;

/** JMeter properties for tests, from alternating keys and values. */
public final class TestProperties {
    private TestProperties() {
    }

    public static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }
}
