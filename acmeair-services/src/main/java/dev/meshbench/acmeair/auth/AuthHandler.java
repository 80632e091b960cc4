package dev.meshbench.acmeair.auth;

import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.http.Forms;
import dev.meshbench.acmeair.peer.CustomerClient;
import dev.meshbench.acmeair.security.JwtIssuer;
import dev.meshbench.acmeair.security.JwtVerifier;
import io.javalin.Javalin;
import io.javalin.http.Context;

/**
 * The auth service's endpoints.
 *
 * <pre>
 * POST /auth/login     form: login, password; asks customer ({@code POST /customer/internal/validateid}); on success
 *                      sets cookie {@code jwt_token} (RS256, subject = login, 1 h) and answers "logged in";
 *                      bad credentials: 403
 * GET  /auth/logout    clears the cookie
 * </pre>
 */
public final class AuthHandler {
    private final CustomerClient customers;
    private final JwtIssuer issuer;

    public AuthHandler(CustomerClient customers, JwtIssuer issuer) {
        this.customers = customers;
        this.issuer = issuer;
    }

    public void routes(Javalin app) {
        app.post("/auth/login", this::login);
        app.get("/auth/logout", ctx -> ctx.header("Set-Cookie", JwtVerifier.COOKIE + "=; Path=/; Max-Age=0; HttpOnly")
                .contentType("text/plain").result("logged out"));
    }

    void login(Context ctx) {
        String login = Forms.required(ctx, "login");
        String password = Forms.required(ctx, "password");
        if (!customers.validate(login, password)) {
            throw ApiException.forbidden("bad credentials for login " + ApiException.quoted(login));
        }
        ctx.header("Set-Cookie", JwtVerifier.COOKIE + "=" + issuer.issue(login) + "; Path=/; HttpOnly; SameSite=Lax");
        ctx.contentType("text/plain").result("logged in");
    }
}
