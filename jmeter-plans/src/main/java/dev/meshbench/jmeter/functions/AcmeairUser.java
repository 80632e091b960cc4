package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__acmeairUser([variable])}}: a random loaded user id {@code uid<N>@email.com}, N drawn uniformly from
 * [0, {@code customers}).
 */
public class AcmeairUser extends MeshbenchFunction {

    static final String KEY = "__acmeairUser";

    private final Supplier<RandomGenerator> random;

    public AcmeairUser() {
        this(ThreadLocalRandom::current);
    }

    AcmeairUser(Supplier<RandomGenerator> random) {
        super(0, List.of("Name of variable in which to store the result (optional)"));
        this.random = random;
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        int customers;
        try {
            customers = WorkloadProperties.customers(jmeterProperties());
        } catch (InvalidWorkloadPropertyException e) {
            throw failure(e.getMessage());
        }
        String user = "uid" + random.get().nextInt(customers) + "@email.com";
        storeIn(0, user);
        return user;
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
