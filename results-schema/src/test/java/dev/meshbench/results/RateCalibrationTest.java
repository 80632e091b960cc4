package dev.meshbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RateCalibrationTest {

    @Test
    @DisplayName("the rate is the fraction of the calibration's maximum, to a whole request per second")
    void rateIsTheFractionOfTheMaximum() {
        RateCalibration c = RateCalibration.of("20261127-120000-calibration-bypass", "bypass", 20, 1234.5, 0.5, true);
        assertEquals(617, c.ratePerSecond(), "1234.5 x 0.5 = 617.25");
        assertEquals(1234.5, c.maxPerSecond());
        MeasurementInfo m = MeasurementInfo.DEFAULT.withCalibratedRate(c, 2, 5);
        assertEquals(List.of(617.0, 617.0), m.targetRatePerSecond(), "one rate for every step");
        assertEquals(c, m.calibration());
        assertFalse(m.calibrationOnly());
    }

    @Test
    @DisplayName("a calibration that reached too little to set a rate is refused, naming the run and what it reached")
    void tooLittleIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RateCalibration.of("r1", "bypass", 20, 1.2, 0.3, true));
        assertEquals("the calibration run r1 reached 1.20 transactions per second at 20 clients; 0.3 of it is below one request per "
                + "second, too little to compare cases by", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RateCalibration.of("r1", "bypass", 20, 0, 0.5, true));
    }

    @Test
    @DisplayName("a calibration run is a closed loop marked as such; both survive results.json and read back")
    void recorded(@TempDir Path dir) throws Exception {
        MeasurementInfo run = MeasurementInfo.DEFAULT.withCalibratedRate(RateCalibration.of("r1", "bypass", 20, 800, 0.5, false), 1, 5);
        MeasurementInfo calibrating = run.asCalibrationRun();
        assertTrue(calibrating.calibrationOnly());
        assertEquals(List.of(), calibrating.targetRatePerSecond());
        assertNull(calibrating.calibration());
        Path f = dir.resolve("m.json");
        new com.fasterxml.jackson.databind.ObjectMapper().writeValue(f.toFile(), run);
        MeasurementInfo back = new com.fasterxml.jackson.databind.ObjectMapper().readValue(f.toFile(), MeasurementInfo.class);
        assertEquals(run, back);
        assertEquals(400, back.calibration().ratePerSecond());
        assertFalse(back.calibration().steady());
    }

    @Test
    @DisplayName("a maximum from a warm-up's last windows says so and how long they were; one from a run writes no such field")
    void fromWarmUp(@TempDir Path dir) throws Exception {
        RateCalibration w = RateCalibration.ofWarmUp("20261129-083924-sitting", "bypass", 20, 2121.3, 0.5, 40);
        assertTrue(w.fromWarmUp());
        assertTrue(w.steady(), "the windows it averages were judged flat");
        assertEquals(1061, w.ratePerSecond());
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path f = dir.resolve("w.json");
        json.writeValue(f.toFile(), w);
        assertEquals(w, json.readValue(f.toFile(), RateCalibration.class));
        assertTrue(java.nio.file.Files.readString(f).contains("\"warmupSeconds\":40"));
        RateCalibration run = RateCalibration.of("r1", "bypass", 20, 800, 0.5, true);
        assertFalse(run.fromWarmUp());
        assertFalse(json.writeValueAsString(run).contains("warmupSeconds"), "absent, not null, for a calibration run");
        assertFalse(json.writeValueAsString(run).contains("fromWarmUp"), "derived, not recorded");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RateCalibration.ofWarmUp("s1", "bypass", 20, 1.2, 0.3, 40));
        assertTrue(e.getMessage().startsWith("the calibration from sitting s1's warm-up reached 1.20"), e.getMessage());
    }
}
