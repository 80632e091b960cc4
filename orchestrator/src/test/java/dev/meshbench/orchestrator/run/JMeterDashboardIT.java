package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter's own report generator makes a run's HTML dashboard from a small JTL in the kit's column format, with the
 * JMeter the build laid out (after package: this is an integration test).
 */
class JMeterDashboardIT {
    @Test
    void aSmallJtlGivesJMetersDashboardWithEveryLabel(@TempDir Path tmp) throws Exception {
        JMeterLoad.Install jmeter = JMeterLoad.Install.locate(null, Path.of("").toAbsolutePath().getParent());
        List<Path> plan = jmeter.extractPlan(tmp);
        Path jtl = tmp.resolve("samples.jtl");
        StringBuilder rows = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"step\"\n");
        long t = 1_795_791_130_129L;
        for (int i = 0; i < 20; i++) {
            String label = i % 2 == 0 ? "login" : "queryflight";
            boolean ok = i != 7;
            rows.append(t + 100L * i).append(',').append(10 + i).append(',').append(label).append(',').append(ok ? 200 : 500)
                    .append(',').append(ok ? "OK" : "Server Error").append(",step 01 2-1,text,").append(ok).append(",,738,281,2,2,")
                    .append("http://127.0.0.1:34395/").append(label).append(",9,0,1,2\n");
        }
        Files.writeString(jtl, rows);
        Path out = tmp.resolve(JMeterLoad.DASHBOARD);
        int exit = JMeterLoad.run(JMeterLoad.dashboardCommand(Path.of(System.getProperty("java.home"), "bin", "java"), jmeter,
                plan.get(1), jtl, out, tmp.resolve("dashboard.log")), jmeter, tmp.resolve("dashboard.out"));
        assertEquals(0, exit, Files.readString(tmp.resolve("dashboard.out")));
        assertTrue(Files.isRegularFile(out.resolve("index.html")), "index.html");
        JsonNode stats = new ObjectMapper().readTree(out.resolve("statistics.json").toFile());
        assertEquals(10, stats.path("login").path("sampleCount").asInt(), stats.toString());
        assertEquals(10, stats.path("queryflight").path("sampleCount").asInt());
        assertEquals(1, stats.path("queryflight").path("errorCount").asInt(), "the one 500");
        assertEquals(20, stats.path("Total").path("sampleCount").asInt());
    }
}
