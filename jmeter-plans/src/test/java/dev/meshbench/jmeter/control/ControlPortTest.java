package dev.meshbench.jmeter.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.JMeterTestEnvironment;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter in non-GUI mode, started as a real process the way the kit starts it (with the kit's {@code -q} file),
 * opens no UDP control port, so a {@code StopTestNow} datagram from anyone on the network cannot end a benchmark.
 * The same JMeter without the file does open it: the check can see a listener when there is one.
 */
class ControlPortTest {
    private static final Path KIT_PROPERTIES = Path.of("src/main/jmeter/meshbench-jtl.properties");
    /** A plan that runs one thread for a few seconds: a debug sampler every 200 ms. */
    private static final String PLAN = """
            <?xml version="1.0" encoding="UTF-8"?>
            <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
              <hashTree>
                <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="control port"/>
                <hashTree>
                  <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="one">
                    <intProp name="ThreadGroup.num_threads">1</intProp>
                    <intProp name="ThreadGroup.ramp_time">0</intProp>
                    <boolProp name="ThreadGroup.scheduler">true</boolProp>
                    <stringProp name="ThreadGroup.duration">%d</stringProp>
                    <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                    <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">
                      <intProp name="LoopController.loops">-1</intProp>
                      <boolProp name="LoopController.continue_forever">false</boolProp>
                    </elementProp>
                  </ThreadGroup>
                  <hashTree>
                    <DebugSampler guiclass="TestBeanGUI" testclass="DebugSampler" testname="tick">
                      <boolProp name="displayJMeterProperties">false</boolProp>
                      <boolProp name="displayJMeterVariables">false</boolProp>
                      <boolProp name="displaySystemProperties">false</boolProp>
                    </DebugSampler>
                    <hashTree>
                      <ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="wait">
                        <stringProp name="ConstantTimer.delay">200</stringProp>
                      </ConstantTimer>
                      <hashTree/>
                    </hashTree>
                  </hashTree>
                </hashTree>
              </hashTree>
            </jmeterTestPlan>
            """;

    @TempDir
    Path dir;

    @Test
    @DisplayName("with the kit's properties JMeter opens no UDP port, and StopTestNow sent to 4445-4455 does not stop it")
    void noControlPort() throws Exception {
        Process jmeter = start(true, 8);
        try {
            Set<Long> sockets = awaitSampling(jmeter);
            assertEquals(List.of(), udpPortsOf(sockets), "UDP ports JMeter listens on");
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                byte[] stop = "StopTestNow".getBytes(StandardCharsets.US_ASCII);
                for (int port = 4445; port <= 4455; port++) {
                    s.send(new DatagramPacket(stop, stop.length, InetAddress.getLoopbackAddress(), port));
                }
            }
            assertTrue(jmeter.waitFor(120, TimeUnit.SECONDS), "JMeter ends at its planned end");
            String out = Files.readString(dir.resolve("out.txt"));
            assertFalse(out.contains("StopTestNow"), out);
            assertFalse(out.contains("Waiting for possible"), out);
            assertEquals(0, jmeter.exitValue(), out);
        } finally {
            jmeter.destroyForcibly();
        }
    }

    @Test
    @DisplayName("without them JMeter listens for StopTestNow on a UDP port, which this check sees")
    void controlPortWithoutKitProperties() throws Exception {
        Process jmeter = start(false, 120); // stopped by the test once it has looked
        try {
            Set<Long> sockets = awaitListener(jmeter);
            List<Integer> ports = udpPortsOf(sockets);
            assertEquals(1, ports.size(), "one UDP port: " + ports);
            assertTrue(ports.get(0) >= 4445 && ports.get(0) <= 4455, "port " + ports);
        } finally {
            jmeter.destroyForcibly();
            jmeter.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Real JMeter ({@code NewDriver}, as {@code bin/ApacheJMeter.jar} runs it) in non-GUI mode, on the test classpath. */
    private Process start(boolean kitProperties, int seconds) throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "reads sockets from /proc (Linux)");
        Path home = JMeterTestEnvironment.init();
        Path plan = Files.writeString(dir.resolve("plan.jmx"), PLAN.formatted(seconds));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.awt.headless=true", "-Djmeter.home=" + home, "-cp", System.getProperty("java.class.path"),
                "org.apache.jmeter.NewDriver", "-n", "-t", plan.toString(), "-l", dir.resolve("out.jtl").toString(),
                "-j", dir.resolve("jmeter.log").toString(),
                // each sample written as it is taken: by default JMeter buffers 8 KiB, and these samples would all
                // show only when the run has ended (and the control listener with it)
                "-Jjmeter.save.saveservice.autoflush=true"));
        if (kitProperties) {
            cmd.addAll(List.of("-q", KIT_PROPERTIES.toAbsolutePath().toString()));
        }
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile()).start();
    }

    /** Waits until JMeter writes its first sample (its test is running, for seconds more); its socket inodes. */
    private Set<Long> awaitSampling(Process jmeter) throws Exception {
        Path jtl = dir.resolve("out.jtl");
        for (int i = 0; i < 600 && jmeter.isAlive(); i++) {
            if (Files.exists(jtl) && Files.readAllLines(jtl).size() > 1) {
                return socketsOf(jmeter.pid());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("JMeter wrote no sample: " + Files.readString(dir.resolve("out.txt")));
    }

    /** Waits until JMeter says its control listener is up (it says so once the port is bound); its socket inodes. */
    private Set<Long> awaitListener(Process jmeter) throws Exception {
        Path out = dir.resolve("out.txt");
        for (int i = 0; i < 600 && jmeter.isAlive(); i++) {
            if (Files.readString(out).contains("Waiting for possible Shutdown/StopTestNow/HeapDump/ThreadDump message on port")) {
                return socketsOf(jmeter.pid());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("JMeter announced no control listener: " + Files.readString(out));
    }

    private static Set<Long> socketsOf(long pid) throws IOException {
        Set<Long> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException e) {
                    // closed while we looked
                }
            }
        }
        return inodes;
    }

    /** The local ports of the UDP sockets (IPv4 and IPv6) among {@code inodes}. */
    private static List<Integer> udpPortsOf(Set<Long> inodes) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            Path t = Path.of(table);
            if (!Files.exists(t)) {
                continue;
            }
            List<String> lines = Files.readAllLines(t);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && inodes.contains(Long.parseLong(f[9]))) {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }
}
