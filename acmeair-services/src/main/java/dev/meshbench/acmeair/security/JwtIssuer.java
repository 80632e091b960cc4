package dev.meshbench.acmeair.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/** Signs RS256 tokens for a logged-in user (subject = user id), as Acmeair's auth service does. */
public final class JwtIssuer {
    public static final String ISSUER = "meshbench-acmeair";
    public static final String AUDIENCE = "acmeair";
    public static final Duration LIFETIME = Duration.ofHours(1);

    private final RSASSASigner signer;
    private final Clock clock;

    public JwtIssuer(RSAPrivateKey key, Clock clock) {
        this.signer = new RSASSASigner(key);
        this.clock = clock;
    }

    public String issue(String userId) {
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(userId)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(LIFETIME)))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a JWT for " + userId + " failed: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }
}
