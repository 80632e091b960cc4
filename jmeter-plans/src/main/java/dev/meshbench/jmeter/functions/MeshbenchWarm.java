package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__meshbenchWarm()}}: {@code true} once the warm-up is over, {@code false} while it goes on. The kit ends the
 * warm-up by creating the file the {@code meshbench.warmFile} property names, when it judges the system warm (or at the
 * warm-up's cap); without that property there is nothing to wait for, and the answer is {@code true}. The warm-up
 * thread group asks before every session and stops the client when it is over, so the ramp's first step starts in
 * the same, warm, JMeter. In the plan's sitting mode ({@code meshbench.controlFile}) it answers the control file's
 * {@code stop} instead: the warm-up group then runs the whole sitting.
 */
public class MeshbenchWarm extends MeshbenchFunction {

    static final String KEY = "__meshbenchWarm";

    public MeshbenchWarm() {
        super(0, List.of());
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        if (dev.meshbench.jmeter.workload.SittingControlReader.sitting(jmeterProperties())) {
            // sitting mode: the warm-up group runs the whole sitting, until the control file says stop
            try {
                return Boolean.toString(dev.meshbench.jmeter.workload.SittingControlReader.fromProperties(jmeterProperties())
                        .orElseThrow().current().stop());
            } catch (dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException | IllegalStateException e) {
                throw failure(e.getMessage());
            }
        }
        String file = jmeterProperties().getProperty(WorkloadProperties.WARM_FILE);
        if (file == null || file.isBlank()) {
            return "true";
        }
        try {
            return Boolean.toString(Files.exists(Path.of(file.trim())));
        } catch (InvalidPathException e) {
            throw failure(WorkloadProperties.WARM_FILE + "=" + file + " is not a path: " + e.getMessage());
        }
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
