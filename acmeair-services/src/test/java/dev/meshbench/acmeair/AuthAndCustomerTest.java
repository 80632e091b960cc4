package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.json;
import static dev.meshbench.acmeair.AcmeairSystem.login;
import static dev.meshbench.acmeair.AcmeairSystem.tokenFor;
import static dev.meshbench.acmeair.AcmeairSystem.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.SignedJWT;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.acmeair.security.JwtIssuer;
import dev.meshbench.pki.KeyType;
import java.net.http.HttpResponse;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AcmeairSystem.class)
@DisplayName("auth and customer services")
class AuthAndCustomerTest {
    static String auth() {
        return url(ServiceName.AUTH);
    }

    static String customer() {
        return url(ServiceName.CUSTOMER);
    }

    @Test
    @DisplayName("login with the right password sets an RS256 jwt_token cookie for the user")
    void loginSetsJwtCookie() throws Exception {
        HttpResponse<String> r = Http.post(auth() + "/auth/login", null, "login", TestUsers.AUTH_AND_CUSTOMER.email(3), "password", "password");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("logged in", r.body());
        String jwt = Http.jwtCookie(r);
        assertNotNull(jwt, r.headers().toString());
        SignedJWT parsed = SignedJWT.parse(jwt);
        assertEquals("RS256", parsed.getHeader().getAlgorithm().getName());
        assertEquals(TestUsers.AUTH_AND_CUSTOMER.email(3), parsed.getJWTClaimsSet().getSubject());
        assertTrue(r.headers().firstValue("Set-Cookie").orElseThrow().contains("HttpOnly"));
    }

