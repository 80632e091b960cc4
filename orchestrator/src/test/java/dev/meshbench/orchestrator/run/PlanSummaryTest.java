package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan's summary line reaches the run's own output once JMeter has printed it on its console. */
class PlanSummaryTest {
    @Test
    void theLineJMeterPrintsIsEchoedOnceWithTheCase(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("bin"));
        Path console = tmp.resolve("run").resolve(JMeterLoad.CONSOLE);
        Files.createDirectories(console.getParent());
        // a stand-in for JMeter: some start-up noise, then the plan's line, late, then more output
        JMeterLoad.Running load = JMeterLoad.start(List.of("sh", "-c", "echo Creating summariser; sleep 0.5; "
                + "echo 'meshbench: Acmeair ramp: clients [2], 10 s per step'; echo 'meshbench: Acmeair ramp: again'; sleep 1"),
                new JMeterLoad.Install(tmp, "x.jar"), console);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Thread t = EgressStudy.announcePlan(console, load, new PrintStream(bytes, true, StandardCharsets.UTF_8), "sni");
        t.join(10_000);
        load.waitFor();
        assertEquals("[sni] plan: Acmeair ramp: clients [2], 10 s per step\n", bytes.toString(StandardCharsets.UTF_8));
    }
}
