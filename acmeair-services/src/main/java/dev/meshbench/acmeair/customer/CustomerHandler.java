package dev.meshbench.acmeair.customer;

import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.client.model.Updates;
import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.http.Forms;
import dev.meshbench.acmeair.http.Json;
import dev.meshbench.acmeair.security.JwtVerifier;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.bson.conversions.Bson;

/**
 * The customer service's endpoints.
 *
 * <pre>
 * GET  /customer/byid/{custid}                         JWT for custid; the customer (no password)
 * GET  /customer/byid/{custid}/rewards[?plannedMiles=N] JWT for custid; miles, the tier they earn, miles to the next
 *                                                      tier, and the tier after a trip of N miles (0..MAX_PLANNED_MILES)
 * POST /customer/byid/{custid}                         JWT for custid; form: any of password, phoneNumber,
 *                                                      phoneNumberType (HOME|BUSINESS|MOBILE), streetAddress1,
 *                                                      streetAddress2, city, stateProvince, country, postalCode;
 *                                                      or JSON (Content-Type application/json) as the original
 *                                                      driver sends: the customer document, the address fields
 *                                                      under "address", "_id" (if given) equal to custid
 * POST /customer/internal/validateid                   form: login, password -> {"validCredentials": bool}
 * POST /customer/internal/updateCustomerTotalMiles/{custid}  form: miles (may be negative) -> {"total_miles","miles_ytd"}
 * GET  /customer/loader/load?numCustomers=N[&seed=S]   replaces all customers with N generated ones
 * GET  /customer/config/countCustomers                 number of customers
 * </pre>
 *
 * Status, total_miles and miles_ytd belong to the airline: a profile update ignores them.
 */
public final class CustomerHandler {
    public static final int MAX_CUSTOMERS = dev.meshbench.component.DatasetDefaults.MAX_CUSTOMERS;
    /** Upper bound of {@code plannedMiles}: far above the miles of any trip (a round trip is under 25,000). */
    public static final long MAX_PLANNED_MILES = 1_000_000;
    static final Set<String> PHONE_TYPES = Set.of("HOME", "BUSINESS", "MOBILE");
    static final List<String> ADDRESS_FIELDS = List.of("streetAddress1", "streetAddress2", "city", "stateProvince", "country", "postalCode");
    private static final int MAX_FIELD = 200;

    private final CustomerRepository repo;
    private final JwtVerifier jwt;

    public CustomerHandler(CustomerRepository repo, JwtVerifier jwt) {
        this.repo = repo;
        this.jwt = jwt;
    }

    public void routes(Javalin app) {
        app.get("/customer/byid/{custid}", this::get);
        app.get("/customer/byid/{custid}/rewards", this::rewards);
        app.post("/customer/byid/{custid}", this::update);
        app.post("/customer/internal/validateid", this::validate);
        app.post("/customer/internal/updateCustomerTotalMiles/{custid}", this::addMiles);
        app.get("/customer/loader/load", this::load);
        app.get("/customer/config/countCustomers", ctx -> ctx.json(repo.count()));
    }

    void get(Context ctx) {
        String id = ctx.pathParam("custid");
        jwt.requireUser(ctx, id);
        ctx.json(repo.find(id).orElseThrow(() -> unknown(id)));
    }

    void rewards(Context ctx) {
        String id = ctx.pathParam("custid");
        jwt.requireUser(ctx, id);
        Long planned = Forms.optionalQueryLong(ctx, "plannedMiles", 0, MAX_PLANNED_MILES);
        CustomerRepository.MilesBalance miles = repo.findMiles(id).orElseThrow(() -> unknown(id));
        ctx.json(CustomerRewards.of(id, miles.totalMiles(), miles.milesYtd(), planned));
    }

