package dev.meshbench.acmeair.peer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** What auth and booking ask of the customer service. */
public final class CustomerClient {
    private final PeerClient peer;

    public CustomerClient(PeerClient peer) {
        this.peer = peer;
    }

    /** {@code POST /customer/internal/validateid}: true when the login and password match. */
    public boolean validate(String login, String password) {
        JsonNode n = peer.postForm("/customer/internal/validateid", "/customer/internal/validateid",
                Map.of("login", login, "password", password));
        return n.path("validCredentials").asBoolean(false);
    }

    /** {@code POST /customer/internal/updateCustomerTotalMiles/{id}}: adds (or, negative, removes) miles; new total. */
    public long addMiles(String customerId, long miles) {
        JsonNode n = peer.postForm("/customer/internal/updateCustomerTotalMiles/" + PeerClient.segment(customerId),
                "/customer/internal/updateCustomerTotalMiles/{custid}", Map.of("miles", Long.toString(miles)));
        return n.path("total_miles").asLong();
    }
}
