package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.RampSchedule;
import dev.meshbench.jmeter.workload.SittingControlReader;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.util.List;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * {@code ${__meshbenchStepClients(step)}}: the client count of ramp step {@code step} (1-based) from the
 * {@code clients} property, or 0 when the ramp is shorter (that thread group is skipped). Used as the thread count
 * of each step's thread group. Without a parameter: the thread count of the calling thread's group, which is the
 * step label every sample carries ({@link WorkloadProperties#WARMUP_STEP} in the warm-up's group).
 *
 * <p>An invalid {@code clients} property gives 0 here (nothing starts); the plan's validator reports it and, in
 * non-GUI mode, ends JMeter with exit code 1 before any step.
 */
public class MeshbenchStepClients extends MeshbenchFunction {

    static final String KEY = "__meshbenchStepClients";

    public MeshbenchStepClients() {
        super(0, List.of("Ramp step number, 1.." + RampSchedule.MAX_STEPS
                + " (optional; default: the calling thread's own group)"));
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String step = parameter(0);
        if (step.isEmpty()) {
            AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
            if (group == null) {
                throw failure("called outside a thread group without a step number");
            }
            // the warm-up's samples are labelled 0: no step of the ramp, left out of every figure; in the sitting mode the
            // warm-up group runs the sitting, whose samples carry its clients (the kit cuts them by phase)
            boolean warmUp = WorkloadProperties.WARMUP_GROUP.equals(group.getName());
            return Integer.toString(warmUp && !SittingControlReader.sitting(jmeterProperties()) ? WorkloadProperties.WARMUP_STEP
                    : group.getNumThreads());
        }
        int stepNumber;
        try {
            stepNumber = Integer.parseInt(step);
        } catch (NumberFormatException e) {
            throw failure("step number '" + step + "' is not a whole number");
        }
        if (stepNumber < 1 || stepNumber > RampSchedule.MAX_STEPS) {
            throw failure("step number " + stepNumber + " is outside 1.." + RampSchedule.MAX_STEPS);
        }
        if (SittingControlReader.sitting(jmeterProperties())) {
            return "0"; // the sitting runs in the warm-up group: no step of a ramp
        }
        try {
            return Integer.toString(RampSchedule.fromProperties(jmeterProperties()).clientsOfStep(stepNumber));
        } catch (InvalidWorkloadPropertyException e) {
            failure(e.getMessage());
            return "0";
        }
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
