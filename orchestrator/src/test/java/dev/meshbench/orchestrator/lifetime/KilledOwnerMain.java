package dev.meshbench.orchestrator.lifetime;

import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunOwner;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * An orchestrator stand-in for {@link LifelineTest}, run as its own JVM so that it can be killed: it makes a work
 * folder with key files (as a local deployment does), a run folder marked running (as a case run does), starts a
 * process group whose leader has two children (as nginx's master has workers) recorded in the work folder, and one
 * process recorded in the run folder (as JMeter is), prints {@code READY <work folder> <watchdog pid>} and waits.
 */
public final class KilledOwnerMain {
    private KilledOwnerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path runDir = Files.createDirectories(Path.of(args[0]));
        Path work = WorkFolders.create("lifeline-test");
        Path pki = Files.createDirectories(work.resolve("pki"));
        Files.writeString(pki.resolve("mesh-ca.key"), "not a real key");
        Files.writeString(pki.resolve("jwt-private.pem"), "not a real key");
        Files.write(Files.createDirectories(work.resolve("jars")).resolve("x.jar"), new byte[100_000]);
        RunOwner.ofThisProcess().writeTo(runDir);
        ResultsJson.writeRunInputs(runDir.resolve("run.json"), RunInputs.starting("20261127-000000-sni", "sni",
                TargetKind.LOCAL, List.of(1), 5, 0, 0, 10, new KitVersions("test", "17", "none"), Machine.ofThisHost(),
                Instant.now()));
        Process leader = Lifeline.start(new ProcessBuilder("sh", "-c", "sleep 300 & sleep 300 & wait"), work);
        Lifeline.start(new ProcessBuilder("sleep", "301"), runDir);
        // READY only once sh has forked both sleeps: the test counts the group's members when it reads READY, and a
        // busy machine can take its time to run sh that far (it read 2 members instead of 4 once).
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (leader.descendants().count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        System.out.println("READY " + work + " " + Lifeline.watchdogPid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
