package dev.meshbench.acmeair;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The loaded users ({@code uid<N>@email.com}, N below {@link AcmeairSystem#CUSTOMERS}) each test class of this module
 * uses, in one place. The integration tests share one database ({@link AcmeairSystem}, started once per test run),
 * so a test that logs in, books or changes a user must own that user. A new test takes a free block here and asks it
 * for its users ({@code TestUsers.BOOKING.email(20)}); a user outside the block, or blocks that overlap, fail the
 * first test that asks. A test that starts a system of its own ({@code MongoCommandsPerRequestTest}) needs no block.
 */
enum TestUsers {
    /** Read only: the OpenAPI document's example paths. */
    PUBLIC_API(0, 0),
    AUTH_AND_CUSTOMER(3, 9),
    BOOKING(20, 25),
    METRICS(30, 31),
    /** {@code uid40} and {@code uid150}: the loader's first and a later customer. */
    LOADER(40, 40),
    LOADER_LATER(150, 150),
    CUSTOMER_REWARDS(50, 56),
    /** Named in {@code OriginalDriverTest}'s {@code @CsvSource} (an annotation takes constants only), one per time zone. */
    ORIGINAL_DRIVER(60, 68),
    BOOKING_COUNT(80, 82),
    /** Read and booked through services whose MongoDB address is switched ({@code MongoSwitchTest}). */
    MONGO_SWITCH(90, 92);

    private final int first;
    private final int last;

    TestUsers(int first, int last) {
        this.first = first;
        this.last = last;
    }

    /** The user {@code uid<n>@email.com}, which must be in this block. */
    String email(int n) {
        checkBlocks();
        if (n < first || n > last) {
            throw new IllegalArgumentException("uid" + n + " is not in " + name() + "'s block uid" + first + "..uid" + last
                    + " (TestUsers): take users from your own block");
        }
        return "uid" + n + "@email.com";
    }

    /** Whether {@code email} is one of this block's users. */
    boolean owns(String email) {
        for (int n = first; n <= last; n++) {
            if (("uid" + n + "@email.com").equals(email)) {
                return true;
            }
        }
        return false;
    }

    /** The blocks lie inside the loaded customers and apart from each other. */
    static void checkBlocks() {
        List<TestUsers> sorted = Arrays.stream(values()).sorted(Comparator.comparingInt(t -> t.first)).toList();
        for (int i = 0; i < sorted.size(); i++) {
            TestUsers b = sorted.get(i);
            if (b.first > b.last || b.last >= AcmeairSystem.CUSTOMERS) {
                throw new IllegalStateException(b + " (uid" + b.first + "..uid" + b.last + ") is not inside the "
                        + AcmeairSystem.CUSTOMERS + " loaded customers");
            }
            if (i > 0 && sorted.get(i - 1).last >= b.first) {
                throw new IllegalStateException(sorted.get(i - 1) + " and " + b + " share users: give each test its own block");
            }
        }
    }
}
