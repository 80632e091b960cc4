package dev.meshbench.acmeair.admin;

import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.mongo.SwitchableMongo;
import dev.meshbench.component.AcmeairApi;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kit's MongoDB switch, {@value AcmeairApi#MONGO_SWITCH_PATH} on the service's own port, routed only with
 * {@code --allow-mongo-switch} (without it the path is unknown: 404), and never at the entry
 * ({@link AcmeairApi#PUBLIC} does not list it).
 *
 * <ul>
 *   <li>{@code GET}: {@code {"uri":"mongodb://mongo.meshbench.test:27017/?tls=true","address":"mongo.meshbench.test:27017
 *       (alias of 127.0.0.1)","switches":0}}, the password of a connection string with one shown as {@code ****}.</li>
 *   <li>{@code PUT} with the new connection string as the body (text): 200 and the same JSON once new operations use
 *       the new client ({@link SwitchableMongo#switchTo}); 400 naming what is wrong (invalid, or more than the hosts
 *       changed); 503 with the driver's reason when the new address does not answer {@code ping} within
 *       {@link SwitchableMongo#SWITCH_PING_TIMEOUT}. After a 400 or 503 the service uses the MongoDB it used before.</li>
 * </ul>
 */
public final class MongoSwitchHandler {
    private final SwitchableMongo mongo;

    public MongoSwitchHandler(SwitchableMongo mongo) {
        this.mongo = mongo;
    }

    public void routes(Javalin app) {
        app.get(AcmeairApi.MONGO_SWITCH_PATH, ctx -> ctx.json(view(mongo.state())));
        app.put(AcmeairApi.MONGO_SWITCH_PATH, this::switchTo);
    }

    private void switchTo(Context ctx) {
        SwitchableMongo.State after;
        try {
            after = mongo.switchTo(ctx.body());
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "switching MongoDB refused: " + e.getMessage() + "; nothing was changed", e);
        } catch (SwitchableMongo.UnreachableException e) {
            throw new ApiException(503, "switching MongoDB failed: " + e.getMessage(), e);
        }
        ctx.json(view(after));
    }

    static Map<String, Object> view(SwitchableMongo.State state) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("uri", SwitchableMongo.maskedUri(state.active().config()));
        body.put("address", state.active().config().describeAddress());
        body.put("switches", state.switches());
        return body;
    }
}
