package dev.meshbench.acmeair.flight;

import dev.meshbench.acmeair.http.ApiException;
import dev.meshbench.acmeair.http.Forms;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.bson.Document;

/**
 * The flight service's endpoints.
 *
 * <pre>
 * POST /flight/queryflights      form: fromAirport, toAirport, fromDate, oneWay (true|false), returnDate (unless
 *                                oneWay); dates ISO-8601 (2026-11-22, or 2026-11-22T00:00:00Z meaning its UTC day) or
 *                                as the original Acmeair driver sends them (Sun Nov 22 00:00:00 CET 2026, meaning the
 *                                day named, in its own zone; see Forms.day); finds the flights leaving that day (all
 *                                leave at 00:00Z, as Acmeair's leave at midnight)
 * POST /flight/getrewardmiles    form: flightSegment -> {"miles": N}; 404 for an unknown segment
 * GET  /flight/loader/load?numDays=N[&amp;numAirports=2..30 (30)][&amp;startDate=yyyy-MM-dd (today, UTC)][&amp;seed=S]
 *                                [&amp;network=kit|original (kit)]: the kit's 30 airports with 8 hubs, or the original
 *                                Acmeair driver's 15 airports with the original's one-way routes (numAirports not allowed)
 * GET  /flight/config/countFlights | countFlightSegments | countAirports
 * </pre>
 *
 * A query between well-formed airport codes that has no segment or no flight that day answers with empty options,
 * as Acmeair does. Reads go through {@link FlightLookups}: cached after the first read, as the original's, unless
 * the cache is off ({@code --flight-cache false}).
 */
public final class FlightHandler {
    public static final int MAX_DAYS = dev.meshbench.component.DatasetDefaults.MAX_FLIGHT_DAYS;
    static final int PAGE_SIZE = 10;
    private static final Pattern AIRPORT = Pattern.compile("[A-Z]{3}");

    private final FlightRepository repo;
    private final FlightLookups lookups;
    private final Clock clock;

    public FlightHandler(FlightRepository repo, FlightLookups lookups, Clock clock) {
        this.repo = repo;
        this.lookups = lookups;
        this.clock = clock;
    }

    public void routes(Javalin app) {
        app.post("/flight/queryflights", this::query);
        app.post("/flight/getrewardmiles", this::rewardMiles);
        app.get("/flight/loader/load", this::load);
        app.get("/flight/config/countFlights", ctx -> ctx.json(repo.countFlights()));
        app.get("/flight/config/countFlightSegments", ctx -> ctx.json(repo.countSegments()));
        app.get("/flight/config/countAirports", ctx -> ctx.json(repo.countAirports()));
    }

    void query(Context ctx) {
        String from = airport(ctx, "fromAirport");
        String to = airport(ctx, "toAirport");
        LocalDate fromDate = Forms.day("fromDate", Forms.required(ctx, "fromDate"));
        boolean oneWay = Forms.requiredBoolean(ctx, "oneWay");
        LocalDate returnDate = oneWay ? null : Forms.day("returnDate", Forms.required(ctx, "returnDate"));
        List<Object> legs = new ArrayList<>();
        legs.add(leg(from, to, fromDate));
        if (!oneWay) {
            legs.add(leg(to, from, returnDate));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tripFlights", legs);
        body.put("tripLegs", legs.size());
        ctx.json(body);
    }

    private Map<String, Object> leg(String from, String to, LocalDate day) {
        List<Map<String, Object>> options = new ArrayList<>();
        lookups.segment(from, to).ifPresent(seg -> {
            for (Document f : lookups.flights(seg.getString("_id"), day.atStartOfDay(ZoneOffset.UTC).toInstant())) {
                options.add(flightJson(f, seg));
            }
        });
        Map<String, Object> leg = new LinkedHashMap<>();
        leg.put("numPages", 1);
        leg.put("flightsOptions", options);
        leg.put("currentPage", 0);
        leg.put("hasMoreOptions", false);
        leg.put("pageSize", PAGE_SIZE);
        return leg;
    }

    static Map<String, Object> flightJson(Document f, Document seg) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("_id", f.getString("_id"));
        m.put("firstClassBaseCost", f.get("firstClassBaseCost"));
        m.put("economyClassBaseCost", f.get("economyClassBaseCost"));
        m.put("numFirstClassSeats", f.get("numFirstClassSeats"));
        m.put("numEconomyClassSeats", f.get("numEconomyClassSeats"));
        m.put("airplaneTypeId", f.getString("airplaneTypeId"));
        m.put("flightSegmentId", f.getString("flightSegmentId"));
        m.put("scheduledDepartureTime", iso(f.getDate("scheduledDepartureTime")));
        m.put("scheduledArrivalTime", iso(f.getDate("scheduledArrivalTime")));
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("_id", seg.getString("_id"));
        s.put("originPort", seg.getString("originPort"));
        s.put("destPort", seg.getString("destPort"));
        s.put("miles", seg.get("miles"));
        m.put("flightSegment", s);
        return m;
    }

    static String iso(Date d) {
        return d == null ? null : d.toInstant().toString();
    }

    void rewardMiles(Context ctx) {
        String id = Forms.required(ctx, "flightSegment");
        long miles = lookups.rewardMiles(id).orElseThrow(() -> ApiException.notFound("flight segment " + ApiException.quoted(id) + " not found"));
        ctx.json(Map.of("miles", miles));
    }

    void load(Context ctx) {
        int days = Forms.queryInt(ctx, "numDays", 1, MAX_DAYS);
        int airports = ctx.queryParam("numAirports") == null ? Airport.ALL.size()
                : Forms.queryInt(ctx, "numAirports", 2, Airport.ALL.size());
        String startParam = ctx.queryParam("startDate");
        LocalDate start;
        if (startParam == null) {
            start = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        } else {
            try {
                start = LocalDate.parse(startParam);
            } catch (java.time.format.DateTimeParseException e) {
                throw new ApiException(400, "query parameter 'startDate' is " + ApiException.quoted(startParam)
                        + ", not an ISO-8601 date like 2026-11-22; nothing was changed");
            }
        }
        long seed = ctx.queryParam("seed") == null ? FlightLoader.DEFAULT_SEED : Forms.whole("seed", ctx.queryParam("seed"));
        String network = ctx.queryParam("network") == null ? "kit" : ctx.queryParam("network");
        if (!network.equals("kit") && !network.equals("original")) {
            throw new ApiException(400, "query parameter 'network' is " + ApiException.quoted(network) + ", must be kit or original; nothing was changed");
        }
        if (network.equals("original") && ctx.queryParam("numAirports") != null) {
            throw new ApiException(400, "query parameter 'numAirports' applies to network=kit only; the original network "
                    + "has its " + Airport.ORIGINAL.size() + " airports; nothing was changed");
        }
        try {
            ctx.json(network.equals("original") ? new FlightLoader(repo).loadOriginal(days, start, seed)
                    : new FlightLoader(repo).load(airports, days, start, seed));
        } finally {
            lookups.clear();
        }
    }

    private static String airport(Context ctx, String field) {
        String v = Forms.required(ctx, field);
        if (!AIRPORT.matcher(v).matches()) {
            throw ApiException.badField(field, "is " + ApiException.quoted(v) + ", must be a 3-letter upper-case IATA airport code like JFK");
        }
        return v;
    }
}