    void update(Context ctx) {
        String id = ctx.pathParam("custid");
        jwt.requireUser(ctx, id);
        Function<String, String> field = ctx.isJson() ? jsonFields(ctx, id) : f -> Forms.optional(ctx, f);
        List<Bson> changes = new ArrayList<>();
        String password = field.apply("password");
        if (password != null) {
            changes.add(Updates.set("password", limited("password", password)));
        }
        String phone = field.apply("phoneNumber");
        if (phone != null) {
            if (!phone.matches("[0-9+()./ -]{3,32}")) {
                throw ApiException.badField("phoneNumber", "is " + ApiException.quoted(phone) + ", must be 3-32 digits, spaces or + ( ) . / -");
            }
            changes.add(Updates.set("phoneNumber", phone));
        }
        String phoneType = field.apply("phoneNumberType");
        if (phoneType != null) {
            if (!PHONE_TYPES.contains(phoneType)) {
                throw ApiException.badField("phoneNumberType", "is " + ApiException.quoted(phoneType) + ", must be one of HOME, BUSINESS, MOBILE");
            }
            changes.add(Updates.set("phoneNumberType", phoneType));
        }
        for (String f : ADDRESS_FIELDS) {
            String v = field.apply(f);
            if (v != null) {
                changes.add(Updates.set("address." + f, limited(f, v)));
            }
        }
        ctx.json(repo.update(id, changes).orElseThrow(() -> unknown(id)));
    }

    /**
     * The fields of a JSON customer document: top-level {@code password}, {@code phoneNumber},
     * {@code phoneNumberType}, and the address fields under {@code address}. Status and miles are the airline's and
     * ignored, as in a form update; an {@code _id} other than the path's is refused.
     */
    private static Function<String, String> jsonFields(Context ctx, String id) {
        JsonNode doc;
        try {
            doc = Json.MAPPER.readTree(ctx.body());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ApiException(400, "the body is not JSON (Content-Type application/json): " + e.getOriginalMessage());
        }
        if (doc == null || !doc.isObject()) {
            throw new ApiException(400, "the body must be a JSON object (the customer document)");
        }
        JsonNode docId = doc.get("_id");
        if (docId != null && !docId.isNull() && !id.equals(docId.asText())) {
            throw ApiException.badField("_id", "is " + ApiException.quoted(docId.asText()) + ", must be the customer of the path (" + ApiException.quoted(id) + ")");
        }
        JsonNode address = doc.path("address");
        return f -> {
            JsonNode v = ADDRESS_FIELDS.contains(f) ? address.get(f) : doc.get(f);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isValueNode()) {
                throw ApiException.badField(f, "must be a string");
            }
            String text = v.asText().trim();
            return text.isEmpty() ? null : text;
        };
    }

    void validate(Context ctx) {
        String login = Forms.required(ctx, "login");
        String password = Forms.required(ctx, "password");
        ctx.json(Map.of("validCredentials", repo.credentialsMatch(login, password)));
    }

    void addMiles(Context ctx) {
        String id = ctx.pathParam("custid");
        long miles = Forms.requiredLong(ctx, "miles");
        Customer c = repo.addMiles(id, miles).orElseThrow(() -> unknown(id));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("total_miles", c.totalMiles());
        body.put("miles_ytd", c.milesYtd());
        ctx.json(body);
    }

    void load(Context ctx) {
        int n = Forms.queryInt(ctx, "numCustomers", 1, MAX_CUSTOMERS);
        long seed = ctx.queryParam("seed") == null ? CustomerLoader.DEFAULT_SEED : Forms.whole("seed", ctx.queryParam("seed"));
        ctx.json(new CustomerLoader(repo).load(n, seed));
    }

    private static String limited(String field, String v) {
        if (v.length() > MAX_FIELD) {
            throw ApiException.badField(field, "is " + v.length() + " characters long, at most " + MAX_FIELD + " allowed");
        }
        return v;
    }

    private static ApiException unknown(String id) {
        return ApiException.notFound("customer " + ApiException.quoted(id) + " not found");
    }
}
