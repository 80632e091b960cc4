package dev.meshbench.jmeter.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AcmeairUserPartitionTest {
    @Test
    @DisplayName("concurrent threads draw from disjoint shares of the customers, covering each share")
    void disjointShares() {
        Random r = new Random(7);
        int customers = 1000;
        int threads = 20;
        Set<Integer> all = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            Set<Integer> mine = new HashSet<>();
            for (int i = 0; i < 5000; i++) {
                int n = AcmeairUser.pick(r, customers, t, threads);
                assertTrue(n >= 0 && n < customers, "out of range: " + n);
                assertEquals(t, n % threads, "thread " + t + " drew another thread's customer " + n);
                mine.add(n);
            }
            assertEquals(customers / threads, mine.size(), "thread " + t + " should reach its whole share");
            all.addAll(mine);
        }
        assertEquals(customers, all.size(), "together the threads cover every customer");
    }

    @Test
    @DisplayName("with uneven shares or more threads than customers every draw is still a loaded customer")
    void unevenAndOversubscribed() {
        Random r = new Random(3);
        for (int i = 0; i < 2000; i++) {
            int n = AcmeairUser.pick(r, 10, 6, 7); // share of slot 6 in [0,10): {6}
            assertEquals(6, n);
            int m = AcmeairUser.pick(r, 5, 3, 60); // more threads than customers: any customer
            assertTrue(m >= 0 && m < 5);
        }
    }
}
