package dev.meshbench.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ServiceGraphReader")
class ServiceGraphReaderTest {
    static final Path GRAPHS = Path.of("..", "istio-config", "latency", "graphs");

    static GraphException refused(String yaml) {
        return assertThrows(GraphException.class, () -> ServiceGraphReader.read("g.yaml", yaml));
    }

    static void assertRefused(String yaml, int line, String reason) {
        GraphException e = refused(yaml);
        assertEquals(reason, e.reason(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertEquals("g.yaml", e.file());
        assertEquals("g.yaml:" + line + ": " + reason, e.getMessage());
    }

    @Nested
    @DisplayName("reads")
    class Reads {
        @Test
        @DisplayName("the shipped single graph: one entrypoint answering 1 KB")
        void single() throws Exception {
            Path file = GRAPHS.resolve("single.yaml");
            ServiceGraph g = ServiceGraphReader.read(file);
            assertEquals(new ServiceGraph(file.toString(), List.of(new GraphService("a", true, 1, 1024, 1024, 0.0, List.of()))), g);
            assertEquals(List.of("a"), g.entrypoints().stream().map(GraphService::name).toList());
        }

        @Test
        @DisplayName("the shipped double graph: go-sample calls go-sample-dependency, 1 B each way")
        void doubleGraph() throws Exception {
            Path file = GRAPHS.resolve("double.yaml");
            ServiceGraph g = ServiceGraphReader.read(file);
            assertEquals(new ServiceGraph(file.toString(), List.of(
                    new GraphService("go-sample", true, 1, 1, 1, 0.0, List.of(Step.Call.of("go-sample-dependency"))),
                    new GraphService("go-sample-dependency", false, 1, 1, 1, 0.0, List.of()))), g);
            assertEquals(List.of("go-sample-dependency"), g.callees("go-sample"));
            assertEquals(List.of(), g.callees("go-sample-dependency"));
            assertEquals(1, g.requestSize(Step.Call.of("go-sample-dependency")));
        }

        @Test
        @DisplayName("defaults, replicas, sizes and rates in every form, sleeps and a concurrent group")
        void everything() throws Exception {
            ServiceGraph g = ServiceGraphReader.read("all.yaml", """
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    defaults:
                      requestSize: 2 KB
                      responseSize: 512
                      errorRate: 0.01%
                      replicas: 2
                    services:
                      - name: front
                        isEntrypoint: true
                        replicas: 3
                        responseSize: 1MB
                        errorRate: 0.5
                        script:
                          - sleep: 250us
                          - call: {service: back, size: 10 B}
                          - - call: back
                            - call:
                                service: side
                            - sleep: 1.5s
                      - name: back
                        requestSize: 3 B
                      - name: side
                        isEntrypoint: false
                        script:
                    """);
            GraphService front = g.service("front").orElseThrow();
            assertEquals(new GraphService("front", true, 3, 2048, 1024 * 1024, 0.5, List.of(
                    new Step.Sleep(Duration.ofNanos(250_000)),
                    new Step.Call("back", OptionalLong.of(10)),
                    new Step.Concurrent(List.of(Step.Call.of("back"), Step.Call.of("side"), new Step.Sleep(Duration.ofMillis(1500)))))),
                    front);
            assertEquals(new GraphService("back", false, 2, 3, 512, 0.0001, List.of()), g.service("back").orElseThrow());
            assertEquals(new GraphService("side", false, 2, 2048, 512, 0.0001, List.of()), g.service("side").orElseThrow());
            assertEquals(List.of("back", "side"), g.callees("front"));
            assertEquals(List.of("front", "back", "side"), g.names());
            assertEquals(10, g.requestSize(front.calls().get(0)));
            assertEquals(3, g.requestSize(front.calls().get(1)));
            assertEquals(2048, g.requestSize(front.calls().get(2)));
        }

        @Test
        @DisplayName("a diamond (two paths to one service) is not a cycle")
        void diamond() throws Exception {
            ServiceGraph g = ServiceGraphReader.read("d.yaml", """
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true, script: [call: b, call: c]}
                      - {name: b, script: [call: d]}
                      - {name: c, script: [call: d]}
                      - {name: d}
                    """);
            assertEquals(List.of("b", "c"), g.callees("a"));
            assertEquals(0, g.service("d").orElseThrow().requestSize());
        }
    }

    @Nested
    @DisplayName("refuses, naming the line")
    class Refuses {
        @Test
        @DisplayName("an unknown top-level key, listing the allowed ones")
        void unknownTopKey() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    service:
                      - name: a
                    """, 3, "unknown key 'service' at the top level; allowed: apiVersion, kind, defaults, services");
        }

        @Test
        @DisplayName("an unknown service key, listing the allowed ones")
        void unknownServiceKey() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        port: 8080
                    """, 6, "unknown key 'port' in service 'a'; allowed: name, isEntrypoint, replicas, requestSize, responseSize,"
                    + " errorRate, script");
        }

        @Test
        @DisplayName("an unknown key in defaults")
        void unknownDefaultsKey() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    defaults:
                      numReplicas: 2
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 4, "unknown key 'numReplicas' in defaults; allowed: requestSize, responseSize, errorRate, replicas");
        }

        @Test
        @DisplayName("a key given twice")
        void repeatedKey() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        name: b
                    """, 6, "key 'name' is given twice in service 'b' (first on line 4)");
        }

        @Test
        @DisplayName("a wrong apiVersion")
        void apiVersion() {
            assertRefused("""
                    apiVersion: v1
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 1, "apiVersion is 'v1', expected 'v1alpha1'");
        }

        @Test
        @DisplayName("a missing apiVersion")
        void missingApiVersion() {
            assertRefused("""
                    # no version
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 2, "missing apiVersion: expected 'apiVersion: v1alpha1'");
        }

        @Test
        @DisplayName("a wrong kind")
        void kind() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: ServiceGraph
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 2, "kind is 'ServiceGraph', expected 'MockServiceGraph'");
        }

        @Test
        @DisplayName("a call to an unknown service, at the line of the call")
        void unknownCallee() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - sleep: 1ms
                          - call: bb
                      - name: b
                    """, 8, "service 'a' calls 'bb', which is not a service of this graph (services: a, b)");
        }

        @Test
        @DisplayName("a cycle, named and reported at the call that closes it")
        void cycle() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - call: b
                      - name: b
                        script:
                          - - sleep: 1ms
                            - call: a
                    """, 11, "calls form a cycle: a -> b -> a");
        }

        @Test
        @DisplayName("a service calling itself")
        void selfCall() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script: [call: b]
                      - name: b
                        script:
                          - call: {service: b, size: 1 B}
                    """, 9, "calls form a cycle: b -> b");
        }

        @Test
        @DisplayName("a graph without an entrypoint, at the services key")
        void noEntrypoint() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: false
                    """, 3, "no service has isEntrypoint: true; a graph needs at least one entrypoint");
        }

        @Test
        @DisplayName("two services with one name, at the second")
        void duplicateName() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                      - name: b
                      - name: a
                    """, 7, "duplicate service name 'a' (first defined on line 4)");
        }

        @Test
        @DisplayName("a name that is no DNS label")
        void badName() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: Front_End
                        isEntrypoint: true
                    """, 4, "service name 'Front_End' is not a DNS label (lower-case letters, digits and '-', starting with a"
                    + " letter and not ending with '-', at most 63 characters)");
        }

        @Test
        @DisplayName("a size with an unknown unit")
        void badSizeUnit() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    defaults:
                      requestSize: 1 XB
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 4, "requestSize '1 XB' is not a size: expected a whole number of B, KB or MB (1 KB = 1024 B),"
                    + " e.g. '1 KB', or a whole number of bytes");
        }

        @Test
        @DisplayName("a negative size")
        void negativeSize() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        responseSize: -1 KB
                    """, 6, "responseSize '-1 KB' is negative");
        }

        @Test
        @DisplayName("a negative call size")
        void negativeCallSize() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - call: {service: b, size: -5}
                      - name: b
                    """, 7, "size '-5' is negative");
        }

        @Test
        @DisplayName("a size above 1024 MB")
        void hugeSize() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true, responseSize: 1025 MB}
                    """, 4, "responseSize '1025 MB' is larger than 1024 MB");
        }

        @Test
        @DisplayName("a bad duration")
        void badDuration() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - sleep: 10 sec
                    """, 7, "sleep '10 sec' is not a duration: expected a number and a unit (ns, us, ms, s, m, h), e.g. '10ms' or '1.5s'");
        }

        @Test
        @DisplayName("a negative duration")
        void negativeDuration() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - sleep: -10ms
                    """, 7, "sleep '-10ms' is negative");
        }

        @Test
        @DisplayName("an error rate above 100%")
        void errorRateAbove() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        errorRate: 150%
                    """, 6, "errorRate '150%' is outside 0..100%");
        }

        @Test
        @DisplayName("a bare error rate above 1, saying it is a fraction")
        void errorRateFraction() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    defaults:
                      errorRate: 5
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 4, "errorRate '5' is outside 0..100% (a bare number is a fraction: 0.05 means 5%)");
        }

        @Test
        @DisplayName("a negative error rate")
        void errorRateNegative() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true, errorRate: -0.1%}
                    """, 4, "errorRate '-0.1%' is outside 0..100%");
        }

        @Test
        @DisplayName("an error rate that is not a number")
        void errorRateText() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - {name: a, isEntrypoint: true, errorRate: often}
                    """, 4, "errorRate 'often' is not a rate: expected a percentage such as '0.01%' or a fraction such as 0.0001");
        }

        @Test
        @DisplayName("replicas below 1")
        void replicas() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        replicas: 0
                    """, 6, "replicas is 0; it must be at least 1");
        }

        @Test
        @DisplayName("replicas that are not a whole number")
        void replicasText() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    defaults:
                      replicas: 1.5
                    services:
                      - {name: a, isEntrypoint: true}
                    """, 4, "replicas '1.5' is not a whole number");
        }

        @Test
        @DisplayName("an empty list of services")
        void emptyServices() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services: []
                    """, 3, "services is empty: a graph needs at least one service");
        }

        @Test
        @DisplayName("services without a value")
        void nullServices() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                    """, 3, "services is empty: a graph needs at least one service");
        }

        @Test
        @DisplayName("a missing services key")
        void missingServices() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    """, 1, "missing services: a graph needs at least one service");
        }

        @Test
        @DisplayName("a step that is neither call nor sleep")
        void badStep() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - call: b
                          - wait: 1ms
                      - name: b
                    """, 8, "a step must be 'call: <service>', 'sleep: <duration>' or a list of those (run concurrently); got key 'wait'");
        }

        @Test
        @DisplayName("a step with both call and sleep")
        void twoKeyStep() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - call: b
                            sleep: 1ms
                      - name: b
                    """, 7, "a step must be 'call: <service>', 'sleep: <duration>' or a list of those (run concurrently); got keys call, sleep");
        }

        @Test
        @DisplayName("a step that is a bare word")
        void scalarStep() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - b
                    """, 7, "a step must be 'call: <service>', 'sleep: <duration>' or a list of those (run concurrently); got 'b'");
        }

        @Test
        @DisplayName("a concurrent group inside a concurrent group")
        void nestedGroup() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - - sleep: 1ms
                            - - sleep: 2ms
                    """, 8, "a concurrent group holds calls and sleeps, not another group");
        }

        @Test
        @DisplayName("an unknown key in a call")
        void unknownCallKey() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: true
                        script:
                          - call: {service: b, timeout: 1s}
                      - name: b
                    """, 7, "unknown key 'timeout' in a call; allowed: service, size");
        }

        @Test
        @DisplayName("isEntrypoint that is not true or false")
        void badBoolean() {
            assertRefused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: a
                        isEntrypoint: yes
                    """, 5, "isEntrypoint must be true or false; got 'yes'");
        }

        @Test
        @DisplayName("text that is not YAML")
        void notYaml() {
            GraphException e = refused("""
                    apiVersion: v1alpha1
                    kind: MockServiceGraph
                    services:
                      - name: [a
                    """);
            assertEquals(5, e.line(), e.getMessage());
            assertEquals("not valid YAML: expected ',' or ']', but got <stream end>", e.reason());
        }

        @Test
        @DisplayName("an empty file")
        void empty() {
            assertRefused("# nothing\n", 1, "the file is empty; a graph has apiVersion, kind and services");
        }

        @Test
        @DisplayName("a bad file, naming its path")
        void namesThePath(@TempDir Path dir) throws Exception {
            Path file = dir.resolve("bad.yaml");
            Files.writeString(file, "apiVersion: v1alpha1\nkind: MockServiceGraph\nservices:\n  - name: a\n");
            GraphException e = assertThrows(GraphException.class, () -> ServiceGraphReader.read(file));
            assertEquals(file.toString(), e.file());
            assertEquals(file + ":3: no service has isEntrypoint: true; a graph needs at least one entrypoint", e.getMessage());
        }
    }
}
