package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.AcmeairDates;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import dev.meshbench.model.settings.Catalogue;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__acmeairTripDate(from|return,variable[,outbound])}}: the date of a trip's outbound or return leg as the
 * {@code workload} property's mix dates it ({@link AcmeairDates#tripDay}), midnight UTC as an ISO-8601 instant.
 * {@code outbound} (an ISO-8601 instant or date) is the outbound leg's date, which a {@code roundtrip} return needs.
 */
public class AcmeairTripDate extends MeshbenchFunction {

    static final String KEY = "__acmeairTripDate";

    private final Clock clock;
    private final Supplier<RandomGenerator> random;

    public AcmeairTripDate() {
        this(Clock.systemUTC(), ThreadLocalRandom::current);
    }

    AcmeairTripDate(Clock clock, Supplier<RandomGenerator> random) {
        super(1, List.of(
                "Leg: from or return",
                "Name of variable in which to store the result (optional)",
                "The outbound leg's ISO-8601 date (a roundtrip return leg needs it)"));
        this.clock = clock;
        this.random = random;
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String leg = parameter(0);
        if (!leg.equals("from") && !leg.equals("return")) {
            throw failure("leg is '" + leg + "', must be from or return");
        }
        String date;
        try {
            Properties props = jmeterProperties();
            String outbound = parameter(2);
            LocalDate day = AcmeairDates.tripDay(WorkloadProperties.mix(props), leg.equals("return"),
                    LocalDate.now(clock.withZone(ZoneOffset.UTC)),
                    WorkloadProperties.driver(props, Catalogue.FLIGHT_DAYS),
                    outbound.isEmpty() ? null : AcmeairDates.utcDay(outbound), random.get());
            date = AcmeairDates.midnightUtc(day);
        } catch (IllegalArgumentException e) { // InvalidWorkloadPropertyException too
            throw failure(e.getMessage());
        }
        storeIn(1, date);
        return date;
    }

    @Override
    public String getReferenceKey() {
        return KEY;
    }
}
