package dev.meshbench.jmeter.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.ComponentNames;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The plugin lists the services in the order a session first calls them; they must be the kit's services
 * ({@link ComponentNames#SERVICES}), no more, no fewer.
 */
class ServiceNamesTest {
    @Test
    @DisplayName("the plan's services are the kit's four services")
    void sameServicesAsTheKit() {
        Set<String> plan = new TreeSet<>(WorkloadProperties.SERVICES);
        assertEquals(new TreeSet<>(ComponentNames.SERVICES), plan);
        assertEquals(WorkloadProperties.SERVICES.size(), plan.size(), "no service twice: " + WorkloadProperties.SERVICES);
    }
}
