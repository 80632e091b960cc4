package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.SittingControlReader;
import java.util.List;
import java.util.Optional;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__meshbenchPhase()}}: the phase the sitting's control file says now ({@code meshbench.controlFile}), empty
 * outside the plan's sitting mode. The plan's {@code phase label} sets the sample variable {@code phase} from it before
 * every request, so each sample carries the phase it started in and the kit cuts the sitting's JTL by it.
 */
public class MeshbenchPhase extends MeshbenchFunction {

    static final String KEY = "__meshbenchPhase";

    public MeshbenchPhase() {
        super(0, List.of());
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        try {
            Optional<SittingControlReader> control = SittingControlReader.fromProperties(jmeterProperties());
            return control.map(c -> c.current().phase()).orElse("");
        } catch (InvalidWorkloadPropertyException | IllegalStateException e) {
            throw failure(e.getMessage());
        }
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
