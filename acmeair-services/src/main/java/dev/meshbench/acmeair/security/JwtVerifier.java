package dev.meshbench.acmeair.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.meshbench.acmeair.http.ApiException;
import io.javalin.http.Context;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Checks the caller's token: RS256 signature by the configured key, issuer, audience, expiry and not-before (each
 * time with 60 s of clock skew). The token comes from
 * the {@code jwt_token} cookie (as Acmeair sets it) or an {@code Authorization: Bearer} header. Missing or invalid:
 * 401; valid but for another user: 403.
 */
public final class JwtVerifier {
    public static final String COOKIE = "jwt_token";
    private static final Duration CLOCK_SKEW = Duration.ofSeconds(60);

    private final RSASSAVerifier verifier;
    private final Clock clock;

    public JwtVerifier(RSAPublicKey key, Clock clock) {
        this.verifier = new RSASSAVerifier(key);
        this.clock = clock;
    }

    /** Throws 401/403 unless the request carries a valid token whose subject is {@code userId}. */
    public void requireUser(Context ctx, String userId) {
        String subject = subject(token(ctx));
        if (!subject.equals(userId)) {
            throw ApiException.forbidden("JWT subject " + ApiException.quoted(subject) + " may not act for user " + ApiException.quoted(userId));
        }
    }

    static String token(Context ctx) {
        String auth = ctx.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        String cookie = ctx.cookie(COOKIE);
        if (cookie == null || cookie.isBlank()) {
            throw ApiException.unauthorized("missing JWT: send the " + COOKIE + " cookie from /auth/login or an Authorization: Bearer header");
        }
        return cookie;
    }

    /** The verified subject of {@code token}; 401 with the reason when it does not verify. */
    public String subject(String token) {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw ApiException.unauthorized("invalid JWT: not a signed JWT (" + e.getMessage() + ")");
        }
        if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
            throw ApiException.unauthorized("invalid JWT: algorithm " + jwt.getHeader().getAlgorithm() + ", expected RS256");
        }
        try {
            if (!jwt.verify(verifier)) {
                throw ApiException.unauthorized("invalid JWT: signature does not verify");
            }
        } catch (JOSEException e) {
            throw ApiException.unauthorized("invalid JWT: " + e.getMessage());
        }
        if (!JwtIssuer.ISSUER.equals(claims.getIssuer())) {
            throw ApiException.unauthorized("invalid JWT: issuer " + ApiException.quoted(claims.getIssuer()) + ", expected " + JwtIssuer.ISSUER);
        }
        if (claims.getAudience() == null || !claims.getAudience().contains(JwtIssuer.AUDIENCE)) {
            throw ApiException.unauthorized("invalid JWT: audience " + ApiException.quoted(String.valueOf(claims.getAudience())) + " lacks " + JwtIssuer.AUDIENCE);
        }
        Date exp = claims.getExpirationTime();
        Instant now = clock.instant();
        if (exp == null || exp.toInstant().plus(CLOCK_SKEW).isBefore(now)) {
            throw ApiException.unauthorized("invalid JWT: expired at " + (exp == null ? "(no exp claim)" : exp.toInstant()));
        }
        // Not before: optional (Acmeair's tokens have none), checked with the same skew as the expiry.
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().minus(CLOCK_SKEW).isAfter(now)) {
            throw ApiException.unauthorized("invalid JWT: not valid before " + nbf.toInstant());
        }
        if (claims.getSubject() == null || claims.getSubject().isBlank()) {
            throw ApiException.unauthorized("invalid JWT: no subject");
        }
        return claims.getSubject();
    }
}
