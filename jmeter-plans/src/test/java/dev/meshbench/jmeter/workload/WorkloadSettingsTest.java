package dev.meshbench.jmeter.workload;

import static dev.meshbench.jmeter.TestProperties.props;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadSettingsTest {

    @Test
    @DisplayName("sends every service to base.url unless the service has its own URL")
    void serviceUrlsFallBackToBaseUrl() {
        WorkloadSettings s = WorkloadSettings.fromProperties(props(
                "base.url", "http://mesh.example:8080/", "booking.url", "http://127.0.0.1:9004"));
        assertEquals("http://mesh.example:8080", s.serviceUrls().get("auth"));
        assertEquals("http://mesh.example:8080", s.serviceUrls().get("flight"));
        assertEquals("http://127.0.0.1:9004", s.serviceUrls().get("booking"));
    }

    @Test
    @DisplayName("keeps an ingress path prefix and drops trailing slashes")
    void keepsPathPrefix() {
        assertEquals("https://ingress.example/acmeair",
                WorkloadProperties.serviceUrl(props("base.url", "https://ingress.example/acmeair//"), "customer"));
    }

    @Test
    @DisplayName("uses 127.0.0.1:8080 when no URL is given")
    void defaultUrl() {
        assertEquals("http://127.0.0.1:8080", WorkloadProperties.serviceUrl(new Properties(), "auth"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "auth.url|ftp://127.0.0.1:21|must start with http:// or https://",
        "customer.url|127.0.0.1:8080|must start with http:// or https://",
        "base.url|http:///acmeair|has no host",
        "flight.url|http://h:1/x?y=1|must not have a query or fragment",
        "booking.url|http://a b|is not a URL"})
    @DisplayName("rejects a URL that is not absolute http(s), naming the property")
    void rejectsBadUrls(String property, String value, String rule) {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(props(property, value)));
        assertEquals(property, e.property());
        assertTrue(e.getMessage().contains(rule), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "think.ms|-1|must be 0 or more milliseconds",
        "think.ms|x|must be a whole number of milliseconds",
        "customers|0|must be between 1 and 1000000 customers",
        "customers||must be a whole number of customers",
        "flight.days|1|must be between 2 and 366 days (a round trip returns the day after it leaves",
        "workload|oneway|must be one of original, roundtrip",
        "airports|JFK|needs at least two distinct airports",
        "airports|JFK,L-X|is not a 3-letter IATA airport code",
        "rewards.percent|101|must be from 0 to 100 percent of session rounds",
        "rewards.percent|-5|is not a percent",
        "rewards.percent|1e1|is not a percent",
        "rewards.percent|5,5|is not a percent",
        "rewards.percent|NaN|is not a percent",
        "rewards.percent||is empty"})
    @DisplayName("rejects think time, customers, flight days and airports it cannot run with")
    void rejectsOtherBadValues(String property, String value, String rule) {
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(props(property, value == null ? "" : value)));
        assertEquals(property, e.property());
        assertTrue(e.getMessage().contains(rule), e.getMessage());
    }

    @Test
    @DisplayName("leaves viewRewards out unless rewards.percent asks for it, and accepts decimals")
    void rewardsPercent() {
        assertEquals(0.0, WorkloadSettings.fromProperties(new Properties()).rewardsPercent());
        assertEquals(2.5, WorkloadSettings.fromProperties(props("rewards.percent", " 2.5 ")).rewardsPercent());
        assertEquals(100.0, WorkloadSettings.fromProperties(props("rewards.percent", "100")).rewardsPercent());
        assertTrue(WorkloadSettings.fromProperties(new Properties()).summary().contains(" flight days, viewRewards off;"));
        assertTrue(WorkloadSettings.fromProperties(props("rewards.percent", "10.0")).summary()
                .contains(" flight days, viewRewards in 10% of rounds;"));
    }

    @Test
    @DisplayName("a driver setting it has no field for (count.percent) is checked by its catalogue rule and summarised when set")
    void knobs() {
        WorkloadSettings plain = WorkloadSettings.fromProperties(new Properties());
        assertEquals(Map.of(), plain.knobs());
        assertTrue(plain.summary().contains(" flight days, viewRewards off;"), plain.summary());
        WorkloadSettings counted = WorkloadSettings.fromProperties(props("count.percent", "50"));
        assertEquals(Map.of("count.percent", "50"), counted.knobs());
        assertTrue(counted.summary().contains(" flight days, viewRewards off, count.percent 50;"), counted.summary());
        assertEquals(Map.of(), WorkloadSettings.fromProperties(props("count.percent", "0.0")).knobs(), "0.0 is the default");
        InvalidWorkloadPropertyException e = assertThrows(InvalidWorkloadPropertyException.class,
                () -> WorkloadSettings.fromProperties(props("count.percent", "ten")));
        assertEquals("count.percent=ten: is not a percent; give a number from 0 to 100 such as 5 or 2.5 (0 = never)", e.getMessage());
    }

    @Test
    @DisplayName("reads airports case-insensitively, without duplicates")
    void readsAirports() {
        assertEquals(List.of("JFK", "LHR"), AcmeairAirports.parse("jfk, LHR,JFK"));
    }

    @Test
    @DisplayName("summarises the run in one line")
    void summary() {
        WorkloadSettings s = WorkloadSettings.fromProperties(props("clients", "1,2", "step.seconds", "5",
                "customers", "100", "base.url", "http://127.0.0.1:1"));
        assertTrue(s.summary().startsWith("Acmeair ramp: clients [1, 2], 5 s per step (10 s in all), think 0 ms, "
                + "original mix, 100 customers,"), s.summary());
        assertTrue(s.summary().endsWith("auth=http://127.0.0.1:1 customer=http://127.0.0.1:1 "
                + "flight=http://127.0.0.1:1 booking=http://127.0.0.1:1"), s.summary());
    }
}
