package dev.meshbench.acmeair.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.pki.KeyType;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JwtVerifierTest {
    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    private static final KeyPair KEYS = KeyType.RSA_2048.generate();
    private final JwtVerifier verifier = new JwtVerifier((RSAPublicKey) KEYS.getPublic(), Clock.fixed(NOW, ZoneOffset.UTC));

    private static String token(Instant notBefore) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject("uid0@email.com").issuer(JwtIssuer.ISSUER)
                .audience(JwtIssuer.AUDIENCE).issueTime(Date.from(NOW)).expirationTime(Date.from(NOW.plus(Duration.ofHours(1))));
        if (notBefore != null) {
            claims.notBeforeTime(Date.from(notBefore));
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims.build());
        jwt.sign(new RSASSASigner(KEYS.getPrivate()));
        return jwt.serialize();
    }

    @Test
    @DisplayName("a token whose not-before is ahead by more than the 60 s skew is refused with 401 saying when it becomes valid")
    void notBeforeInTheFutureIsRefused() throws Exception {
        ApiException e = assertThrows(ApiException.class, () -> verifier.subject(token(NOW.plus(Duration.ofHours(1)))));
        assertEquals(401, e.status());
        assertEquals("invalid JWT: not valid before 2030-01-01T13:00:00Z", e.getMessage());
        assertThrows(ApiException.class, () -> verifier.subject(token(NOW.plusSeconds(61))));
    }

    @Test
    @DisplayName("a token without not-before, with one past, or ahead within the skew is accepted")
    void notBeforeWithinSkewIsAccepted() throws Exception {
        assertEquals("uid0@email.com", verifier.subject(token(null)));
        assertEquals("uid0@email.com", verifier.subject(token(NOW.minusSeconds(600))));
        assertEquals("uid0@email.com", verifier.subject(token(NOW.plusSeconds(30))));
    }
}
