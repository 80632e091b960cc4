package dev.meshbench.jmeter.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.JMeterTestEnvironment;
import dev.meshbench.jmeter.config.WorkloadPropertiesValidator;
import dev.meshbench.jmeter.extractors.CancellableBookingsExtractor;
import dev.meshbench.jmeter.extractors.FlightChoiceExtractor;
import dev.meshbench.jmeter.workload.RampSchedule;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.control.ForeachController;
import org.apache.jmeter.control.ReplaceableController;
import org.apache.jmeter.gui.tree.JMeterTreeModel;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** acmeair.jmx as JMeter itself loads it in non-GUI mode: SaveService, ModuleController resolution, tree conversion. */
class AcmeairPlanTest {

    static final File PLAN = new File("src/main/jmeter/acmeair.jmx");
    static final File JTL_PROPERTIES = new File("src/main/jmeter/meshbench-jtl.properties");

    static final Set<String> LABELS = Set.of("login", "viewProfile", "updateProfile", "queryFlights", "bookFlights",
            "bookingCount", "listBookings", "viewRewards", "cancelBooking");

    private static HashTree loaded;

    @BeforeAll
    static void load() throws Exception {
        JMeterTestEnvironment.init();
        loaded = SaveService.loadTree(PLAN);
    }

    private static <T> List<T> find(HashTree tree, Class<T> type) {
        SearchByClass<T> search = new SearchByClass<>(type);
        tree.traverse(search);
        return new ArrayList<>(search.getSearchResults());
    }

    /** What JMeter's non-GUI runner does before starting the engine. */
    private static HashTree convertedForRun() throws Exception {
        HashTree tree = SaveService.loadTree(PLAN);
        @SuppressWarnings("deprecation")
        JMeterTreeModel model = new JMeterTreeModel(new Object());
        JMeterTreeNode root = (JMeterTreeNode) model.getRoot();
        model.addSubTree(tree, root);
        for (ReplaceableController rc : find(tree, ReplaceableController.class)) {
            rc.resolveReplacementSubTree(root);
        }
        return JMeter.convertSubTree(tree, true);
    }

    @Test
    @DisplayName("runs its thread groups one after another")
    void runsConsecutively() {
        TestPlan plan = find(loaded, TestPlan.class).get(0);
        assertTrue(plan.isSerialized());
    }

    @Test
    @DisplayName("has a warm-up group, then 12 step groups sized by __meshbenchStepClients and timed by step.seconds")
    void stepGroups() {
        List<ThreadGroup> groups = find(loaded, ThreadGroup.class);
        assertEquals(1 + RampSchedule.MAX_STEPS, groups.size());
        ThreadGroup warm = groups.get(0);
        assertEquals(WorkloadProperties.WARMUP_GROUP, warm.getName());
        assertEquals("${__meshbenchProperty(warmup.clients)}", warm.getPropertyAsString(ThreadGroup.NUM_THREADS));
        assertEquals("${__meshbenchProperty(warmup.seconds)}", warm.getPropertyAsString(ThreadGroup.DURATION));
        org.apache.jmeter.control.IfController ifWarm = find(loaded, org.apache.jmeter.control.IfController.class).stream()
                .filter(c -> c.getName().equals("warm?")).findFirst().orElseThrow();
        assertEquals("${__meshbenchWarm()}", ifWarm.getCondition());
        org.apache.jmeter.sampler.TestAction stop = find(loaded, org.apache.jmeter.sampler.TestAction.class).get(0);
        assertEquals(org.apache.jmeter.sampler.TestAction.STOP, stop.getAction());
        assertEquals(org.apache.jmeter.sampler.TestAction.THREAD, stop.getTarget(), "stops the client, not the test");
        for (int n = 1; n < groups.size(); n++) {
            ThreadGroup g = groups.get(n);
            assertEquals(String.format("step %02d", n), g.getName());
            assertEquals("${__meshbenchStepClients(" + n + ")}", g.getPropertyAsString(ThreadGroup.NUM_THREADS));
            assertEquals("${__meshbenchProperty(step.seconds)}", g.getPropertyAsString(ThreadGroup.DURATION));
            assertTrue(g.getScheduler());
            assertEquals("0", g.getPropertyAsString(ThreadGroup.RAMP_TIME));
        }
    }

