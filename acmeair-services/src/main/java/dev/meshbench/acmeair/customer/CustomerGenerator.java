package dev.meshbench.acmeair.customer;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.bson.Document;

/**
 * Deterministic customers {@code uid0@email.com} ... {@code uid<N-1>@email.com}, password {@code password} as in
 * Acmeair. The same seed gives the same documents, and customer i does not depend on N.
 */
public final class CustomerGenerator {
    public static final String PASSWORD = "password";
    static final String[] STATUSES = {"NONE", "SILVER", "GOLD", "PLATINUM"};
    static final String[] PHONE_TYPES = {"HOME", "BUSINESS", "MOBILE"};
    /**
     * Places of the customers' addresses. Postal codes are digits only, as the original's one address ({@code 27617}):
     * the original JMeter driver's "Update Customer" adds 1 to the postal code as an integer (and to the street
     * number), and sends nothing when that fails.
     */
    static final String[][] PLACES = {
        {"Raleigh", "NC", "USA", "27617"}, {"Austin", "TX", "USA", "73301"}, {"Armonk", "NY", "USA", "10504"},
        {"Paris", "IDF", "FRA", "75015"}, {"Boeblingen", "BW", "DEU", "71032"}, {"Tokyo", "13", "JPN", "1038510"},
        {"Bangalore", "KA", "IND", "560045"}, {"Sao Paulo", "SP", "BRA", "04794000"},
    };

    private CustomerGenerator() {
    }

    public static String id(int i) {
        return "uid" + i + "@email.com";
    }

    /** Customer {@code i} for {@code seed}. */
    public static Document customer(long seed, int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        String[] place = PLACES[r.nextInt(PLACES.length)];
        long totalMiles = r.nextLong(0, 1_000_000);
        return new Document("_id", id(i))
                .append("password", PASSWORD)
                .append("status", STATUSES[r.nextInt(STATUSES.length)])
                .append("total_miles", totalMiles)
                .append("miles_ytd", r.nextLong(0, Math.min(totalMiles, 100_000) + 1))
                .append("address", new Document("streetAddress1", (1 + r.nextInt(9999)) + " Main St.")
                        .append("city", place[0]).append("stateProvince", place[1]).append("country", place[2])
                        .append("postalCode", place[3]))
                .append("phoneNumber", String.format(java.util.Locale.ROOT, "%03d-%03d-%04d", 200 + r.nextInt(800),
                        r.nextInt(1000), r.nextInt(10000)))
                .append("phoneNumberType", PHONE_TYPES[r.nextInt(PHONE_TYPES.length)]);
    }

    /** The first {@code n} customers, generated lazily. */
    public static Iterable<Document> customers(long seed, int n) {
        return () -> new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Document next() {
                if (i >= n) {
                    throw new NoSuchElementException();
                }
                return customer(seed, i++);
            }
        };
    }
}
