package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.util.List;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__meshbenchServiceUrl(service)}}: the base URL of an Acmeair service (auth, customer, flight, booking)
 * without a trailing slash: property {@code <service>.url}, else {@code base.url}, else http://127.0.0.1:8080.
 */
public class MeshbenchServiceUrl extends MeshbenchFunction {

    static final String KEY = "__meshbenchServiceUrl";

    public MeshbenchServiceUrl() {
        super(1, List.of("Service: " + String.join(", ", WorkloadProperties.SERVICES)));
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String service = parameter(0);
        if (!WorkloadProperties.SERVICES.contains(service)) {
            throw failure("unknown service '" + service + "'; known: " + WorkloadProperties.SERVICES);
        }
        try {
            return WorkloadProperties.serviceUrl(jmeterProperties(), service);
        } catch (InvalidWorkloadPropertyException e) {
            throw failure(e.getMessage());
        }
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
