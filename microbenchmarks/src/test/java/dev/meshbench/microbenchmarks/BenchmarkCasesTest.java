package dev.meshbench.microbenchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.meshbench.dataplane.loopback.LoopbackChain;
import dev.meshbench.results.CaseIds;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * JMH's {@code @Param} takes only constants, so the benchmarks name the cases one constant of {@link CaseIds} at a
 * time: this test makes sure a case added to {@link CaseIds#ALL} is benchmarked too.
 */
class BenchmarkCasesTest {
    @Test
    @DisplayName("every @Param that names cases names all of CaseIds.ALL, in study order")
    void caseParamsNameEveryCase() throws IOException, URISyntaxException, ClassNotFoundException {
        List<String> checked = new ArrayList<>();
        for (Class<?> benchmark : benchmarkClasses()) {
            for (Field f : benchmark.getDeclaredFields()) {
                Param p = f.getAnnotation(Param.class);
                if (p != null && Arrays.stream(p.value()).anyMatch(CaseIds.ALL::contains)) {
                    assertEquals(CaseIds.ALL, List.of(p.value()),
                            benchmark.getSimpleName() + "." + f.getName() + "'s @Param must list every case of CaseIds.ALL");
                    checked.add(benchmark.getSimpleName() + "." + f.getName());
                }
            }
        }
        assertEquals(List.of("HopLatencyBenchmark.path", "HopThroughputBenchmark.path", "PlanChainLatencyBenchmark.path",
                "PlanChainThroughputBenchmark.path"), checked.stream().sorted().toList());
    }

    @Test
    @DisplayName("the in-process chains (LoopbackChain.Shape) have one shape per case")
    void loopbackShapesAreTheCases() {
        assertEquals(CaseIds.ALL, Stream.of(LoopbackChain.Shape.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** The benchmark classes of this module, found in its compiled classes (JMH's generated ones left out). */
    private static List<Class<?>> benchmarkClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(HopLatencyBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path pkg = root.resolve(HopLatencyBenchmark.class.getPackageName().replace('.', '/'));
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(pkg)) {
            for (Path f : files.filter(f -> f.toString().endsWith("Benchmark.class")).sorted().toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                classes.add(Class.forName(HopLatencyBenchmark.class.getPackageName() + "." + name));
            }
        }
        assertFalse(classes.isEmpty(), "no *Benchmark classes under " + pkg);
        return classes;
    }
}
