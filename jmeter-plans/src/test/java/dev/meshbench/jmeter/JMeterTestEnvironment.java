package dev.meshbench.jmeter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;

/**
 * A minimal JMeter home for unit tests: bin/jmeter.properties, saveservice.properties and upgrade.properties
 * copied from JMeter's own ApacheJMeter_config jar, loaded once per JVM the way JMeter does at start-up.
 */
public final class JMeterTestEnvironment {

    private static Path home;

    private JMeterTestEnvironment() {
    }

    public static synchronized Path init() {
        if (home == null) {
            try {
                home = Files.createTempDirectory("meshbench-jmeter-home");
                Path bin = Files.createDirectories(home.resolve("bin"));
                for (String name : new String[] {"jmeter.properties", "saveservice.properties", "upgrade.properties"}) {
                    try (InputStream in = JMeterTestEnvironment.class.getResourceAsStream("/bin/" + name)) {
                        if (in == null) {
                            throw new IllegalStateException("bin/" + name + " not on the test classpath (ApacheJMeter_config)");
                        }
                        Files.copy(in, bin.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                // deleteOnExit() removes only empty folders: the home (bin/ and its files) goes with the test JVM.
                Path created = home;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try (var paths = Files.walk(created)) {
                        paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                    } catch (IOException ignored) {
                        // best effort at JVM exit
                    }
                }, "jmeter-test-home-cleanup"));
            } catch (IOException e) {
                throw new UncheckedIOException("creating a JMeter home for tests", e);
            }
            // JMeter's properties fall back to system properties, and surefire turns the workload properties of a
            // `mvn -Pload -Dclients=...` command line into system properties: keep the tests independent of them.
            // Every property the plan has a default for (the driver's, from the kit's catalogue), the airports and the
            // per-service URLs.
            java.util.Set<String> keys = new java.util.TreeSet<>(dev.meshbench.jmeter.workload.WorkloadProperties.DEFAULTS.keySet());
            keys.add(dev.meshbench.jmeter.workload.WorkloadProperties.AIRPORTS);
            dev.meshbench.jmeter.workload.WorkloadProperties.SERVICES.forEach(svc -> keys.add(svc + ".url"));
            keys.forEach(System::clearProperty);
            JMeterUtils.setJMeterHome(home.toString());
            JMeterUtils.loadJMeterProperties(home.resolve("bin/jmeter.properties").toString());
            JMeterUtils.setLocale(Locale.ENGLISH);
        }
        return home;
    }

    /** Sets JMeter properties for one test; {@code null} removes. Returns the previous values for {@link #restore}. */
    public static Properties setProperties(String... keyValues) {
        init();
        Properties props = JMeterUtils.getJMeterProperties();
        Properties previous = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            String key = keyValues[i];
            String old = props.getProperty(key);
            previous.setProperty(key, old == null ? NONE : old);
            if (keyValues[i + 1] == null) {
                props.remove(key);
            } else {
                props.setProperty(key, keyValues[i + 1]);
            }
        }
        return previous;
    }

    private static final String NONE = "\u0000absent";

    public static void restore(Properties previous) {
        Properties props = JMeterUtils.getJMeterProperties();
        for (String key : previous.stringPropertyNames()) {
            String old = previous.getProperty(key);
            if (NONE.equals(old)) {
                props.remove(key);
            } else {
                props.setProperty(key, old);
            }
        }
    }

    /** A fresh thread context with empty variables, as a JMeter thread has when it starts. */
    public static JMeterContext freshContext() {
        init();
        JMeterContext context = JMeterContextService.getContext();
        context.clear();
        context.setVariables(new JMeterVariables());
        return context;
    }

    /** Runs {@code body} with the JVM's default locale and time zone changed, restoring them afterwards. */
    public static void withDefaults(Locale locale, TimeZone zone, ThrowingRunnable body) throws Exception {
        Locale oldLocale = Locale.getDefault();
        TimeZone oldZone = TimeZone.getDefault();
        try {
            Locale.setDefault(locale);
            TimeZone.setDefault(zone);
            body.run();
        } finally {
            Locale.setDefault(oldLocale);
            TimeZone.setDefault(oldZone);
        }
    }

    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }
}
