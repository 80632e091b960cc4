package dev.meshbench.jmeter.workload;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.model.settings.Parser;
import dev.meshbench.model.settings.Parsers;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The fixed arrival rate of each ramp step, requests per second summed over the step's threads, from the
 * {@code rate} property: absent or empty, no rate (a closed loop: each thread sends as fast as answers come); one
 * value, the same rate for every step; a list, one rate per {@code clients} entry. With a rate, a step's client
 * count is the pool of threads that may be waiting for answers at once, not the load: the load is the rate.
 *
 * @param perStep rate of each step, requests per second, in ramp order; empty when there is no rate
 */
public record StepRates(List<Double> perStep) {
    public static final String RATE = "rate";

    public StepRates {
        perStep = List.copyOf(perStep);
    }

    /** Reads {@code rate} against the ramp, naming the property and the rule on a bad value. */
    public static StepRates fromProperties(Properties props, RampSchedule ramp) {
        String value = props.getProperty(RATE);
        if (value == null || value.isBlank()) {
            return new StepRates(List.of());
        }
        try {
            return new StepRates(Parsers.perStep(Catalogue.RATE.parser().read().apply(value.trim()), ramp.clients().size()));
        } catch (Parser.Invalid e) {
            throw new InvalidWorkloadPropertyException(RATE, value, e.getMessage());
        }
    }

    /** The rate of the step run by {@code clients} threads, if there is a rate. */
    public Optional<Double> ofStep(RampSchedule ramp, int clients) {
        int i = ramp.clients().indexOf(clients);
        return perStep.isEmpty() || i < 0 ? Optional.empty() : Optional.of(perStep.get(i));
    }

    /** E.g. {@code fixed rate 100, 200 req/s}, or {@code closed loop}. */
    public String summary() {
        if (perStep.isEmpty()) {
            return "closed loop (no rate)";
        }
        List<String> shown = perStep.stream().map(r -> String.format(Locale.ROOT, "%.6g", r).replaceAll("\\.?0+$", "")).toList();
        return "fixed rate " + String.join(", ", shown) + " req/s";
    }
}
