package dev.meshbench.maven.jenkinsfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lesfurets.jenkins.unit.BasePipelineTest;
import com.lesfurets.jenkins.unit.MethodCall;
import com.lesfurets.jenkins.unit.MethodSignature;
import dev.meshbench.maven.jenkinsfile.DeclarativeInterpreter.BuildAborted;
import dev.meshbench.maven.jenkinsfile.DeclarativeInterpreter.Step;
import dev.meshbench.orchestrator.cases.EgressCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The repository's {@code Jenkinsfile}, run as code: JenkinsPipelineUnit loads it, {@link DeclarativeInterpreter}
 * runs its stages, the steps are mocks; {@code sh} answers the exit code a test chooses, {@code copyArtifacts}
 * writes a baseline into a temporary workspace when the test says a successful build has one.
 */
@DisplayName("Jenkinsfile")
class JenkinsfileTest extends BasePipelineTest {
    private static final Path ROOT = Path.of(System.getProperty("meshbench.repositoryRoot", "..")).normalize();
    private static final String TESTS = "mvn -B -ntp verify";
    private static final String ALL_CASES = "-Pall-cases";
    private static final Object LAST_SUCCESSFUL = "lastSuccessful()";

    @TempDir
    Path workspace;

    private final Map<String, Object> params = new HashMap<>();
    private final Map<String, Object> env = new HashMap<>();
    /** The exit code of each {@code sh} script; a step that throws stands for an abort. */
    private Function<String, Integer> exitCodes = script -> 0;
    /** Whether the job has a successful build whose results copyArtifacts finds. */
    private boolean baselineArchived;
    private DeclarativeInterpreter pipeline;

    @BeforeEach
    void loadPipeline() throws Exception {
        setScriptRoots(new String[] {ROOT.toString()});
        // The default import of @NonCPS needs groovy-cps, left off the classpath (its Groovy 1.8); nothing uses it.
        setImports(new HashMap<>());
        setUp();
        env.put("JOB_NAME", "meshbench");
        env.put("WORKSPACE", workspace.toString());
        getBinding().setVariable("params", params);
        getBinding().setVariable("env", env);
        pipeline = new DeclarativeInterpreter(getHelper(), getBinding(), this::updateBuildStatus);

        step("sh", a -> {
            int rc = exitCodes.apply(String.valueOf(a[0]));
            if (rc != 0) {
                throw new DeclarativeInterpreter.PipelineError("script returned exit code " + rc);
            }
            return null;
        }, String.class);
        step("sh", a -> {
            Map<?, ?> m = (Map<?, ?>) a[0];
            int rc = exitCodes.apply(String.valueOf(m.get("script")));
            if (Boolean.TRUE.equals(m.get("returnStatus"))) {
                return rc;
            }
            if (rc != 0) {
                throw new DeclarativeInterpreter.PipelineError("script returned exit code " + rc);
            }
            return null;
        }, Map.class);
        step("lastSuccessful", a -> LAST_SUCCESSFUL);
        step("copyArtifacts", a -> {
            if (baselineArchived) {
                Path run = workspace.resolve(String.valueOf(((Map<?, ?>) a[0]).get("target"))).resolve("results/bypass-1");
                write(run.resolve("results.json"), "{}");
                write(run.resolve("run.json"), "{}");
            }
            return null;
        }, Map.class);
        step("fileExists", a -> Files.exists(workspace.resolve(String.valueOf(a[0]))), String.class);
        step("junit", a -> null, Map.class);
        step("publishHTML", a -> null, Map.class);
        step("echo", a -> null, String.class);
    }

    @Test
    @DisplayName("runs every case in one Maven call with -Pall-cases and the repeats, and lists no case itself")
    void runsEveryCaseInOneCall() throws IOException {
        params.put("REPEATS", "5");

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        String cases = casesCall();
        assertTrue(cases.startsWith("mvn -B -ntp verify -Pall-cases "), cases);
        assertTrue(cases.contains(" -Dmeshbench.repeats=5"), cases);
        assertFalse(shScripts().stream().anyMatch(s -> s.contains("-Pcase-")), shScripts().toString());
        String text = Files.readString(ROOT.resolve("Jenkinsfile"), StandardCharsets.UTF_8);
        for (EgressCase c : EgressCase.values()) {
            for (String literal : List.of("'" + c.id() + "'", "\"" + c.id() + "\"", "case-" + c.id())) {
                assertFalse(text.contains(literal), "the Jenkinsfile names case " + c.id() + " (" + literal
                        + "): the case list belongs to the orchestrator");
            }
        }
    }

