package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.AcmeairApi;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The entry's allowlist (AcmeairApi.PUBLIC) names routes the services really have, readiness included. */
@ExtendWith(AcmeairSystem.class)
@DisplayName("the client API")
class PublicApiTest {
    @Test
    @DisplayName("every operation of AcmeairApi.PUBLIC is a route of its service (answered by a handler, not Javalin's 404)")
    void everyPublicOperationIsARoute() {
        for (AcmeairApi.Operation op : AcmeairApi.PUBLIC) {
            String path = op.path().replaceAll("\\{[a-z]+\\}", "uid0@email.com");
            URI uri = URI.create(url(ServiceName.parse(op.service())) + path);
            HttpResponse<String> r = Http.send(HttpRequest.newBuilder(uri).method(op.method(), HttpRequest.BodyPublishers.noBody())
                    .header("Content-Type", "application/x-www-form-urlencoded").build());
            assertTrue(r.statusCode() != 404 && r.statusCode() != 405, op + " answered " + r.statusCode() + ": " + r.body());
        }
        assertEquals(ServiceName.values().length, AcmeairApi.PUBLIC.stream().filter(op -> op.path().endsWith("/ready")).count());
        for (ServiceName s : ServiceName.values()) {
            assertEquals(s.readyPath(), AcmeairApi.readyPath(s.id()));
        }
    }
}
