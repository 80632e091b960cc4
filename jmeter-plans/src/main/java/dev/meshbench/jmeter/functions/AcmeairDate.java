package dev.meshbench.jmeter.functions;

import dev.meshbench.jmeter.workload.AcmeairDates;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;

/**
 * {@code ${__acmeairDate(days[,variable[,from]])}}: midnight UTC of today (UTC) plus {@code days}, as an ISO-8601
 * instant such as {@code 2026-11-23T00:00:00Z}. {@code days} is a whole number or a range {@code a..b} drawn at
 * random; {@code from} (an ISO-8601 instant or date) replaces today, e.g. a return date one day after
 * {@code ${fromDate}}. Independent of the JVM's time zone and locale.
 */
public class AcmeairDate extends MeshbenchFunction {

    static final String KEY = "__acmeairDate";

    private final Clock clock;
    private final Supplier<RandomGenerator> random;

    public AcmeairDate() {
        this(Clock.systemUTC(), ThreadLocalRandom::current);
    }

    AcmeairDate(Clock clock, Supplier<RandomGenerator> random) {
        super(1, List.of(
                "Days from today (UTC): a whole number, or a range like 0..4 to draw from",
                "Name of variable in which to store the result (optional)",
                "Count from this ISO-8601 instant or date instead of today (optional)"));
        this.clock = clock;
        this.random = random;
    }

    @Override
    public String execute(SampleResult previousResult, Sampler currentSampler) throws InvalidVariableException {
        String days = parameter(0);
        String from = parameter(2);
        String date;
        try {
            LocalDate base = from.isEmpty() ? LocalDate.now(clock.withZone(ZoneOffset.UTC)) : AcmeairDates.utcDay(from);
            date = AcmeairDates.midnightUtc(base.plusDays(AcmeairDates.dayOffset(days, random.get())));
        } catch (IllegalArgumentException e) {
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