    @Test
    @DisplayName("repeats three times by default and passes the run's knobs to the same call")
    void passesTheKnobs() {
        params.put("STUDY", true);
        params.put("CLIENTS", " 1,5 ");
        params.put("DATAPLANE", "envoy");
        params.put("TARGET", "kubernetes");
        params.put("MAX_ERROR_PERCENT", "2");
        params.put("TARGET_PROPERTIES", "-Dmeshbench.mongo.uri=mongodb://m.example.com:27017/?tls=true");

        runScript("Jenkinsfile");

        assertEquals("mvn -B -ntp verify -Pall-cases,study -Dmeshbench.repeats=3 -Dmeshbench.dataplane=envoy "
                + "-Dmeshbench.target=kubernetes -Dmeshbench.clients=1,5 -Dmeshbench.maxErrorPercent=2 "
                + "-Dmeshbench.resultsDir='" + workspace + "/results' "
                + "-Dmeshbench.mongo.uri=mongodb://m.example.com:27017/?tls=true", casesCall());
    }

    @Test
    @DisplayName("fetches the last successful build's results of the same data plane, target and study, and gates on them")
    void fetchesAndPassesTheBaseline() {
        baselineArchived = true;

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        Map<?, ?> copy = onlyMapArg("copyArtifacts");
        assertEquals("meshbench", copy.get("projectName"));
        assertEquals(LAST_SUCCESSFUL, copy.get("selector"));
        assertEquals("DATAPLANE=netty,TARGET=local,STUDY=false", String.valueOf(copy.get("parameters")));
        assertEquals("results/**/results.json, results/**/run.json", copy.get("filter"));
        assertEquals(true, copy.get("optional"));
        String cases = casesCall();
        assertTrue(cases.contains(" -Dmeshbench.baseline='" + workspace + "/baseline/results' "), cases);
        assertTrue(cases.contains(" -Dmeshbench.maxRegressionPercent=10"), cases);
        assertTrue(indexOf("sh", "rm -rf results baseline") < indexOf("copyArtifacts", ""),
                "the workspace's earlier results and baseline are removed before the copy");
    }

    @Test
    @DisplayName("takes the baseline from BASELINE_JOB when one is named")
    void baselineFromAnotherJob() {
        baselineArchived = true;
        params.put("BASELINE_JOB", " perf/meshbench-nightly ");
        params.put("MAX_REGRESSION_PERCENT", "5");

        runScript("Jenkinsfile");

        assertEquals("perf/meshbench-nightly", onlyMapArg("copyArtifacts").get("projectName"));
        assertTrue(casesCall().contains(" -Dmeshbench.maxRegressionPercent=5"), casesCall());
    }

    @Test
    @DisplayName("without an earlier successful build, says so and runs without the gate")
    void firstBuildRunsWithoutGate() {
        baselineArchived = false;

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        assertEquals(1, calls("copyArtifacts").size());
        String cases = casesCall();
        assertFalse(cases.contains("-Dmeshbench.baseline"), cases);
        assertFalse(cases.contains("-Dmeshbench.maxRegressionPercent"), cases);
        assertTrue(calls("echo").stream().anyMatch(c -> String.valueOf(c.getArgs()[0])
                .startsWith("No baseline: meshbench has no successful build with results")), echoes());
    }

    @Test
    @DisplayName("an empty MAX_REGRESSION_PERCENT turns the gate off without fetching a baseline")
    void emptyThresholdTurnsTheGateOff() {
        baselineArchived = true;
        params.put("MAX_REGRESSION_PERCENT", " ");

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        assertEquals(0, calls("copyArtifacts").size());
        assertFalse(casesCall().contains("-Dmeshbench.baseline"), casesCall());
    }

    @Test
    @DisplayName("a failed gate fails the build, and the error says the gate may be why")
    void failedGateFailsTheBuild() {
        baselineArchived = true;
        exitCodes = script -> script.contains(ALL_CASES) ? 1 : 0;

        runScript("Jenkinsfile");

        assertJobStatusFailure();
        String message = pipeline.failure().orElseThrow().getMessage();
        assertTrue(message.startsWith("Cases failed (mvn exit 1): the regression gate (a step more than 10% worse"),
                message);
    }

