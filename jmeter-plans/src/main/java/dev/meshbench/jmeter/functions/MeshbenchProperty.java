package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.util.List;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__meshbenchProperty(name)}}: the JMeter property {@code name} of the workload ({@code step.seconds},
 * {@code think.ms}, {@code rewards.percent}, ...), else its default from {@link WorkloadProperties#DEFAULTS} (the kit's
 * catalogue). The plan uses it where {@code ${__P(name,default)}} would spell the default a second time.
 */
public class MeshbenchProperty extends MeshbenchFunction {

    static final String KEY = "__meshbenchProperty";

    public MeshbenchProperty() {
        super(1, List.of("Workload property: " + String.join(", ", WorkloadProperties.DEFAULTS.keySet().stream().sorted().toList())));
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String name = parameter(0);
        String value = WorkloadProperties.raw(jmeterProperties(), name);
        if (value == null) {
            throw failure("'" + name + "' is not a workload property with a default; known: "
                    + WorkloadProperties.DEFAULTS.keySet().stream().sorted().toList());
        }
        return value;
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
