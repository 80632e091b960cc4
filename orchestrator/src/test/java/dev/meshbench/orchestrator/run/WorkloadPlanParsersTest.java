package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.jmeter.workload.RampSchedule;
import dev.meshbench.jmeter.workload.StepRates;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JMeter plugin runs inside JMeter without the kit's jars, so it reads {@code clients} and {@code rate} with its
 * own parsers ({@link RampSchedule#parseClients}, {@link StepRates}); the kit validates the same values first as
 * {@code meshbench.clients} and {@code meshbench.rate} ({@link RunSettings}). The two must accept and refuse the same
 * values and read them alike, or a run could pass the kit's checks and then fail, or differ, inside JMeter.
 */
class WorkloadPlanParsersTest {
    @ParameterizedTest(name = "clients={0}")
    @ValueSource(strings = {"1,5,10,20", " 1 , 5 ", "60", "1,x", "1,,5", "1.5", ""})
    void clientsReadAlike(String value) {
        assertEquals(outcome(() -> dev.meshbench.model.settings.Catalogue.CLIENTS.parse(value)), outcome(() -> RampSchedule.parseClients(value)),
                "meshbench.clients vs the plan's clients");
    }

    @ParameterizedTest(name = "rate={0} for clients 1,5")
    @ValueSource(strings = {"300", "100,200", " 50 , 75.5 ", "100,200,300", "x", "0", "-5", "Infinity", "100,", ""})
    void ratesReadAlike(String value) {
        List<Integer> clients = List.of(1, 5);
        Properties plan = new Properties();
        plan.setProperty(StepRates.RATE, value);
        plan.setProperty("clients", "1,5");
        plan.setProperty("step.seconds", "10");
        assertEquals(outcome(() -> RunSettings.rates(java.util.Map.of(RunSettings.P_RATE, value), clients)),
                outcome(() -> StepRates.fromProperties(plan, RampSchedule.fromProperties(plan)).perStep()),
                "meshbench.rate vs the plan's rate");
    }

    /** The value read, or empty when the parser refused it (the messages name different properties). */
    private static Optional<Object> outcome(Supplier<?> parse) {
        try {
            return Optional.of(parse.get());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
