package dev.meshbench.orchestrator.cli;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.charts.ReportGenerator;
import dev.meshbench.charts.model.Answer;
import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.orchestrator.latency.LatencyStudy;
import dev.meshbench.orchestrator.run.EgressStudy;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.orchestrator.run.Verdict;
import dev.meshbench.results.RunResults;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job without Maven: the same runner as {@code mvn verify -Pcase-<id>} ({@link EgressStudy}, or
 * {@link LatencyStudy} with {@code --latency}), the same {@code meshbench.*} settings as {@code -D} options, the same
 * results folder, then the same report and verdict. Exit status 0 when every run passed (and the gate, if any), 1 when
 * one failed, 2 for bad input (nothing started).
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the egress study's cases (or the latency study) on the local target or a cluster, write results/ and "
                + "the report, and give the verdict: as mvn verify -Pcase-<id> (or -Platency) does, without Maven.",
            "Settings are the Maven run's meshbench.* properties, given as -Dmeshbench.<name>=<value> (docs/settings.md)."})
final class RunCommand implements Callable<Integer> {
    /** Which study: cases of the egress study, or the latency study. */
    static final class Study {
        @Option(names = "--case", description = "One case id: ${COMPLETION-CANDIDATES}.", completionCandidates = CaseIdCandidates.class)
        String caseId;

        @Option(names = "--cases", description = "Case ids separated by commas, or all (the cases run interleaved).")
        String cases;

        @Option(names = "--latency", description = "The latency study's cells (meshbench.latency.*) instead of egress cases.")
        boolean latency;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Study study;

    @Option(names = "-D", paramLabel = "meshbench.<name>=<value>", mapFallbackValue = "",
            description = "A setting, as -D gives it to Maven (repeatable); also read from this JVM's system properties.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--project-root", defaultValue = ".",
            description = "Checkout whose module target/ folders hold the component jars and JMeter, and whose results/ keeps runs "
                    + "(default: ${DEFAULT-VALUE}).")
    Path projectRoot;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws InterruptedException {
        Map<String, String> props = properties();
        Path root = projectRoot.toAbsolutePath().normalize();
        String version = java.util.Objects.requireNonNullElse(RunCommand.class.getPackage().getImplementationVersion(), "dev");
        if (study.latency) {
            return LatencyStudy.prepare(props, root, version, out).runAndReport();
        }
        // As a run module's POM does (runs/<case>: meshbench.case), so that run.json records the same settings.
        String cases = study.caseId != null ? study.caseId : study.cases;
        props.put(Catalogue.CASE.name(), cases);
        props.put(RunSettings.P_CASES, cases);
        EgressStudy egress = EgressStudy.prepare(props, root, version, out);
        // The report's and the gate's settings are checked before anything runs, too.
        Path report = Catalogue.REPORT_DIR.read(props).map(Path::of).orElse(egress.resultsDir().resolve("report"));
        int clients = Catalogue.REPORT_CLIENTS.value(props);
        double maxRegression = Catalogue.MAX_REGRESSION_PERCENT.value(props);
        List<RunResults> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        egress.run(runs, problems);
        System.setProperty("java.awt.headless", "true");
        boolean reported = false;
        try {
            ReportModel model = ReportGenerator.generate(egress.resultsDir(), report, clients, ConversionMode.NONE, Instant.now());
            // the answer first: per data plane, one sentence per case against bypass
            Answer.of(model).lines().forEach(line -> out.println("[meshbench] " + line));
            out.println("[meshbench] report: " + report.resolve("index.html"));
            AttributionTable.of(model).summary().forEach(line -> out.println("[meshbench] " + line));
            reported = true;
        } catch (IOException | RuntimeException e) {
            out.println("[meshbench] FAILED: building the report from " + egress.resultsDir() + " into " + report + " failed: " + e.getMessage());
        }
        Optional<String> verdict = Verdict.of(problems, runs, Catalogue.BASELINE.read(props).orElse(null), maxRegression,
                Catalogue.GATE_LABEL.read(props), out);
        if (verdict.isPresent()) {
            out.println("[meshbench] FAILED: " + verdict.get());
            return 1;
        }
        if (!reported) {
            return 1;
        }
        out.printf("[meshbench] passed: %d run(s)%n", runs.size());
        return 0;
    }

    /** This JVM's {@code meshbench.*} system properties, then the {@code -D} options over them. */
    private Map<String, String> properties() {
        Map<String, String> props = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("meshbench."))
                .forEach(n -> props.put(n, System.getProperty(n)));
        settings.forEach((k, v) -> {
            if (!k.startsWith("meshbench.")) {
                throw new IllegalArgumentException("-D" + k + "=" + v + ": not a meshbench setting (they start with meshbench.; "
                        + "docs/settings.md lists them)");
            }
            props.put(k, v);
        });
        return props;
    }
}