    @Test
    @DisplayName("gives every step group the whole session once JMeter has resolved its module controllers")
    void everyGroupRunsTheSession() throws Exception {
        HashTree run = convertedForRun();
        SearchByClass<ThreadGroup> search = new SearchByClass<>(ThreadGroup.class);
        run.traverse(search);
        assertEquals(1 + RampSchedule.MAX_STEPS, search.getSearchResults().size(), "the warm-up and the steps");
        for (ThreadGroup g : search.getSearchResults()) {
            Set<String> labels = new LinkedHashSet<>();
            for (HTTPSamplerProxy s : find(search.getSubTree(g), HTTPSamplerProxy.class)) {
                labels.add(s.getName());
            }
            assertEquals(List.of("login", "viewProfile", "updateProfile", "queryFlights", "bookFlights",
                    "bookingCount", "listBookings", "viewRewards", "cancelBooking"), new ArrayList<>(labels), g.getName());
        }
    }

    @Test
    @DisplayName("labels samples only with the documented request names")
    void sampleLabels() {
        Set<String> labels = new LinkedHashSet<>();
        for (HTTPSamplerProxy s : find(loaded, HTTPSamplerProxy.class)) {
            labels.add(s.getName());
        }
        assertEquals(LABELS, labels);
    }

    @Test
    @DisplayName("contains the kit's validator, both extractors and a per-session cookie manager")
    void kitElements() {
        assertEquals(1, find(loaded, WorkloadPropertiesValidator.class).size());
        assertEquals(1, find(loaded, FlightChoiceExtractor.class).size());
        assertEquals(1, find(loaded, CancellableBookingsExtractor.class).size());
        CookieManager cookies = find(loaded, CookieManager.class).get(0);
        assertTrue(cookies.getClearEachIteration());
    }

    @Test
    @DisplayName("lets the cancel loop run: no empty start or end index, which JMeter reads as 0")
    void cancelLoopHasNoEmptyIndexes() {
        ForeachController each = find(loaded, ForeachController.class).get(0);
        assertEquals("cancel", each.getPropertyAsString("ForeachController.inputVal"));
        assertTrue(each.getProperty("ForeachController.endIndex") instanceof NullProperty);
        assertTrue(each.getProperty("ForeachController.startIndex") instanceof NullProperty);
    }

    @Test
    @DisplayName("writes exactly the documented JTL columns to the file named by meshbench.jtl")
    void samplesWriter() {
        List<ResultCollector> writers = find(loaded, ResultCollector.class);
        assertEquals(1, writers.size());
        ResultCollector writer = writers.get(0);
        assertEquals("${__P(meshbench.jtl,)}", writer.getPropertyAsString("filename"));
        Properties saved = JMeterTestEnvironment.setProperties("sample_variables", "step");
        try {
            SampleEvent.initSampleVariables();
            assertEquals("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                    + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"step\"",
                    CSVSaveService.printableFieldNamesToString(writer.getSaveConfig()));
            assertTrue(!writer.getSaveConfig().saveAsXml() && !writer.getSaveConfig().saveSubresults());
        } finally {
            JMeterTestEnvironment.restore(saved);
            SampleEvent.initSampleVariables();
        }
    }

    @Test
    @DisplayName("fixes the JTL columns and the step and phase sample variables")
    void jtlProperties() throws Exception {
        Properties p = new Properties();
        try (InputStream in = new FileInputStream(JTL_PROPERTIES)) {
            p.load(in);
        }
        assertEquals("step," + dev.meshbench.model.SittingControl.PHASE_COLUMN, p.getProperty("sample_variables"));
        assertEquals("csv", p.getProperty("jmeter.save.saveservice.output_format"));
        assertEquals("ms", p.getProperty("jmeter.save.saveservice.timestamp_format"));
        for (String off : List.of("filename", "encoding", "sample_count", "hostname", "subresults")) {
            assertEquals("false", p.getProperty("jmeter.save.saveservice." + off), off);
        }
        for (String on : List.of("label", "response_code", "thread_counts", "url", "latency", "idle_time",
                "connect_time", "bytes", "sent_bytes", "assertion_results_failure_message")) {
            assertEquals("true", p.getProperty("jmeter.save.saveservice." + on), on);
        }
        assertNotNull(p.getProperty("jmeter.save.saveservice.default_delimiter"));
    }
}
