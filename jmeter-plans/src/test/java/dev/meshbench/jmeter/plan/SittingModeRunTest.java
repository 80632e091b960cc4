package dev.meshbench.jmeter.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.meshbench.jmeter.JMeterTestEnvironment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.jmeter.save.CSVSaveService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan's sitting mode: acmeair.jmx in a real non-GUI JMeter ({@code NewDriver}, the kit's {@code -q} file, the plugin from this module's
 * classes), against a loopback stub that answers every request of the session as the Acmeair services would. The test
 * plays the kit: it rewrites the control file (a temporary file moved over it) while the load runs, and reads the JTL
 * JMeter writes.
 */
class SittingModeRunTest {
    private static final Path KIT_PROPERTIES = Path.of("src/main/jmeter/meshbench-jtl.properties");
    private static final int CLIENTS = 3;
    private static final double RATE = 50;
    /** Generous: JMeter and the stub share two cores with whatever else runs. */
    private static final long DEADLINE_MS = 180_000;

    @TempDir
    Path dir;

    private HttpServer stub;
    private ExecutorService stubThreads;
    private Process jmeter;

    @BeforeEach
    void startStub() throws IOException {
        stubThreads = Executors.newFixedThreadPool(4);
        stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.setExecutor(stubThreads);
        stub.createContext("/auth/login", exchange -> {
            exchange.getResponseHeaders().add("Set-Cookie", "jwt_token=token; Path=/; HttpOnly");
            answer(exchange, "text/plain", "logged in");
        });
        stub.createContext("/customer/", exchange -> answer(exchange, "application/json", "{\"_id\":\"uid0@email.com\"}"));
        stub.createContext("/flight/queryflights", exchange -> answer(exchange, "application/json", """
                {"tripFlights":[{"flightsOptions":[{"_id":"f1","flightSegmentId":"AA1"}]},
                 {"flightsOptions":[{"_id":"f2","flightSegmentId":"AA2"}]}],"tripLegs":2}"""));
        stub.createContext("/booking/bookflights", exchange -> answer(exchange, "application/json",
                "{\"oneWay\":false,\"departBookingId\":\"b1\",\"returnBookingId\":\"b2\"}"));
        stub.createContext("/booking/byuser/", exchange -> answer(exchange, "application/json",
                "[{\"_id\":\"b1\"},{\"_id\":\"b2\"},{\"_id\":\"b3\"}]"));
        stub.createContext("/booking/cancelbooking", exchange -> answer(exchange, "text/plain", "deleted."));
        stub.start();
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        if (jmeter != null) {
            jmeter.destroyForcibly();
            jmeter.waitFor(30, TimeUnit.SECONDS);
        }
        stub.stop(0);
        stubThreads.shutdownNow();
    }

