package dev.meshbench.jmeter.functions;

import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
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
 * this thread's share of [0, {@code customers}): the N with {@code N mod threads == threadNum}. Threads running at
 * the same time never act as the same customer, so one cannot cancel a booking another is about to cancel (a
 * 404 that would count as an error of the system under test). With more threads than customers, N is drawn
 * from all customers.
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
        JMeterContext ctx = JMeterContextService.getContext();
        int threads = ctx.getThreadGroup() == null ? 1 : Math.max(1, ctx.getThreadGroup().getNumThreads());
        String user = "uid" + pick(random.get(), customers, Math.max(0, ctx.getThreadNum()), threads) + "@email.com";
        storeIn(0, user);
        return user;
    }

    /** A customer number of thread {@code thread}'s share: {@code n mod threads == thread mod threads}. */
    static int pick(RandomGenerator random, int customers, int thread, int threads) {
        if (threads <= 1 || threads > customers) {
            return random.nextInt(customers);
        }
        int slot = thread % threads;
        int share = (customers - slot + threads - 1) / threads;
        return slot + threads * random.nextInt(share);
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
