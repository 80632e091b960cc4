package dev.meshbench.jmeter.functions;

import static dev.meshbench.jmeter.functions.FunctionCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.JMeterTestEnvironment;
import dev.meshbench.jmeter.workload.AcmeairAirports;
import java.util.HashSet;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.ThreadGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** __acmeairUser, __acmeairAirport, __meshbenchStepClients, __meshbenchServiceUrl and __meshbenchProperty, called as JMeter calls them. */
class WorkloadFunctionsTest {

    private JMeterContext context;
    private Properties saved;

    @BeforeEach
    void freshThread() {
        context = JMeterTestEnvironment.freshContext();
    }

    @AfterEach
    void restoreProperties() {
        if (saved != null) {
            JMeterTestEnvironment.restore(saved);
        }
    }

    private void properties(String... kv) {
        saved = JMeterTestEnvironment.setProperties(kv);
    }

    @Test
    @DisplayName("draws users uid0..uid<customers-1>@email.com and stores the one drawn")
    void drawsLoadedUsers() throws Exception {
        properties("customers", "3");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String user = call(new AcmeairUser(), "user");
            assertEquals(user, context.getVariables().get("user"));
            seen.add(user);
        }
        assertEquals(Set.of("uid0@email.com", "uid1@email.com", "uid2@email.com"), seen);
    }

    @Test
    @DisplayName("refuses to draw a user when customers is not a positive number, naming the property")
    void refusesBadCustomers() {
        properties("customers", "0");
        InvalidVariableException e = assertThrows(InvalidVariableException.class, () -> call(new AcmeairUser()));
        assertEquals("__acmeairUser: customers=0: must be between 1 and 1000000 customers (the most the customer service's loader generates)",
                e.getMessage());
    }

    @Test
    @DisplayName("draws airports from the loaded set, never the one to differ from")
    void drawsDifferentAirports() throws Exception {
        properties("airports", null);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String from = call(new AcmeairAirport(), "fromAirport");
            String to = call(new AcmeairAirport(), "toAirport", "${fromAirport}");
            assertNotEquals(from, to);
            assertEquals(to, context.getVariables().get("toAirport"));
            seen.add(to);
        }
        assertEquals(new HashSet<>(AcmeairAirports.LOADED), seen);
    }

    @Test
    @DisplayName("draws airports from the airports property when it is set")
    void usesAirportsProperty() throws Exception {
        properties("airports", "aaa,BBB");
        for (int i = 0; i < 20; i++) {
            assertEquals("BBB", call(new AcmeairAirport(), "", "AAA"));
        }
    }

    @Test
    @DisplayName("gives each thread group its step's clients, and 0 past the ramp's end")
    void stepClients() throws Exception {
        properties("clients", "1,5,10");
        assertEquals("1", call(new MeshbenchStepClients(), "1"));
        assertEquals("10", call(new MeshbenchStepClients(), "3"));
        assertEquals("0", call(new MeshbenchStepClients(), "4"));
        assertEquals("0", call(new MeshbenchStepClients(), "12"));
    }

    @Test
    @DisplayName("starts nothing when the client list is invalid (the validator reports it)")
    void invalidClientsStartNothing() throws Exception {
        properties("clients", "1,x");
        assertEquals("0", call(new MeshbenchStepClients(), "1"));
    }

    @Test
    @DisplayName("without a step number, labels with the calling thread group's client count")
    void labelFromOwnGroup() throws Exception {
        ThreadGroup group = new ThreadGroup();
        group.setNumThreads(20);
        context.setThreadGroup(group);
        assertEquals("20", call(new MeshbenchStepClients()));
    }

    @Test
    @DisplayName("refuses a step number outside 1..12")
    void refusesBadStepNumber() {
        assertThrows(InvalidVariableException.class, () -> call(new MeshbenchStepClients(), "13"));
        assertThrows(InvalidVariableException.class, () -> call(new MeshbenchStepClients(), "first"));
    }

    @Test
    @DisplayName("resolves service URLs: own property, else base.url")
    void serviceUrls() throws Exception {
        properties("base.url", "http://127.0.0.1:7000/", "auth.url", "http://127.0.0.1:7001", "customer.url", null,
                "flight.url", null, "booking.url", null);
        assertEquals("http://127.0.0.1:7001", call(new MeshbenchServiceUrl(), "auth"));
        assertEquals("http://127.0.0.1:7000", call(new MeshbenchServiceUrl(), "booking"));
        InvalidVariableException e = assertThrows(InvalidVariableException.class,
                () -> call(new MeshbenchServiceUrl(), "payments"));
        assertTrue(e.getMessage().contains("unknown service 'payments'"), e.getMessage());
    }

    @Test
    @DisplayName("a workload property: its value when JMeter has one, else the study's value from the kit's catalogue")
    void propertyOrTheCatalogueDefault() throws Exception {
        properties("step.seconds", "7", "think.ms", null, "clients", null);
        assertEquals("7", call(new MeshbenchProperty(), "step.seconds"));
        assertEquals(dev.meshbench.model.settings.Catalogue.THINK_TIME_MS.text(java.util.Map.of(), true).orElseThrow(),
                call(new MeshbenchProperty(), "think.ms"));
        assertEquals("1,5,10,20,30,40,50,60", call(new MeshbenchProperty(), "clients"), "the study's ramp");
        InvalidVariableException e = assertThrows(InvalidVariableException.class, () -> call(new MeshbenchProperty(), "speed"));
        assertTrue(e.getMessage().contains("'speed' is not a workload property"), e.getMessage());
    }

    @Test
    @DisplayName("formats numbers the same under a ru locale and a far-off time zone")
    void localeIndependentNumbers() throws Exception {
        properties("clients", "1000,20000", "customers", "1");
        JMeterTestEnvironment.withDefaults(Locale.forLanguageTag("ru-RU"), TimeZone.getTimeZone("Asia/Kamchatka"), () -> {
            assertEquals("20000", call(new MeshbenchStepClients(), "2"));
            assertEquals("uid0@email.com", call(new AcmeairUser()));
        });
    }
}