    @Test
    @DisplayName("logout expires the jwt_token cookie")
    void logoutClearsCookie() {
        HttpResponse<String> r = Http.get(auth() + "/auth/logout");
        assertEquals(200, r.statusCode(), r.body());
        String cookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.startsWith("jwt_token=;") && cookie.contains("Max-Age=0"), cookie);
    }

    @Test
    @DisplayName("login with a wrong password or an unknown user answers 403")
    void badCredentialsAre403() {
        HttpResponse<String> wrong = Http.post(auth() + "/auth/login", null, "login", TestUsers.AUTH_AND_CUSTOMER.email(3), "password", "nope");
        assertEquals(403, wrong.statusCode(), wrong.body());
        assertTrue(json(wrong).get("message").asText().contains(TestUsers.AUTH_AND_CUSTOMER.email(3)), wrong.body());
        assertEquals(null, Http.jwtCookie(wrong));
        HttpResponse<String> unknown = Http.post(auth() + "/auth/login", null, "login", "nobody@email.com", "password", "password");
        assertEquals(403, unknown.statusCode(), unknown.body());
    }

    @Test
    @DisplayName("login without a password answers 400 naming the field")
    void loginMissingField() {
        HttpResponse<String> r = Http.post(auth() + "/auth/login", null, "login", TestUsers.AUTH_AND_CUSTOMER.email(3));
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith("field 'password' is required"), r.body());
    }

    @Test
    @DisplayName("a logged-in user reads their profile, without the password")
    void readsOwnProfile() {
        String jwt = login(TestUsers.AUTH_AND_CUSTOMER.email(4));
        HttpResponse<String> r = Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(4), jwt);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode c = json(r);
        assertEquals(TestUsers.AUTH_AND_CUSTOMER.email(4), c.get("_id").asText());
        assertTrue(c.has("total_miles") && c.has("miles_ytd") && c.get("address").has("city"), r.body());
        assertFalse(c.has("password"), r.body());
        assertFalse(r.body().contains("null"), "absent fields are left out: " + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
    }

    @Test
    @DisplayName("updates the profile from form fields and keeps the airline's own fields")
    void updatesProfile() {
        String jwt = login(TestUsers.AUTH_AND_CUSTOMER.email(5));
        long milesBefore = json(Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(5), jwt)).get("total_miles").asLong();
        HttpResponse<String> r = Http.post(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(5), jwt, "phoneNumber", "919-555-0100",
                "phoneNumberType", "MOBILE", "city", "Durham", "total_miles", "99999999");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode c = json(r);
        assertEquals("919-555-0100", c.get("phoneNumber").asText());
        assertEquals("MOBILE", c.get("phoneNumberType").asText());
        assertEquals("Durham", c.get("address").get("city").asText());
        assertEquals(milesBefore, c.get("total_miles").asLong());
        assertEquals("Durham", json(Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(5), jwt)).get("address").get("city").asText());
    }

    @Test
    @DisplayName("a malformed profile field answers 400 naming the field, and nothing changes")
    void rejectsMalformedProfileField() {
        String jwt = login(TestUsers.AUTH_AND_CUSTOMER.email(6));
        HttpResponse<String> r = Http.post(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(6), jwt, "city", "Elsewhere",
                "phoneNumberType", "PIGEON");
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().startsWith("field 'phoneNumberType' is 'PIGEON'"), r.body());
        assertFalse("Elsewhere".equals(json(Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(6), jwt)).get("address").get("city").asText()));
        HttpResponse<String> phone = Http.post(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(6), jwt, "phoneNumber", "call me");
        assertEquals(400, phone.statusCode(), phone.body());
        assertTrue(json(phone).get("message").asText().startsWith("field 'phoneNumber'"), phone.body());
    }

    @Test
    @DisplayName("reading a customer without a token answers 401")
    void missingTokenIs401() {
        HttpResponse<String> r = Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(4));
        assertEquals(401, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().contains("missing JWT"), r.body());
        assertEquals(401, Http.post(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(4), null, "city", "X").statusCode());
    }

    @Test
    @DisplayName("a token signed by another key, or not a JWT at all, answers 401")
    void forgedTokenIs401() {
        RSAPrivateKey other = (RSAPrivateKey) KeyType.RSA_2048.generate().getPrivate();
        String forged = new JwtIssuer(other, Clock.systemUTC()).issue(TestUsers.AUTH_AND_CUSTOMER.email(4));
        HttpResponse<String> r = Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(4), forged);
        assertEquals(401, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().contains("signature does not verify"), r.body());
        HttpResponse<String> garbage = Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(4), "not.a.jwt");
        assertEquals(401, garbage.statusCode(), garbage.body());
    }

    @Test
    @DisplayName("another user's valid token answers 403")
    void mismatchedTokenIs403() {
        String jwt = login(TestUsers.AUTH_AND_CUSTOMER.email(7));
        HttpResponse<String> r = Http.get(customer() + "/customer/byid/" + TestUsers.AUTH_AND_CUSTOMER.email(8), jwt);
        assertEquals(403, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().contains(TestUsers.AUTH_AND_CUSTOMER.email(7)), r.body());
    }

    @Test
    @DisplayName("an unknown customer with a valid token for that id answers 404")
    void unknownCustomerIs404() {
        HttpResponse<String> r = Http.get(customer() + "/customer/byid/ghost@email.com", tokenFor("ghost@email.com"));
        assertEquals(404, r.statusCode(), r.body());
        assertTrue(json(r).get("message").asText().contains("ghost@email.com"), r.body());
    }

    @Test
    @DisplayName("internal endpoints validate credentials and add miles; unknown ids answer 404, bad numbers 400")
    void internalEndpoints() {
        HttpResponse<String> ok = Http.post(customer() + "/customer/internal/validateid", null, "login", TestUsers.AUTH_AND_CUSTOMER.email(9), "password", "password");
        assertEquals("{\"validCredentials\":true}", ok.body());
        HttpResponse<String> bad = Http.post(customer() + "/customer/internal/validateid", null, "login", TestUsers.AUTH_AND_CUSTOMER.email(9), "password", "x");
        assertEquals("{\"validCredentials\":false}", bad.body());

        long before = AcmeairSystem.totalMiles(TestUsers.AUTH_AND_CUSTOMER.email(9));
        HttpResponse<String> add = Http.post(customer() + "/customer/internal/updateCustomerTotalMiles/" + TestUsers.AUTH_AND_CUSTOMER.email(9), null, "miles", "1234");
        assertEquals(200, add.statusCode(), add.body());
        assertEquals(before + 1234, json(add).get("total_miles").asLong());

        HttpResponse<String> ghost = Http.post(customer() + "/customer/internal/updateCustomerTotalMiles/ghost@email.com", null, "miles", "1");
        assertEquals(404, ghost.statusCode(), ghost.body());
        HttpResponse<String> nan = Http.post(customer() + "/customer/internal/updateCustomerTotalMiles/" + TestUsers.AUTH_AND_CUSTOMER.email(9), null, "miles", "lots");
        assertEquals(400, nan.statusCode(), nan.body());
        assertTrue(json(nan).get("message").asText().startsWith("field 'miles' is 'lots'"), nan.body());
    }

    @Test
    @DisplayName("liveness answers OK on every service")
    void livenessOk() {
        for (ServiceName s : ServiceName.values()) {
            HttpResponse<String> r = Http.get(url(s) + s.prefix());
            assertEquals(200, r.statusCode(), s + ": " + r.body());
            assertEquals("OK", r.body());
        }
    }
}
