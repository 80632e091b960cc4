package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.AcmeairApi;
import dev.meshbench.model.Service;
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
            String path = op.path().replaceAll("\\{[a-z]+\\}", TestUsers.PUBLIC_API.email(0));
            URI uri = URI.create(url(ServiceName.parse(op.service())) + path);
            HttpResponse<String> r = Http.send(HttpRequest.newBuilder(uri).method(op.method(), HttpRequest.BodyPublishers.noBody())
                    .header("Content-Type", "application/x-www-form-urlencoded").build());
            assertTrue(r.statusCode() != 404 && r.statusCode() != 405, op + " answered " + r.statusCode() + ": " + r.body());
        }
        assertEquals(ServiceName.values().length, AcmeairApi.PUBLIC.stream().filter(op -> op.path().endsWith("/ready")).count());
        for (Service s : Service.values()) {
            assertTrue(AcmeairApi.PUBLIC.contains(new AcmeairApi.Operation("GET", s.readyPath())), s.readyPath() + " is not public");
        }
    }

    @Test
    @DisplayName("the kit's MongoDB switch is not part of the client API: no public operation matches its path")
    void mongoSwitchIsNotPublic() {
        for (AcmeairApi.Operation op : AcmeairApi.PUBLIC) {
            assertTrue(!AcmeairApi.MONGO_SWITCH_PATH.matches(op.regex()), op + " matches " + AcmeairApi.MONGO_SWITCH_PATH);
            assertTrue(ServiceName.parse(op.service()) != null, op + " belongs to a service");
        }
        // and the launcher's services, started without --allow-mongo-switch, do not serve it
        for (ServiceName s : ServiceName.values()) {
            assertEquals(404, Http.get(url(s) + AcmeairApi.MONGO_SWITCH_PATH).statusCode(), s.id());
        }
    }

    @Test
    @DisplayName("an escaped slash or dot segment inside a {name} segment (what Istio's regex [^/]+ lets through) stays in that segment")
    void escapedSlashesStayInTheirSegment() {
        for (String path : java.util.List.of("/customer/byid/a%2F..%2Finternal%2Fvalidateid", "/customer/byid/%2e%2e%2Finternal%2Fvalidateid",
                "/customer/byid/..%2Finternal%2Fvalidateid")) {
            HttpResponse<String> r = Http.send(HttpRequest.newBuilder(URI.create(url(ServiceName.CUSTOMER) + path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("login=" + TestUsers.PUBLIC_API.email(0) + "&password=password")).build());
            // Jetty refuses the path (400) or routes it to /customer/byid/{custid} with the escapes inside custid, whose
            // handler wants the user's token (401): never to /customer/internal/validateid.
            assertTrue(r.statusCode() == 400 || r.statusCode() == 401, path + " answered " + r.statusCode() + ": " + r.body());
            assertTrue(!r.body().contains("validCredentials"), path + ": " + r.body());
        }
    }
}
