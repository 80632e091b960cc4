package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.AcmeairAirports;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__acmeairTripAirport(from|to,variable[,other])}}: a flight query's airport as the {@code workload}
 * property's mix picks it. {@code original}: the next code of the original driver's list
 * ({@link AcmeairAirports#ORIGINAL_FROM} or {@link AcmeairAirports#ORIGINAL_TO}), one cursor per list shared by all
 * threads, as the original's shared CSV Data Sets. {@code roundtrip}: a random code of the {@code airports}
 * property (default: the kit's 30), different from {@code other} when given.
 */
public class AcmeairTripAirport extends MeshbenchFunction {

    static final String KEY = "__acmeairTripAirport";
    private static final AtomicLong FROM_CURSOR = new AtomicLong();
    private static final AtomicLong TO_CURSOR = new AtomicLong();

    private final Supplier<RandomGenerator> random;

    public AcmeairTripAirport() {
        this(ThreadLocalRandom::current);
    }

    AcmeairTripAirport(Supplier<RandomGenerator> random) {
        super(1, List.of(
                "Which airport: from or to",
                "Name of variable in which to store the result (optional)",
                "An airport code the result must differ from (roundtrip mix only; optional)"));
        this.random = random;
    }

    /** The {@code n}-th code (from 0) the original driver reads from {@code list}. */
    static String originalAt(List<String> list, long n) {
        return list.get((int) (n % list.size()));
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String which = parameter(0);
        if (!which.equals("from") && !which.equals("to")) {
            throw failure("first argument is '" + which + "', must be from or to");
        }
        String code;
        try {
            Properties props = jmeterProperties();
            if (WorkloadProperties.mix(props).equals(WorkloadProperties.MIX_ORIGINAL)) {
                code = which.equals("from") ? originalAt(AcmeairAirports.ORIGINAL_FROM, FROM_CURSOR.getAndIncrement())
                        : originalAt(AcmeairAirports.ORIGINAL_TO, TO_CURSOR.getAndIncrement());
            } else {
                code = AcmeairAirports.pick(AcmeairAirports.fromProperties(props), parameter(2), random.get());
            }
        } catch (IllegalArgumentException e) {
            throw failure(e.getMessage());
        }
        storeIn(1, code);
        return code;
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
