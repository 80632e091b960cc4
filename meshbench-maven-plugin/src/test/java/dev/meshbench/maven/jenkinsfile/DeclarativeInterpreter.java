package dev.meshbench.maven.jenkinsfile;

import com.lesfurets.jenkins.unit.MethodSignature;
import com.lesfurets.jenkins.unit.PipelineTestHelper;
import groovy.lang.Binding;
import groovy.lang.Closure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs the part of declarative Pipeline that the Jenkinsfile uses, on JenkinsPipelineUnit 1.1: the newest version
 * on this project's Maven mirror, older than the library's own {@code DeclarativePipelineTest}.
 *
 * <p>As Jenkins does: parameters' defaults fill {@code params} where a test set no value; stages run in order;
 * after a failed or aborted stage the later ones are skipped; a stage's post conditions run after its steps, the
 * pipeline's after the last stage, each with the build's result so far ({@code always}, then {@code success},
 * {@code failure} or {@code aborted}, then {@code unsuccessful}, then {@code cleanup}); a failing post block makes the
 * build fail but the other blocks still run. {@code error} throws, as Jenkins' does.
 *
 * <p>Directives are checked against where they stand ({@code steps} only in a stage, {@code always} only in
 * {@code post}, ...). Anything else ({@code when}, {@code environment}, {@code parallel}, {@code matrix}, ...) is
 * not registered, so a Jenkinsfile that starts using it fails its tests with a {@code MissingMethodException} rather
 * than being half-run in silence.
 */
final class DeclarativeInterpreter {
    /** Build results, from best to worst, as Jenkins orders them. */
    static final List<String> RESULTS = List.of("SUCCESS", "UNSTABLE", "FAILURE", "NOT_BUILT", "ABORTED");

    /** What {@code error} throws, like Jenkins' {@code AbortException}: the build fails with this message. */
    static final class PipelineError extends RuntimeException {
        PipelineError(String message) {
            super(message);
        }
    }

    /** What a mocked step throws to stand for someone aborting the build (Jenkins' FlowInterruptedException). */
    static final class BuildAborted extends RuntimeException {
        BuildAborted() {
            super("aborted");
        }
    }

    /** A step implemented in Java: Groovy dispatches {@code call(...)} to {@code doCall}, with any arguments. */
    static final class Step extends Closure<Object> {
        private final transient Function<Object[], Object> body;

        Step(Function<Object[], Object> body) {
            super(null);
            this.body = body;
        }

        public Object doCall(Object... args) {
            return body.apply(args);
        }
    }

    private enum Place { SCRIPT, PIPELINE, OPTIONS, PARAMETERS, STAGES, STAGE, POST, STEPS }

    /** A pipeline or a stage, as its closure declared it. */
    private static final class Block {
        final String name;
        final Closure<?> body;
        Closure<?> stages;
        Closure<?> steps;
        Closure<?> post;

        Block(String name, Closure<?> body) {
            this.name = name;
            this.body = body;
        }
    }

    private static final String[] POST_CONDITIONS = {"always", "success", "failure", "aborted", "unsuccessful", "cleanup"};

    private final PipelineTestHelper helper;
    private final Map<String, Object> params;
    private final Consumer<String> setResult;
    private Place place = Place.SCRIPT;
    private Block declaring;
    private List<Block> declaredStages;
    private Map<String, Closure<?>> declaredPost;
    private String result = "SUCCESS";
    private RuntimeException failure;
    private final List<String> skipped = new ArrayList<>();

    /**
     * @param helper    the test's helper, on which the directives are registered
     * @param binding   the script's binding: {@code params} (a map) gets the parameters' defaults; {@code any} is set
     *                  for {@code agent any}
     * @param setResult sets {@code currentBuild.result}
     */
    @SuppressWarnings("unchecked")
    DeclarativeInterpreter(PipelineTestHelper helper, Binding binding, Consumer<String> setResult) {
        this.helper = helper;
        this.params = (Map<String, Object>) binding.getVariable("params");
        this.setResult = setResult;
        binding.setVariable("any", "any");
        register();
    }

    /** The exception that failed the build (an {@code error} call, a failing step), if one did. */
    Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Stages skipped after an earlier failure, in order. */
    List<String> skippedStages() {
        return List.copyOf(skipped);
    }

