package dev.meshbench.maven.jenkinsfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lesfurets.jenkins.unit.BasePipelineTest;
import com.lesfurets.jenkins.unit.MethodCall;
import com.lesfurets.jenkins.unit.MethodSignature;
import dev.meshbench.model.EgressCase;
import groovy.lang.Closure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The repository's {@code Jenkinsfile} (a scripted pipeline), run as code on JenkinsPipelineUnit's
 * {@link BasePipelineTest}: the script's own Groovy runs (its try/catch/finally, its stages' closures), the steps are
 * mocks. {@code sh} answers the exit code a test chooses or throws as Jenkins' does; {@code copyArtifacts} writes a
 * baseline into a temporary workspace when the test says a successful build has one.
 */
@DisplayName("Jenkinsfile")
class JenkinsfileTest extends BasePipelineTest {
    private static final Path ROOT = Path.of(System.getProperty("meshbench.repositoryRoot", "..")).normalize();
    private static final String TESTS = "mvn -B -ntp verify";
    private static final String ALL_CASES = "-Pall-cases";
    private static final Object LAST_SUCCESSFUL = "lastSuccessful()";

    /** What Jenkins' {@code error} and a failing {@code sh} throw: hudson.AbortException, an IOException. */
    static final class AbortException extends IOException {
        AbortException(String message) {
            super(message);
        }
    }

    /** A mocked step's body; it may throw what the real step would, checked exceptions included. */
    @FunctionalInterface
    interface StepBody {
        Object apply(Object[] args) throws Exception;
    }

    /** A step implemented in Java: Groovy dispatches {@code call(...)} to {@code doCall}, with any arguments. */
    static final class Step extends Closure<Object> {
        private final transient StepBody body;

        Step(StepBody body) {
            super(null);
            this.body = body;
        }

        public Object doCall(Object... args) throws Exception {
            return body.apply(args);
        }
    }

    /** What the {@code parameters} step returns: the job's parameter definitions, for {@code properties}. */
    record ParametersProperty(List<?> definitions) {
    }

    @TempDir
    Path workspace;

    private final Map<String, Object> params = new HashMap<>();
    private final Map<String, Object> env = new HashMap<>();
    /** What each {@code sh} script does: returns its exit code, or throws (an abort). */
    private StepBody sh = args -> 0;
    /** Whether the job has a successful build whose results copyArtifacts finds. */
    private boolean baselineArchived;
    /**
     * Whether Jenkins knows the job's parameters, so the build runs with their defaults where a test set no value;
     * a job's first build runs before its {@code properties} step has declared them, with no params at all.
     */
    private boolean jobKnowsItsParameters = true;

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

        // The job's properties. The build's params are the parameters' defaults where the test set no value.
        for (String kind : List.of("booleanParam", "string", "choice")) {
            step(kind, a -> {
                Map<Object, Object> definition = new LinkedHashMap<>((Map<?, ?>) a[0]);
                definition.put("kind", kind);
                return definition;
            }, Map.class);
        }
        step("parameters", a -> new ParametersProperty((List<?>) a[0]), List.class);
        step("disableConcurrentBuilds", a -> "disableConcurrentBuilds");
        step("logRotator", a -> a[0], Map.class);
        step("buildDiscarder", a -> Map.of("buildDiscarder", a[0]), Object.class);
        step("properties", a -> {
            for (Object property : (List<?>) a[0]) {
                if (property instanceof ParametersProperty p && jobKnowsItsParameters) {
                    for (Object d : p.definitions()) {
                        Map<?, ?> definition = (Map<?, ?>) d;
                        params.putIfAbsent(String.valueOf(definition.get("name")), definition.get("kind").equals("choice")
                                ? ((List<?>) definition.get("choices")).get(0) : definition.get("defaultValue"));
                    }
                }
            }
            return null;
        }, List.class);

