package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JMeterLoadTest {
    @TempDir
    Path dir;

    private Path config(String executionId, Path home) throws IOException {
        return Files.writeString(dir.resolve("config.json"), """
                {"configurations":[{"executionID":"other","jmeterDirectoryPath":"/nowhere","runtimeJarName":"x.jar"},
                 {"executionID":"%s","jmeterDirectoryPath":"%s","runtimeJarName":"ApacheJMeter-5.6.3.jar"}]}
                """.formatted(executionId, home));
    }

    @Test
    @DisplayName("JMeter's home is found in jmeter-maven-plugin's config.json by execution id")
    void install() throws IOException {
        Path home = dir.resolve("jmeter");
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("bin/ApacheJMeter-5.6.3.jar"), "");
        JMeterLoad.Install i = JMeterLoad.Install.fromPluginConfig(config("configuration", home), "configuration");
        assertEquals(new JMeterLoad.Install(home, "ApacheJMeter-5.6.3.jar"), i);
        assertEquals(home.resolve("bin"), i.bin());
    }

    @Test
    @DisplayName("a missing config.json, execution or launcher jar is refused with what to do")
    void refused() throws IOException {
        String none = assertThrows(IllegalStateException.class,
                () -> JMeterLoad.Install.fromPluginConfig(dir.resolve("config.json"), "configuration")).getMessage();
        assertTrue(none.contains("configure goal"), none);
        Path cfg = config("fetch", dir.resolve("jmeter"));
        String noExec = assertThrows(IllegalStateException.class,
                () -> JMeterLoad.Install.fromPluginConfig(cfg, "configuration")).getMessage();
        assertTrue(noExec.endsWith("has no configuration for execution 'configuration'"), noExec);
        Path cfg2 = config("configuration", dir.resolve("jmeter"));
        String noJar = assertThrows(IllegalStateException.class,
                () -> JMeterLoad.Install.fromPluginConfig(cfg2, "configuration")).getMessage();
        assertTrue(noJar.contains("ApacheJMeter-5.6.3.jar is missing"), noJar);
    }

    @Test
    @DisplayName("the command line: CPU prefix, heap, non-GUI plan, JTL format file, log, then each property as -J")
    void command() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("clients", "1,5");
        props.put("auth.url", "http://127.0.0.1:1234");
        List<String> cmd = JMeterLoad.command(List.of("taskset", "-c", "0"), Path.of("/jdk/bin/java"), 512,
                new JMeterLoad.Install(Path.of("/jm"), "ApacheJMeter.jar"), Path.of("/p/acmeair.jmx"),
                Path.of("/p/jtl.properties"), props, Path.of("/run/jmeter.log"));
        assertEquals(List.of("taskset", "-c", "0", "/jdk/bin/java", "-Xms256m", "-Xmx512m", "-Djava.awt.headless=true",
                "-jar", "/jm/bin/ApacheJMeter.jar", "-n", "-t", "/p/acmeair.jmx", "-q", "/p/jtl.properties",
                "-j", "/run/jmeter.log", "-Jclients=1,5", "-Jauth.url=http://127.0.0.1:1234"), cmd);
    }

    @Test
    @DisplayName("run returns the process's exit code and writes its output to the console file")
    void run() throws Exception {
        Path home = Files.createDirectories(dir.resolve("jm/bin")).getParent();
        Path console = dir.resolve("out.txt");
        int code = JMeterLoad.run(List.of("sh", "-c", "echo started; exit 3"), new JMeterLoad.Install(home, "x.jar"), console);
        assertEquals(3, code);
        assertEquals("started\n", Files.readString(console));
    }
}
