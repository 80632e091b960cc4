package dev.meshbench.acmeair;

import static dev.meshbench.acmeair.AcmeairSystem.DAY1;
import static dev.meshbench.acmeair.AcmeairSystem.eventually;
import static dev.meshbench.acmeair.AcmeairSystem.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The original Acmeair JMeter driver's requests ({@link OriginalDriver}) against the services, with the driver in
 * several time zones and the JVM (services included) in a Russian locale at UTC+14 ({@link HostileDefaults}).
 *
 * <p>The driver's clock is fixed at noon UTC of {@link AcmeairSystem#DAY1}: its "today" is then January 1st west of
 * UTC+12 and January 2nd in Chatham (UTC+13:45) and Kiritimati (UTC+14), so with return the next day every date
 * named falls in the three days {@link AcmeairSystem} loads, whatever day the test runs.
 */
@ExtendWith({AcmeairSystem.class, HostileDefaults.class})
@DisplayName("the original Acmeair driver's requests")
class OriginalDriverTest {
    private static final Instant DRIVER_NOW = Instant.parse(DAY1 + "T12:00:00Z");
    private static final DateTimeFormatter FLIGHT_ID_DAY = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);
    /** FROM_AIRPORT_CODE from Airports2.csv and TO_AIRPORT_CODE from Airports.csv, pairs the kit's network flies. */
    private static final List<String[]> ROUTES = List.of(new String[] {"NRT", "SYD"}, new String[] {"FRA", "DEL"});

    @ParameterizedTest(name = "driver in {0} as {1}")
    @CsvSource({
        "UTC, uid60@email.com",
        "Europe/Berlin, uid61@email.com",
        "America/Los_Angeles, uid62@email.com",
        "Asia/Kolkata, uid63@email.com",
        "Asia/Kathmandu, uid64@email.com",
        "Pacific/Chatham, uid65@email.com",
        "GMT+05:30, uid66@email.com",
        "Pacific/Kiritimati, uid67@email.com",
        "Pacific/Pago_Pago, uid68@email.com",
    })
    @DisplayName("queries find flights on the days the driver names, bookings and cancellations move the customer's miles")
    void queryBookListCancel(String zone, String user) {
        TestUsers.checkBlocks();
        assertTrue(TestUsers.ORIGINAL_DRIVER.owns(user), user + " is not in ORIGINAL_DRIVER's block (TestUsers)");
        OriginalDriver driver = new OriginalDriver(user, zone, DRIVER_NOW);
        LocalDate today = LocalDate.ofInstant(DRIVER_NOW, ZoneId.of(zone));
        HttpResponse<String> login = driver.login();
        assertEquals(200, login.statusCode(), login.body());
        long[] before = miles(driver);

        Map<String, Long> segmentMiles = new HashMap<>();
        long booked = 0;
        for (String[] route : ROUTES) {
            String fromDate = driver.generateDate(0);
            String returnDate = driver.generateDate(1);
            HttpResponse<String> q = driver.queryFlights(route[0], route[1], fromDate, returnDate);
            assertEquals(200, q.statusCode(), fromDate + " / " + returnDate + ": " + q.body());
            JsonNode answer = json(q);
            assertEquals(2, answer.get("tripLegs").asInt(), q.body());
            JsonNode out = lastOption(answer, 0);
            JsonNode back = lastOption(answer, 1);
            assertLeaves(out, route[0], route[1], today, fromDate);
            assertLeaves(back, route[1], route[0], today.plusDays(1), returnDate);

            OriginalDriver.FlightChoice choice = OriginalDriver.choose(answer);
            assertEquals(new OriginalDriver.FlightChoice(true, out.get("_id").asText(), out.get("flightSegmentId").asText(),
                    back.get("_id").asText(), back.get("flightSegmentId").asText(), "false"), choice);
            HttpResponse<String> book = driver.bookFlight(choice);
            assertEquals(200, book.statusCode(), book.body());
            assertFalse(json(book).get("oneWay").asBoolean(), book.body());
            for (JsonNode leg : List.of(out, back)) {
                long m = leg.get("flightSegment").get("miles").asLong();
                assertTrue(m > 0, leg.toString());
                segmentMiles.put(leg.get("flightSegmentId").asText(), m);
                booked += m;
            }
        }
        long[] afterBooking = {before[0] + booked, before[1] + booked};
        assertEquals(afterBooking[0], eventually(afterBooking[0], () -> miles(driver)[0]), "total_miles after 4 bookings");
        assertEquals(afterBooking[1], miles(driver)[1], "miles_ytd after 4 bookings");

        HttpResponse<String> list = driver.listBookings();
        assertEquals(200, list.statusCode(), list.body());
        JsonNode bookings = json(list);
        List<String> ids = OriginalDriver.bookingIds(bookings);
        assertEquals(4, ids.size(), list.body());
        int toCancel = OriginalDriver.numberToCancel(ids);
        assertEquals(2, toCancel);
        long cancelled = 0;
        for (int i = 0; i < toCancel; i++) {
            HttpResponse<String> c = driver.cancelBooking(ids.get(i));
            assertEquals(200, c.statusCode(), c.body());
            assertEquals("deleted", json(c).get("status").asText(), c.body());
            cancelled += segmentMiles.get(bookings.get(i).get("flightSegmentId").asText());
        }
        assertTrue(cancelled > 0);
        long expectedTotal = afterBooking[0] - cancelled;
        assertEquals(expectedTotal, eventually(expectedTotal, () -> miles(driver)[0]), "total_miles after 2 cancellations");
        assertEquals(afterBooking[1] - cancelled, miles(driver)[1], "miles_ytd after 2 cancellations");
        assertEquals(ids.subList(2, 4), OriginalDriver.bookingIds(json(driver.listBookings())));
    }

    private static JsonNode lastOption(JsonNode answer, int leg) {
        JsonNode options = answer.get("tripFlights").get(leg).get("flightsOptions");
        assertFalse(options.isEmpty(), "leg " + leg + " has no flights: " + answer);
        return options.get(options.size() - 1);
    }

    /** The option flies the route and leaves on {@code day}, the day the driver's date string names. */
    private static void assertLeaves(JsonNode option, String from, String to, LocalDate day, String sent) {
        assertEquals(from, option.get("flightSegment").get("originPort").asText(), option.toString());
        assertEquals(to, option.get("flightSegment").get("destPort").asText(), option.toString());
        assertNotNull(option.get("_id"), option.toString());
        assertTrue(option.get("_id").asText().endsWith("-" + day.format(FLIGHT_ID_DAY)), sent + " -> " + option);
        assertTrue(option.get("scheduledDepartureTime").asText().startsWith(day + "T"), sent + " -> " + option);
    }

    @ParameterizedTest(name = "customer uid{0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
    @DisplayName("'View Profile Information' then 'Update Customer' succeeds for every kind of generated address")
    void viewAndUpdateProfile(int uid) throws java.io.IOException {
        OriginalDriver driver = new OriginalDriver("uid" + uid + "@email.com", "UTC", DRIVER_NOW);
        assertEquals(200, driver.login().statusCode());
        HttpResponse<String> view = driver.viewProfile();
        assertEquals(200, view.statusCode(), view.body());
        JsonNode before = json(view).get("address");
        HttpResponse<String> update = driver.updateCustomer(view.body());
        assertEquals(200, update.statusCode(), "update of " + view.body() + ": " + update.body());
        JsonNode after = json(driver.viewProfile()).get("address");
        String street = before.get("streetAddress1").asText();
        int number = Integer.parseInt(street.substring(0, street.indexOf(' ')));
        assertEquals((number + 1) + street.substring(street.indexOf(' ')), after.get("streetAddress1").asText());
        int postal = Integer.parseInt(before.get("postalCode").asText());
        assertEquals(postal > 99999 ? "10000" : Integer.toString(postal + 1), after.get("postalCode").asText());
    }

    /** total_miles and miles_ytd, as the driver's "View Profile Information" reads them. */
    private static long[] miles(OriginalDriver driver) {
        HttpResponse<String> r = driver.viewProfile();
        assertEquals(200, r.statusCode(), r.body());
        JsonNode profile = json(r);
        return new long[] {profile.get("total_miles").asLong(), profile.get("miles_ytd").asLong()};
    }
}
