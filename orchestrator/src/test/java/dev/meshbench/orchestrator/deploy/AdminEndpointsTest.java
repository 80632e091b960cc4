package dev.meshbench.orchestrator.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AdminEndpointsTest {
    private static final URI ENTRY = URI.create("http://127.0.0.1:41000");

    @Test
    @DisplayName("an admin endpoint that is the entry is refused, naming the service; one per service otherwise")
    void neverTheEntry() {
        Endpoints load = Endpoints.through(ENTRY, List.of("auth", "customer"));
        AdminEndpoints own = new AdminEndpoints(Map.of("auth", URI.create("http://127.0.0.1:41001"),
                "customer", URI.create("http://127.0.0.1:41002")));
        assertEquals(own, own.checkedAgainst(load));
        assertEquals(URI.create("http://127.0.0.1:41002"), own.service("customer"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AdminEndpoints(
                Map.of("auth", URI.create("http://127.0.0.1:41001"), "customer", ENTRY)).checkedAgainst(load));
        assertEquals("the admin endpoint of customer is the entry http://127.0.0.1:41000, which clients reach", e.getMessage());
        assertEquals("no admin endpoint for service flight; have [auth, customer]",
                assertThrows(TargetException.class, () -> own.service("flight")).getMessage());
    }
}
