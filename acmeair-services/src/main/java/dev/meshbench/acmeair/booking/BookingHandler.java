package dev.meshbench.acmeair.booking;

import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.http.Forms;
import dev.meshbench.acmeair.security.JwtVerifier;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The booking service's endpoints.
 *
 * <pre>
 * POST /booking/bookflights     JWT for userid; form: userid, toFlightId, toFlightSegId, oneWayFlight (true|false),
 *                               retFlightId and retFlightSegId (unless oneWayFlight)
 *                               -> {"oneWay", "departBookingId", "returnBookingId"}
 * GET  /booking/byuser/{user}   JWT for user; the user's bookings
 * GET  /booking/byuser/{user}/count   JWT for user -> {"customerId", "bookings"}: how many the user has
 * POST /booking/cancelbooking   JWT for userid; form: number, userid -> {"status":"deleted","number"}; 404 if unknown
 * GET  /booking/loader/load?reset=true   deletes every booking (without reset=true: 400, nothing deleted)
 * GET  /booking/config/countBookings
 * </pre>
 *
 * After a booking or a cancellation, {@link RewardsUpdater} asks flight for the segments' reward miles
 * ({@code POST /flight/getrewardmiles}) and adds them to (or removes them from) the customer
 * ({@code POST /customer/internal/updateCustomerTotalMiles/{id}}). By default it does so after answering, on a
 * background thread, as the original Acmeair booking service does; with {@code --rewards-async false} it does so
 * before answering, and then a booking whose miles cannot be added is removed again and the error returned (an
 * unknown segment: 404).
 */
public final class BookingHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BookingHandler.class);

    private final BookingRepository repo;
    private final JwtVerifier jwt;
    private final RewardsUpdater rewards;
    private final Clock clock;

    public BookingHandler(BookingRepository repo, JwtVerifier jwt, RewardsUpdater rewards, Clock clock) {
        this.repo = repo;
        this.jwt = jwt;
        this.rewards = rewards;
        this.clock = clock;
    }

    public void routes(Javalin app) {
        app.post("/booking/bookflights", this::book);
        app.get("/booking/byuser/{user}", this::byUser);
        app.get("/booking/byuser/{user}/count", this::countByUser);
        app.post("/booking/cancelbooking", this::cancel);
        app.get("/booking/loader/load", this::load);
        app.get("/booking/config/countBookings", ctx -> ctx.json(repo.count()));
    }

    void book(Context ctx) {
        String user = Forms.required(ctx, "userid");
        jwt.requireUser(ctx, user);
        String toFlight = Forms.required(ctx, "toFlightId");
        String toSeg = Forms.required(ctx, "toFlightSegId");
        boolean oneWay = Forms.requiredBoolean(ctx, "oneWayFlight");
        String retFlight = oneWay ? null : Forms.required(ctx, "retFlightId");
        String retSeg = oneWay ? null : Forms.required(ctx, "retFlightSegId");

        String departId = UUID.randomUUID().toString();
        repo.insert(departId, user, toFlight, toSeg, clock.instant());
        String returnId = null;
        if (!oneWay) {
            returnId = UUID.randomUUID().toString();
            repo.insert(returnId, user, retFlight, retSeg, clock.instant());
        }
        try {
            rewards.update(user, oneWay ? List.of(toSeg) : List.of(toSeg, retSeg), 1);
        } catch (RuntimeException e) {
            repo.delete(departId);
            if (returnId != null) {
                repo.delete(returnId);
            }
            throw e;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("oneWay", oneWay);
        body.put("departBookingId", departId);
        if (returnId != null) {
            body.put("returnBookingId", returnId);
        }
        ctx.json(body);
    }

    void byUser(Context ctx) {
        String user = ctx.pathParam("user");
        jwt.requireUser(ctx, user);
        ctx.json(repo.byUser(user));
    }

    void countByUser(Context ctx) {
        String user = ctx.pathParam("user");
        jwt.requireUser(ctx, user);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("customerId", user);
        body.put("bookings", repo.countByUser(user));
        ctx.json(body);
    }

    void cancel(Context ctx) {
        String user = Forms.required(ctx, "userid");
        jwt.requireUser(ctx, user);
        String number = Forms.required(ctx, "number");
        Booking b = repo.find(user, number)
                .orElseThrow(() -> notFound(number, user));
        if (!repo.delete(number)) {
            throw notFound(number, user);
        }
        try {
            rewards.update(user, List.of(b.flightSegmentId()), -1);
        } catch (ApiException e) {
            // The booking is gone either way; the miles stay until the peer answers again.
            LOG.warn("cancelled booking {} of {} but could not take back its miles: {}", number, user, e.getMessage());
            throw e;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "deleted");
        body.put("number", number);
        ctx.json(body);
    }

    private static ApiException notFound(String number, String user) {
        return ApiException.notFound("booking " + ApiException.quoted(number) + " of user " + ApiException.quoted(user) + " not found");
    }

    void load(Context ctx) {
        if (!"true".equals(ctx.queryParam("reset"))) {
            throw new ApiException(400, "query parameter 'reset' must be 'true' to delete every booking "
                    + "(got " + ApiException.quoted(ctx.queryParam("reset")) + "); nothing was deleted");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("deletedBookings", repo.clear());
        ctx.json(body);
    }
}
