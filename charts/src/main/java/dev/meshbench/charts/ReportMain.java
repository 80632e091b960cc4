package dev.meshbench.charts;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.SkippedRun;
import dev.meshbench.charts.model.Answer;
import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.SittingTable;
import dev.meshbench.charts.model.ReportModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code java -jar charts/target/charts.jar --results results --out results/report --clients 20}. */
@Command(name = "meshbench-report", sortOptions = false,
        description = "Builds the study's charts, tables and HTML report from every */results.json below a "
                + "results directory. Runs nothing; reads only the JSON (unless asked to convert).")
public final class ReportMain implements Callable<Integer> {
    /** Exit code when the report was written but holds no usable run. */
    public static final int EXIT_NO_RUNS = 1;

    @Option(names = "--results", defaultValue = "results", paramLabel = "DIR",
            description = "results directory holding one folder per run (default: ${DEFAULT-VALUE})")
    Path results;

    @Option(names = "--out", paramLabel = "DIR", description = "report folder (default: <results>/report)")
    Path out;

    @Option(names = "--clients", defaultValue = "20", paramLabel = "N",
            description = "client count for the response-time and CPU figures (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--convert-missing",
            description = "first convert run folders that have samples.jtl but no results.json")
    boolean convertMissing;

    @Option(names = "--reconvert", description = "first convert every run folder again, overwriting results.json")
    boolean reconvert;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Spec
    CommandSpec spec;

    private final PrintWriter stdout;

    ReportMain(PrintWriter stdout) {
        this.stdout = stdout;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        PrintWriter out = new PrintWriter(System.out, true);
        System.exit(new CommandLine(new ReportMain(out)).execute(args));
    }

    @Override
    public Integer call() {
        if (clients <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--clients (" + clients
                    + ") must be a positive number of clients");
        }
        Path outDir = out != null ? out : results.resolve("report");
        ConversionMode mode = reconvert ? ConversionMode.ALL
                : convertMissing ? ConversionMode.MISSING : ConversionMode.NONE;
        ReportModel model;
        try {
            model = ReportGenerator.generate(results, outDir, clients, mode, Instant.now());
        } catch (NoSuchFileException e) {
            stdout.println("building report from " + results + " failed: " + e.getFile() + ": "
                    + (e.getReason() == null ? "not found" : e.getReason()));
            return CommandLine.ExitCode.USAGE;
        } catch (IOException e) {
            stdout.println("building report from " + results + " into " + outDir + " failed: " + e.getMessage());
            return CommandLine.ExitCode.SOFTWARE;
        }
        // the answer first: one sentence per case against bypass, per data plane
        Answer.of(model).lines().forEach(stdout::println);
        int runs = model.loaded().runs().size();
        int cases = model.caseIds().size();
        List<String> planes = model.dataPlanes();
        stdout.printf("read %d run%s of %d case%s on %d data plane%s%s from %s (%d skipped)%n", runs,
                runs == 1 ? "" : "s", cases, cases == 1 ? "" : "s", planes.size(), planes.size() == 1 ? "" : "s",
                planes.isEmpty() ? "" : " (" + String.join(", ", planes) + ")", results,
                model.loaded().skipped().size());
        for (SittingTable.Calibration c : SittingTable.of(model).calibrations()) {
            stdout.println("  calibration " + c.summary());
        }
        for (SkippedRun s : model.loaded().skipped()) {
            stdout.println("  skipped " + s);
        }
        for (String w : model.warnings()) {
            stdout.println("  note: " + w);
        }
        List<String> files = ReportGenerator.files(model);
        stdout.println("wrote " + outDir.resolve("index.html") + " with " + String.join(", ",
                files.subList(1, files.size())));
        if (runs > 0) {
            AttributionTable.of(model).summary().forEach(stdout::println);
        }
        return runs == 0 ? EXIT_NO_RUNS : CommandLine.ExitCode.OK;
    }
}