    @Test
    @DisplayName("a failed case without a baseline fails the build and rules the gate out")
    void failedCaseWithoutBaseline() {
        exitCodes = script -> script.contains(ALL_CASES) ? 1 : 0;

        runScript("Jenkinsfile");

        assertJobStatusFailure();
        String message = pipeline.failure().orElseThrow().getMessage();
        assertTrue(message.contains("not the regression gate: no baseline"), message);
    }

    /** How a build can end. */
    enum Outcome {
        SUCCESS, TESTS_FAIL, GATE_FAILS, ABORTED_DURING_CASES
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Outcome.class)
    @DisplayName("archives results/** and publishes the report on every outcome")
    void archivesOnEveryOutcome(Outcome outcome) {
        baselineArchived = true;
        exitCodes = switch (outcome) {
            case SUCCESS -> script -> 0;
            case TESTS_FAIL -> script -> script.equals(TESTS) ? 1 : 0;
            case GATE_FAILS -> script -> script.contains(ALL_CASES) ? 1 : 0;
            case ABORTED_DURING_CASES -> script -> {
                if (script.contains(ALL_CASES)) {
                    throw new BuildAborted();
                }
                return 0;
            };
        };

        runScript("Jenkinsfile");

        assertEquals(switch (outcome) {
            case SUCCESS -> "SUCCESS";
            case TESTS_FAIL, GATE_FAILS -> "FAILURE";
            case ABORTED_DURING_CASES -> "ABORTED";
        }, buildResult());
        Map<?, ?> archive = onlyMapArg("archiveArtifacts");
        assertEquals("results/**", archive.get("artifacts"));
        assertEquals(true, archive.get("allowEmptyArchive"));
        Map<?, ?> report = (Map<?, ?>) onlyMapArg("publishHTML").get("target");
        assertEquals("results/report", report.get("reportDir"));
        assertEquals("index.html", report.get("reportFiles"));
        assertEquals(true, report.get("allowMissing"));
        assertEquals(1, calls("junit").size(), "the unit tests' reports are published too");
        if (outcome == Outcome.TESTS_FAIL) {
            assertEquals(List.of("Baseline", "Cases"), pipeline.skippedStages());
            assertTrue(shScripts().stream().noneMatch(s -> s.contains(ALL_CASES)), "no case runs after failed tests");
        } else {
            int cases = indexOf("sh", ALL_CASES);
            assertTrue(indexOf("archiveArtifacts", "") > cases, "archived after the cases ran");
            assertTrue(indexOf("publishHTML", "") > cases, "published after the cases wrote the report");
        }
    }

    private void step(String name, Function<Object[], Object> body, Class<?>... args) {
        getHelper().registerAllowedMethod(MethodSignature.method(name, args), new Step(body));
    }

    private List<MethodCall> calls(String name) {
        return getHelper().getCallStack().stream().filter(c -> c.getMethodName().equals(name)).toList();
    }

    /** The call stack's index of the first call of {@code name} whose first argument mentions {@code text}. */
    private int indexOf(String name, String text) {
        List<MethodCall> stack = getHelper().getCallStack();
        for (int i = 0; i < stack.size(); i++) {
            MethodCall c = stack.get(i);
            if (c.getMethodName().equals(name) && String.valueOf(c.getArgs()[0]).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no call " + name + "(" + text + ")");
    }

    private Map<?, ?> onlyMapArg(String name) {
        List<MethodCall> calls = calls(name);
        assertEquals(1, calls.size(), name + " calls: " + calls);
        return (Map<?, ?>) calls.get(0).getArgs()[0];
    }

    private List<String> shScripts() {
        return calls("sh").stream().map(c -> c.getArgs()[0] instanceof Map<?, ?> m
                ? String.valueOf(m.get("script")) : String.valueOf(c.getArgs()[0])).toList();
    }

    /** The one Maven call that runs the cases. */
    private String casesCall() {
        List<String> cases = shScripts().stream().filter(s -> s.contains(ALL_CASES)).toList();
        assertEquals(1, cases.size(), "Maven calls with " + ALL_CASES + ": " + cases);
        return cases.get(0);
    }

    private String echoes() {
        return calls("echo").stream().map(c -> String.valueOf(c.getArgs()[0])).toList().toString();
    }

    private String buildResult() {
        return String.valueOf(((Map<?, ?>) getBinding().getVariable("currentBuild")).get("result"));
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file + " failed", e);
        }
    }
}
