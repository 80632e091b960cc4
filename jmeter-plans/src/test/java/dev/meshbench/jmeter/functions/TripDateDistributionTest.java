package dev.meshbench.jmeter.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.jmeter.workload.AcmeairDates;
import dev.meshbench.jmeter.workload.WorkloadProperties;
import java.time.LocalDate;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The trips each mix plans, drawn many times with a fixed seed, against what the services hold: flights on the
 * loaded days (today .. today + flightDays - 1), on every route. A query finds a flight when its day is loaded; a
 * found outbound flight is booked as a round trip when the return day is loaded too, else one way.
 */
@DisplayName("trips per mix: share of queries that find a flight, of one-way bookings, of airport pairs with a route")
class TripDateDistributionTest {
    private static final LocalDate TODAY = LocalDate.of(2026, 11, 22);
    private static final int DRAWS = 60_000;

    record Shares(double found, double oneWayOfBooked) {
    }

    static Shares draw(String mix, int flightDays) {
        RandomGenerator random = new SplittableRandom(42);
        int found = 0;
        int oneWay = 0;
        for (int i = 0; i < DRAWS; i++) {
            LocalDate out = AcmeairDates.tripDay(mix, false, TODAY, flightDays, null, random);
            LocalDate back = AcmeairDates.tripDay(mix, true, TODAY, flightDays, out, random);
            assertTrue(!back.isBefore(out), "a return never leaves before its outbound leg");
            if (loaded(out, flightDays)) {
                found++;
                if (!loaded(back, flightDays)) {
                    oneWay++;
                }
            }
        }
        return new Shares((double) found / DRAWS, found == 0 ? 0 : (double) oneWay / found);
    }

    static boolean loaded(LocalDate day, int flightDays) {
        return !day.isBefore(TODAY) && day.isBefore(TODAY.plusDays(flightDays));
    }

    @Test
    @DisplayName("original, 5 loaded days (the kit's default): 5 of 6 outbound days are loaded, every booking is one way")
    void originalWithFiveDays() {
        Shares s = draw(WorkloadProperties.MIX_ORIGINAL, 5);
        // outbound today + 0..5 uniformly: days 0..4 are loaded -> 5/6; returns today + 6..12 are never loaded
        assertEquals(5.0 / 6, s.found(), 0.01);
        assertEquals(1.0, s.oneWayOfBooked(), 0.0);
    }

    @Test
    @DisplayName("original, 9 loaded days: returns on days 6..8 are loaded, so 3 of 7 found trips are round trips")
    void originalWithNineDays() {
        Shares s = draw(WorkloadProperties.MIX_ORIGINAL, 9);
        assertEquals(1.0, s.found(), 0.0);
        assertEquals(4.0 / 7, s.oneWayOfBooked(), 0.01);
    }

    @Test
    @DisplayName("roundtrip (the kit's first plan): every query finds a flight and every booking is a round trip")
    void roundtrip() {
        Shares s = draw(WorkloadProperties.MIX_ROUNDTRIP, 5);
        assertEquals(1.0, s.found(), 0.0);
        assertEquals(0.0, s.oneWayOfBooked(), 0.0);
    }

    /**
     * The original network (acmeair-services {@code FlightGenerator.originalSegments}): one-way segments from the
     * rows of the original's mileage.csv to its columns (the driver's destinations), never to itself.
     */
    private static final java.util.Set<String> ORIGINAL_ORIGINS = java.util.Set.of("FRA", "HKG", "LHR", "YUL", "SVO", "JFK",
            "CDG", "FCO", "SIN", "SYD", "IKA", "NRT", "AMS");

    @Test
    @DisplayName("original airports: over a full cycle of the two lists (14 x 15 = 210 queries) 170 pairs have an outbound route")
    void originalAirports() {
        int routes = 0;
        for (int n = 0; n < 210; n++) {
            String from = AcmeairTripAirport.originalAt(dev.meshbench.jmeter.workload.AcmeairAirports.ORIGINAL_FROM, n);
            String to = AcmeairTripAirport.originalAt(dev.meshbench.jmeter.workload.AcmeairAirports.ORIGINAL_TO, n);
            if (!from.equals(to) && ORIGINAL_ORIGINS.contains(from)
                    && dev.meshbench.jmeter.workload.AcmeairAirports.ORIGINAL_TO.contains(to)) {
                routes++;
            }
        }
        // every (from, to) of 15 x 14 comes once; BOM and DEL are no origin (2 x 14 = 28 pairs), and 12 airports
        // meet themselves: 210 - 28 - 12 = 170, as the original's 81% (and 0 return legs: AMS is no destination,
        // and returns are dated after the loaded days)
        assertEquals(170, routes);
    }

    @Test
    @DisplayName("roundtrip airports: random pairs of the kit's 30 airports, of which 47% have a route (one end among its 8 hubs)")
    void roundtripAirports() {
        java.util.List<String> all = dev.meshbench.jmeter.workload.AcmeairAirports.LOADED;
        java.util.Set<String> hubs = java.util.Set.copyOf(all.subList(0, 8));
        RandomGenerator random = new SplittableRandom(7);
        int routes = 0;
        for (int i = 0; i < DRAWS; i++) {
            String from = dev.meshbench.jmeter.workload.AcmeairAirports.pick(all, null, random);
            String to = dev.meshbench.jmeter.workload.AcmeairAirports.pick(all, from, random);
            if (hubs.contains(from) || hubs.contains(to)) {
                routes++;
            }
        }
        // pairs without a hub: 22 x 21 of 30 x 29 ordered pairs -> 1 - 462/870 = 0.469
        assertEquals(1 - 462.0 / 870, (double) routes / DRAWS, 0.01);
    }
}