        // Blocks run their body; steps as Jenkins' plugins do.
        step("timestamps", a -> ((Closure<?>) a[0]).call(), Closure.class);
        step("sh", a -> {
            int rc = (Integer) sh.apply(a);
            if (rc != 0) {
                throw new AbortException("script returned exit code " + rc);
            }
            return null;
        }, String.class);
        step("sh", a -> {
            Map<?, ?> m = (Map<?, ?>) a[0];
            int rc = (Integer) sh.apply(new Object[] {m.get("script")});
            if (Boolean.TRUE.equals(m.get("returnStatus"))) {
                return rc;
            }
            if (rc != 0) {
                throw new AbortException("script returned exit code " + rc);
            }
            return null;
        }, Map.class);
        // JenkinsPipelineUnit 1.1's own error only sets currentBuild.result and returns; Jenkins' throws.
        step("error", a -> {
            throw new AbortException(String.valueOf(a[0]));
        }, String.class);
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
        step("junit", a -> null, Map.class);   // 1.1 registers junit(String) only
        step("publishHTML", a -> null, Map.class);
    }

    @Test
    @DisplayName("declares the parameters with their defaults, no concurrent builds, 20 builds kept, a 24-hour timeout")
    void declaresTheJob() {
        runScript("Jenkinsfile");

        List<?> properties = (List<?>) onlyArg("properties");
        assertTrue(properties.contains("disableConcurrentBuilds"), properties.toString());
        assertTrue(properties.contains(Map.of("buildDiscarder", Map.of("numToKeepStr", "20"))), properties.toString());
        Map<String, Object> defaults = new HashMap<>();
        defaults.put("STUDY", false);
        defaults.put("CLIENTS", "");
        defaults.put("REPEATS", "3");
        defaults.put("MAX_ERROR_PERCENT", "1");
        defaults.put("MAX_REGRESSION_PERCENT", "10");
        defaults.put("BASELINE_JOB", "");
        defaults.put("TARGET", "local");
        defaults.put("TARGET_PROPERTIES", "");
        defaults.put("DATAPLANE", "netty");
        assertEquals(defaults, params);
        assertEquals(Map.of("time", 24, "unit", "HOURS"), onlyArg("timeout"));
        assertEquals(1, calls("timestamps").size());
        assertEquals(1, calls("node").size());
    }

    @Test
    @DisplayName("runs every case in one Maven call with -Pall-cases and the repeats, and lists no case itself")
    void runsEveryCaseInOneCall() throws IOException {
        params.put("REPEATS", "5");

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        assertEquals(List.of("Tests", "Baseline", "Cases"), stages());
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
    @DisplayName("a job's first build, before Jenkins knows its parameters, passes none and runs without the gate")
    void firstBuildWithoutParameters() {
        jobKnowsItsParameters = false;

        runScript("Jenkinsfile");

        assertJobStatusSuccess();
        assertEquals("mvn -B -ntp verify -Pall-cases -Dmeshbench.resultsDir='" + workspace + "/results'", casesCall());
        assertEquals(0, calls("copyArtifacts").size());
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
        sh = args -> String.valueOf(args[0]).contains(ALL_CASES) ? 1 : 0;

        Throwable failure = assertThrows(Throwable.class, () -> runScript("Jenkinsfile"));

        assertJobStatusFailure();
        assertInstanceOf(AbortException.class, failure);
        assertTrue(failure.getMessage().startsWith(
                "Cases failed (mvn exit 1): the regression gate (a step more than 10% worse"), failure.getMessage());
    }

    @Test
    @DisplayName("a failed case without a baseline fails the build and rules the gate out")
    void failedCaseWithoutBaseline() {
        sh = args -> String.valueOf(args[0]).contains(ALL_CASES) ? 1 : 0;

        Throwable failure = assertThrows(Throwable.class, () -> runScript("Jenkinsfile"));

        assertJobStatusFailure();
        assertTrue(failure.getMessage().contains("not the regression gate: no baseline"), failure.getMessage());
    }

    /** How a build can end. */
    enum Outcome {
        SUCCESS, TESTS_FAIL, GATE_FAILS, ABORTED_DURING_CASES
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Outcome.class)
    @DisplayName("archives results/** and publishes the report and the unit tests' reports on every outcome")
    void archivesOnEveryOutcome(Outcome outcome) {
        baselineArchived = true;
        sh = switch (outcome) {
            case SUCCESS -> args -> 0;
            case TESTS_FAIL -> args -> args[0].equals(TESTS) ? 1 : 0;
            case GATE_FAILS -> args -> String.valueOf(args[0]).contains(ALL_CASES) ? 1 : 0;
            // What an abort (or the timeout) throws in the running step: Jenkins' FlowInterruptedException is one.
            case ABORTED_DURING_CASES -> args -> {
                if (String.valueOf(args[0]).contains(ALL_CASES)) {
                    throw new InterruptedException("aborted by someone");
                }
                return 0;
            };
        };

        if (outcome == Outcome.SUCCESS) {
            runScript("Jenkinsfile");
        } else {
            Throwable thrown = assertThrows(Throwable.class, () -> runScript("Jenkinsfile"));
            Class<? extends Throwable> expected = outcome == Outcome.ABORTED_DURING_CASES
                    ? InterruptedException.class : AbortException.class;
            assertEquals(expected, thrown.getClass(), "the build ends with the step's own exception, rethrown");
        }

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
        Map<?, ?> junit = onlyMapArg("junit");
        assertEquals(true, junit.get("allowEmptyResults"));
        assertTrue(String.valueOf(junit.get("testResults")).contains("**/target/surefire-reports/*.xml"), junit.toString());
        assertTrue(indexOf("junit", "") > indexOf("sh", TESTS), "the unit tests' reports published after they ran");
        if (outcome == Outcome.TESTS_FAIL) {
            assertEquals(List.of("Tests"), stages(), "no stage after failed tests");
            assertTrue(shScripts().stream().noneMatch(s -> s.contains(ALL_CASES)), "no case runs after failed tests");
            assertEquals(0, calls("copyArtifacts").size());
        } else {
            int cases = indexOf("sh", ALL_CASES);
            assertTrue(indexOf("junit", "") < cases, "the unit tests' reports published before the cases");
            assertTrue(indexOf("archiveArtifacts", "") > cases, "archived after the cases ran");
            assertTrue(indexOf("publishHTML", "") > cases, "published after the cases wrote the report");
        }
    }

    private void step(String name, StepBody body, Class<?>... args) {
        getHelper().registerAllowedMethod(MethodSignature.method(name, args), new Step(body));
    }

    private List<MethodCall> calls(String name) {
        return getHelper().getCallStack().stream().filter(c -> c.getMethodName().equals(name)).toList();
    }

    /** The stages entered, in order. */
    private List<String> stages() {
        List<String> names = new ArrayList<>();
        calls("stage").forEach(c -> names.add(String.valueOf(c.getArgs()[0])));
        return names;
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

    private Object onlyArg(String name) {
        List<MethodCall> calls = calls(name);
        assertEquals(1, calls.size(), name + " calls: " + calls);
        return calls.get(0).getArgs()[0];
    }

    private Map<?, ?> onlyMapArg(String name) {
        return (Map<?, ?>) onlyArg(name);
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
