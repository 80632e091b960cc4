package dev.meshbench.results.samples;

import dev.meshbench.results.ClusterInfo;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.smp.SmpExporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Rewrites this module's committed sample runs and golden files: a program, not a test, and it writes into this
 * module only. Run it after a deliberate change of the generator, the component names or the schema, then review the
 * diff before committing: {@code mvn -B -Pregenerate-samples -pl results-schema -am process-test-classes} (the
 * profile in this module's pom runs {@link #main} with the module directory as its argument).
 *
 * <p>The golden runs are the first Netty run of every case ({@code <case>-1}), {@code sni-envoy-1}, and
 * {@code sni-k8s-1} (sni on Envoy on the Kubernetes target, with {@link SampleRunGenerator#CLUSTER}). The version 1
 * run {@code mtls-v1} is kept by hand (this build writes the current version only); only its golden results are
 * rewritten. The SMP export of {@link #SMP_GOLDEN_RUNS} is rewritten too ({@code smp.golden.json}). Other modules'
 * tests that need runs build them with {@link SampleRunGenerator} (this module's test jar) at test time.
 */
public final class RegenerateSampleRuns {
    static final List<String> SMP_GOLDEN_RUNS = List.of("sni-1", "sni-k8s-1");
    private final Path runs;

    private RegenerateSampleRuns(Path moduleDir) {
        this.runs = moduleDir.resolve("src/test/resources/runs");
    }

    /** {@code args[0]}: the results-schema module's directory. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1 || !Files.isDirectory(Path.of(args[0], "src/test/resources/runs"))) {
            System.err.println("usage: RegenerateSampleRuns <results-schema module dir> (got " + List.of(args) + ")");
            System.exit(2);
        }
        RegenerateSampleRuns r = new RegenerateSampleRuns(Path.of(args[0]));
        r.regenerate();
        System.out.println("rewrote the sample runs and golden files under " + r.runs + "; review with git diff");
    }

    private void regenerate() throws IOException {
        for (SampleRunGenerator.CaseModel model : SampleRunGenerator.cases()) {
            golden(model.caseId() + "-1", model, null);
        }
        golden("sni-envoy-1", SampleRunGenerator.model("sni", DataPlaneInfo.ENVOY), null);
        golden("sni-k8s-1", SampleRunGenerator.model("sni", DataPlaneInfo.ENVOY), SampleRunGenerator.CLUSTER);
        Path v1 = runs.resolve("mtls-v1");
        Files.writeString(v1.resolve("results.golden.json"), ResultsJson.toJson(ResultsConverter.compute(v1)));
        for (String run : SMP_GOLDEN_RUNS) {
            Path dir = runs.resolve(run);
            Files.writeString(dir.resolve("smp.golden.json"), SmpExporter.toJson(ResultsConverter.compute(dir)));
        }
    }

    private void golden(String runId, SampleRunGenerator.CaseModel model, ClusterInfo cluster)
            throws IOException {
        Path dir = runs.resolve(runId);
        SampleRunGenerator.write(dir, model, 1, cluster);
        Files.writeString(dir.resolve("results.golden.json"), ResultsJson.toJson(ResultsConverter.compute(dir)));
    }
}
