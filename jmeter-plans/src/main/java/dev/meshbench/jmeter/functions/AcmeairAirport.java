package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.AcmeairAirports;
import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__acmeairAirport([variable[,other]])}}: a random airport code from the loaded set (or the
 * {@code airports} property), different from {@code other} when given, e.g.
 * {@code ${__acmeairAirport(toAirport,${fromAirport})}}.
 */
public class AcmeairAirport extends MeshbenchFunction {

    static final String KEY = "__acmeairAirport";

    private final Supplier<RandomGenerator> random;

    public AcmeairAirport() {
        this(ThreadLocalRandom::current);
    }

    AcmeairAirport(Supplier<RandomGenerator> random) {
        super(0, List.of(
                "Name of variable in which to store the result (optional)",
                "An airport code the result must differ from (optional)"));
        this.random = random;
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        List<String> codes;
        try {
            codes = AcmeairAirports.fromProperties(jmeterProperties());
        } catch (InvalidWorkloadPropertyException e) {
            throw failure(e.getMessage());
        }
        String code = AcmeairAirports.pick(codes, parameter(1), random.get());
        storeIn(0, code);
        return code;
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