    private void register() {
        on("pipeline", a -> {
            expect("pipeline", Place.SCRIPT);
            run(new Block("pipeline", closure(a[0])));
            return null;
        }, Closure.class);
        on("agent", a -> expect("agent", Place.PIPELINE), Object.class);
        on("options", a -> in(Place.OPTIONS, "options", Place.PIPELINE, closure(a[0])), Closure.class);
        for (String option : List.of("timestamps", "disableConcurrentBuilds")) {
            on(option, a -> expect(option, Place.OPTIONS));
        }
        on("timeout", a -> expect("timeout", Place.OPTIONS), Map.class);
        on("buildDiscarder", a -> expect("buildDiscarder", Place.OPTIONS), Object.class);
        on("logRotator", a -> expect("logRotator", Place.OPTIONS), Map.class);
        on("parameters", a -> in(Place.PARAMETERS, "parameters", Place.PIPELINE, closure(a[0])), Closure.class);
        for (String kind : List.of("booleanParam", "string", "choice")) {
            on(kind, a -> {
                expect(kind, Place.PARAMETERS);
                Map<?, ?> p = (Map<?, ?>) a[0];
                Object value = kind.equals("choice") ? ((List<?>) p.get("choices")).get(0) : p.get("defaultValue");
                params.putIfAbsent(String.valueOf(p.get("name")), value);
                return null;
            }, Map.class);
        }
        on("stages", a -> {
            expect("stages", Place.PIPELINE);
            declaring.stages = closure(a[0]);
            return null;
        }, Closure.class);
        on("stage", a -> {
            expect("stage", Place.STAGES);
            declaredStages.add(new Block(String.valueOf(a[0]), closure(a[1])));
            return null;
        }, String.class, Closure.class);
        on("steps", a -> {
            expect("steps", Place.STAGE);
            declaring.steps = closure(a[0]);
            return null;
        }, Closure.class);
        on("post", a -> {
            expect("post", Place.PIPELINE, Place.STAGE);
            declaring.post = closure(a[0]);
            return null;
        }, Closure.class);
        for (String condition : POST_CONDITIONS) {
            on(condition, a -> {
                expect(condition, Place.POST);
                declaredPost.put(condition, closure(a[0]));
                return null;
            }, Closure.class);
        }
        on("script", a -> {
            expect("script", Place.STEPS);
            return closure(a[0]).call();
        }, Closure.class);
        on("error", a -> {
            throw new PipelineError(String.valueOf(a[0]));
        }, String.class);
    }

    private void run(Block pipeline) {
        declaring = pipeline;
        in(Place.PIPELINE, null, Place.PIPELINE, pipeline.body);
        if (pipeline.stages == null) {
            throw new IllegalStateException("the pipeline declares no stages");
        }
        declaredStages = new ArrayList<>();
        in(Place.STAGES, null, Place.PIPELINE, pipeline.stages);
        for (Block stage : List.copyOf(declaredStages)) {
            if (!result.equals("SUCCESS")) {
                skipped.add(stage.name);
                continue;
            }
            declaring = stage;
            in(Place.STAGE, null, Place.STAGE, stage.body);
            if (stage.steps == null) {
                throw new IllegalStateException("stage '" + stage.name + "' declares no steps");
            }
            runSteps(stage.steps);
            runPost(stage);
        }
        runPost(pipeline);
        setResult.accept(result);
    }

    private void runPost(Block block) {
        if (block.post == null) {
            return;
        }
        declaredPost = new LinkedHashMap<>();
        Place outer = place;
        place = Place.POST;
        try {
            block.post.call();
        } finally {
            place = outer;
        }
        Map<String, Closure<?>> conditions = declaredPost;
        runIfDeclared(conditions, "always");
        runIfDeclared(conditions, switch (result) {
            case "SUCCESS" -> "success";
            case "ABORTED" -> "aborted";
            default -> "failure";
        });
        if (!result.equals("SUCCESS")) {
            runIfDeclared(conditions, "unsuccessful");
        }
        runIfDeclared(conditions, "cleanup");
    }

    private void runIfDeclared(Map<String, Closure<?>> conditions, String condition) {
        if (conditions.containsKey(condition)) {
            runSteps(conditions.get(condition));
        }
    }

    private void runSteps(Closure<?> steps) {
        Place outer = place;
        place = Place.STEPS;
        try {
            steps.call();
        } catch (BuildAborted e) {
            fail("ABORTED", e);
        } catch (RuntimeException e) {
            fail("FAILURE", e);
        } finally {
            place = outer;
        }
    }

    private void fail(String newResult, RuntimeException cause) {
        if (RESULTS.indexOf(newResult) > RESULTS.indexOf(result)) {
            result = newResult;
        }
        if (failure == null) {
            failure = cause;
        }
    }

    /** Calls {@code body} with {@code inner} as the place, after checking {@code directive} stands in {@code at}. */
    private Object in(Place inner, String directive, Place at, Closure<?> body) {
        if (directive != null) {
            expect(directive, at);
        }
        Place outer = place;
        place = inner;
        try {
            return body.call();
        } finally {
            place = outer;
        }
    }

    private Object expect(String directive, Place... allowed) {
        for (Place p : allowed) {
            if (p == place) {
                return null;
            }
        }
        throw new IllegalStateException("'" + directive + "' is not allowed in " + place.name().toLowerCase()
                + " (allowed in " + List.of(allowed).toString().toLowerCase() + ")");
    }

    private void on(String name, Function<Object[], Object> body, Class<?>... args) {
        helper.registerAllowedMethod(MethodSignature.method(name, args), new Step(body));
    }

    private static Closure<?> closure(Object arg) {
        return (Closure<?>) Objects.requireNonNull(arg, "a block");
    }
}