    private static void answer(HttpExchange exchange, String type, String body) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    /** Writes the control file as the kit does; returns the wall-clock time (ms) taken just before the move. */
    private long control(String phase, double rate, boolean stop) throws IOException {
        Path tmp = Files.writeString(dir.resolve("control.tmp"), "phase=" + phase + "\nrate=" + rate + "\nstop=" + stop + "\n");
        long before = System.currentTimeMillis();
        Files.move(tmp, dir.resolve("control.properties"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return before;
    }

    /** One JTL row, the columns this test reads. */
    record Sample(long timeStamp, String label, String thread, boolean success, String step, String phase) {
    }

    /** Real JMeter in non-GUI mode with the kit's JTL format and {@code properties} as -J; console in out.txt. */
    private void startJMeter(Map<String, String> properties) throws IOException {
        Path home = JMeterTestEnvironment.init();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.awt.headless=true", "-Djmeter.home=" + home, "-cp", System.getProperty("java.class.path"),
                "org.apache.jmeter.NewDriver", "-n", "-t", AcmeairPlanTest.PLAN.getAbsolutePath(),
                "-q", KIT_PROPERTIES.toAbsolutePath().toString(), "-j", dir.resolve("jmeter.log").toString(),
                "-Jmeshbench.jtl=" + dir.resolve("samples.jtl"), "-Jbase.url=http://127.0.0.1:" + stub.getAddress().getPort(),
                "-Jcustomers=10", "-Jthink.ms=0"));
        properties.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        jmeter = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile()).start();
    }

    private String console() throws IOException {
        return Files.readString(dir.resolve("out.txt"));
    }

    /** JMeter's exit code, once it has ended by itself. */
    private int awaitExit() throws Exception {
        assertTrue(jmeter.waitFor(DEADLINE_MS, TimeUnit.MILLISECONDS), "JMeter ends by itself: " + console());
        return jmeter.exitValue();
    }

    /** The JTL's complete rows so far (a row JMeter is still writing is left for later). */
    private List<Sample> samples() throws IOException {
        Path jtl = dir.resolve("samples.jtl");
        if (!Files.exists(jtl)) {
            return List.of();
        }
        String text = Files.readString(jtl, StandardCharsets.UTF_8);
        text = text.substring(0, text.lastIndexOf('\n') + 1);
        List<Sample> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new StringReader(text))) {
            List<String> header = List.of(CSVSaveService.csvReadFile(in, ','));
            if (header.isEmpty()) {
                return out;
            }
            for (String[] row = CSVSaveService.csvReadFile(in, ','); row.length > 0; row = CSVSaveService.csvReadFile(in, ',')) {
                out.add(new Sample(Long.parseLong(row[header.indexOf("timeStamp")]), row[header.indexOf("label")],
                        row[header.indexOf("threadName")], Boolean.parseBoolean(row[header.indexOf("success")]),
                        row[header.indexOf("step")], row[header.indexOf("phase")]));
            }
        }
        return out;
    }

    /** Waits (polling the JTL, with a generous deadline) until {@code enough} holds of the samples so far. */
    private void awaitSamples(String what, Predicate<List<Sample>> enough) throws Exception {
        long deadline = System.currentTimeMillis() + DEADLINE_MS;
        while (!enough.test(samples())) {
            assertTrue(jmeter.isAlive(), "JMeter ended before " + what + ": " + console());
            assertTrue(System.currentTimeMillis() < deadline, "no " + what + " in " + DEADLINE_MS + " ms: " + console());
            Thread.sleep(100);
        }
    }

    private static long count(List<Sample> samples, String phase) {
        return samples.stream().filter(s -> s.phase().equals(phase)).count();
    }

    /** Requests per second from the first to the last start of the phase's samples. */
    private static double rate(List<Sample> samples, String phase) {
        List<Long> starts = samples.stream().filter(s -> s.phase().equals(phase)).map(Sample::timeStamp).sorted().toList();
        return (starts.size() - 1) * 1000.0 / (starts.get(starts.size() - 1) - starts.get(0));
    }

    @Test
    @DisplayName("a sitting: one JMeter runs phases a (closed loop), b and c (50/s) as the control file says, then stops by itself")
    void sitting() throws Exception {
        control("a", 0, false);
        startJMeter(Map.of("meshbench.controlFile", dir.resolve("control.properties").toString(),
                "warmup.clients", Integer.toString(CLIENTS), "warmup.seconds", "600"));
        awaitSamples("200 samples of phase a", s -> count(s, "a") >= 200);
        long toB = control("b", RATE, false);
        awaitSamples("150 samples of phase b", s -> count(s, "b") >= 150);
        long toC = control("c", RATE, false);
        awaitSamples("100 samples of phase c", s -> count(s, "c") >= 100);
        control("c", RATE, true);
        // the clients loop until the group's duration (600 s, far beyond this test's deadline): only stop=true ends them sooner
        assertEquals(0, awaitExit(), console());

        assertTrue(console().contains("; sitting mode: 3 clients until the control file " + dir.resolve("control.properties")
                + " says stop (now phase a, rate closed loop), no ramp steps"), console());
        List<Sample> samples = samples();
        assertEquals(List.of(), samples.stream().filter(s -> !s.success()).toList(), "the stub answers every request");
        assertEquals(Set.of(Integer.toString(CLIENTS)), samples.stream().map(Sample::step).collect(Collectors.toSet()), "step");
        assertEquals(Set.of("a", "b", "c"), samples.stream().map(Sample::phase).collect(Collectors.toSet()), "phases");

        // What the plugin guarantees: a sample carries the phase the plugin read before the sample started, so it started
        // after that phase was written. JMeter stamps whole ms from nanoTime plus an offset in whole ms: at most 2 ms below
        // the true start, hence the 1 ms allowance below the time taken before the move.
        for (Sample s : samples) {
            if (s.phase().equals("b")) {
                assertTrue(s.timeStamp() >= toB - 1, "a b sample started before b was written: " + s + " < " + toB);
            } else if (s.phase().equals("c")) {
                assertTrue(s.timeStamp() >= toC - 1, "a c sample started before c was written: " + s + " < " + toC);
            } else {
                // the plugin looks at the file every 50 ms; phase b lasted seconds
                assertTrue(s.timeStamp() < toC, "an a sample started after c was written: " + s);
            }
        }
        List<Sample> inTime = samples.stream().sorted(Comparator.comparingLong(Sample::timeStamp)).toList();
        assertEquals(List.of("a", "b", "c"), inTime.stream().map(Sample::phase).distinct().toList(), "first appearances in time");

        // Per sample, not per session: some client's session goes on from an a sample straight to a b sample (the session
        // has some 40 requests, so the switch falls inside a session for nearly every client).
        Map<String, List<Sample>> byClient = inTime.stream().collect(Collectors.groupingBy(Sample::thread, LinkedHashMap::new,
                Collectors.toList()));
        assertEquals(CLIENTS, byClient.size(), byClient.keySet().toString());
        boolean midSession = byClient.values().stream().anyMatch(own -> {
            for (int i = 1; i < own.size(); i++) {
                if (own.get(i - 1).phase().equals("a") && own.get(i).phase().equals("b") && !own.get(i).label().equals("login")) {
                    return true;
                }
            }
            return false;
        });
        assertTrue(midSession, "no client changed phase inside a session");

        double a = rate(samples, "a");
        double b = rate(samples, "b");
        double c = rate(samples, "c");
        String rates = String.format(Locale.ROOT, "a %.1f/s, b %.1f/s, c %.1f/s", a, b, c);
        assertTrue(b >= RATE * 0.7 && b <= RATE * 1.3, "phase b at about 50/s: " + rates);
        assertTrue(c >= RATE * 0.7 && c <= RATE * 1.3, "phase c, same rate, schedule kept: " + rates);
        assertTrue(a > b, "the closed loop of phase a is faster: " + rates);
    }

    @Test
    @DisplayName("without a control file the plan runs its ramp as before, with an empty phase column")
    void rampAsBefore() throws Exception {
        startJMeter(Map.of("clients", "1,2", "step.seconds", "2"));
        assertEquals(0, awaitExit(), console());
        assertTrue(console().contains("meshbench: Acmeair ramp: clients [1, 2], 2 s per step (4 s in all), think 0 ms,"), console());
        List<Sample> samples = samples();
        assertEquals(Set.of(""), samples.stream().map(Sample::phase).collect(Collectors.toSet()), "phase");
        assertEquals(new TreeSet<>(Set.of("1", "2")), samples.stream().map(Sample::step).collect(Collectors.toCollection(TreeSet::new)));
        long lastOfStep1 = samples.stream().filter(s -> s.step().equals("1")).mapToLong(Sample::timeStamp).max().orElseThrow();
        long firstOfStep2 = samples.stream().filter(s -> s.step().equals("2")).mapToLong(Sample::timeStamp).min().orElseThrow();
        assertTrue(lastOfStep1 <= firstOfStep2, "steps one after another");
        assertEquals(List.of(), samples.stream().filter(s -> !s.success()).toList());
    }

    @Test
    @DisplayName("a bad control file stops JMeter before the first request, naming the file, the key and the rule")
    void badControlFile() throws Exception {
        Path file = Files.writeString(dir.resolve("control.properties"), "phase=a\nrate=-1\nstop=false\n");
        startJMeter(Map.of("meshbench.controlFile", file.toString(), "warmup.clients", "2", "warmup.seconds", "600"));
        assertEquals(1, awaitExit(), console());
        assertTrue(console().contains("meshbench: invalid JMeter property meshbench.controlFile=" + file + ": " + file
                + ": rate=-1.0: must be 0 (a closed loop) or more requests per second"), console());
        assertEquals(List.of(), samples());
    }
}
