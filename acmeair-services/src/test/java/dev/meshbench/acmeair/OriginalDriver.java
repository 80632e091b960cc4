package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.url;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.acmeair.config.ServiceName;
import java.net.http.HttpResponse;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * One thread of the original Acmeair JMeter driver ({@code blueperf/acmeair-driver},
 * {@code AcmeAir-microservices-mpJwt.jmx} run with {@code -DusePureIDs}), reduced to the requests it sends and the
 * fields it reads back: same paths, methods, form field names and value formats. Its clock and zone are given, so that
 * the dates it sends are known: the real {@code __generateDate} adds a random 0-5 (from) or 6-12 (return) days to
 * now in the JVM's zone; here the caller picks the days, to stay inside the flights the test loaded.
 */
final class OriginalDriver {
    private final String user;
    private final TimeZone zone;
    private final Instant now;
    private String jwt;

    /** What the driver's FlightsPostProcessor keeps of a query: the last option of each leg, by _id and flightSegmentId. */
    record FlightChoice(boolean available, String toFlight, String toSegment, String retFlight, String retSegment,
            String oneWay) {
    }

    OriginalDriver(String user, String zone, Instant now) {
        this.user = user;
        this.zone = TimeZone.getTimeZone(zone);
        this.now = now;
    }

    /** As {@code __generateDate}: local midnight of now plus {@code days} in the driver's zone, English names. */
    String generateDate(int days) {
        Calendar day = Calendar.getInstance(zone, Locale.US);
        day.setTimeInMillis(now.toEpochMilli());
        day.add(Calendar.DATE, days);
        SimpleDateFormat format = new SimpleDateFormat("EEE MMM dd 00:00:00 z yyyy", Locale.US);
        format.setTimeZone(zone);
        return format.format(day.getTime());
    }

    /** "Login": POST /auth/login with login and password; the cookie manager keeps jwt_token. */
    HttpResponse<String> login() {
        HttpResponse<String> r = Http.post(url(ServiceName.AUTH) + "/auth/login", null, "login", user, "password", "password");
        jwt = Http.jwtCookie(r);
        return r;
    }

    /** "View Profile Information": GET /customer/byid/{user}. */
    HttpResponse<String> viewProfile() {
        return Http.get(url(ServiceName.CUSTOMER) + "/customer/byid/" + user, jwt);
    }

    /**
     * "Update Customer": as {@code __updateCustomer}, the profile just viewed with the street number and the postal
     * code (an integer; above 99999 it becomes 10000) each plus one and {@code password} added, POSTed as JSON to
     * /customer/byid/{user}. Where the driver's function fails (no number to add to) it sends the body {@code null}.
     */
    HttpResponse<String> updateCustomer(String profileJson) {
        String body;
        try {
            com.fasterxml.jackson.databind.node.ObjectNode json =
                    (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(profileJson);
            com.fasterxml.jackson.databind.node.ObjectNode address = (com.fasterxml.jackson.databind.node.ObjectNode) json.get("address");
            String street = address.get("streetAddress1").asText();
            int space = street.indexOf(' ');
            address.put("streetAddress1", (Integer.parseInt(street.substring(0, space)) + 1) + street.substring(space));
            int postal = Integer.parseInt(address.get("postalCode").asText());
            address.put("postalCode", postal > 99999 ? "10000" : Integer.toString(postal + 1));
            json.put("password", "password");
            body = json.toString();
        } catch (RuntimeException | java.io.IOException e) {
            body = "null";
        }
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url(ServiceName.CUSTOMER)
                        + "/customer/byid/" + user))
                .header("Content-Type", "application/json; charset=UTF-8").header("Cookie", "jwt_token=" + jwt)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        return Http.send(b.build());
    }

    /** "QueryFlight": always a round trip ({@code oneWay=false}). */
    HttpResponse<String> queryFlights(String fromAirport, String toAirport, String fromDate, String returnDate) {
        return Http.post(url(ServiceName.FLIGHT) + "/flight/queryflights", jwt, "fromAirport", fromAirport,
                "toAirport", toAirport, "fromDate", fromDate, "returnDate", returnDate, "oneWay", "false");
    }

    /**
     * As FlightsPostProcessor with usePureIDs: flights are available when the first leg has options; the booking is
     * one-way when the second leg has none; of each leg it keeps the last option's {@code _id} and
     * {@code flightSegmentId}.
     */
    static FlightChoice choose(JsonNode queryAnswer) {
        JsonNode legs = queryAnswer.get("tripFlights");
        if (legs == null || legs.isEmpty()) {
            return new FlightChoice(false, null, null, null, null, null);
        }
        JsonNode to = legs.get(0).get("flightsOptions");
        JsonNode ret = legs.size() > 1 ? legs.get(1).get("flightsOptions") : null;
        JsonNode lastTo = to.isEmpty() ? null : to.get(to.size() - 1);
        JsonNode lastRet = ret == null || ret.isEmpty() ? null : ret.get(ret.size() - 1);
        return new FlightChoice(lastTo != null, text(lastTo, "_id"), text(lastTo, "flightSegmentId"),
                text(lastRet, "_id"), text(lastRet, "flightSegmentId"), ret == null ? null : Boolean.toString(lastRet == null));
    }

    private static String text(JsonNode n, String field) {
        return n == null || n.get(field) == null ? null : n.get(field).asText();
    }

    /** "BookFlight": the six fields the plan sends. */
    HttpResponse<String> bookFlight(FlightChoice c) {
        return Http.post(url(ServiceName.BOOKING) + "/booking/bookflights", jwt, "userid", user,
                "toFlightId", c.toFlight(), "toFlightSegId", c.toSegment(), "retFlightId", c.retFlight(),
                "retFlightSegId", c.retSegment(), "oneWayFlight", c.oneWay());
    }

    /** "List Bookings": GET /booking/byuser/{user}. */
    HttpResponse<String> listBookings() {
        return Http.get(url(ServiceName.BOOKING) + "/booking/byuser/" + user, jwt);
    }

    /** As ExtrackBookingInfoFunction with usePureIDs: the bookings' {@code _id}s, in the order listed. */
    static List<String> bookingIds(JsonNode listAnswer) {
        if (!listAnswer.isArray()) {
            throw new AssertionError("the driver needs a JSON array of bookings, got " + listAnswer);
        }
        List<String> ids = new ArrayList<>();
        listAnswer.forEach(b -> ids.add(b.get("_id").asText()));
        return ids;
    }

    /** The driver cancels all but two of the listed bookings, the first ones listed. */
    static int numberToCancel(List<String> bookingIds) {
        return Math.max(0, bookingIds.size() - 2);
    }

    /** "Cancel Booking": number and userid. */
    HttpResponse<String> cancelBooking(String number) {
        return Http.post(url(ServiceName.BOOKING) + "/booking/cancelbooking", jwt, "number", number, "userid", user);
    }
}
