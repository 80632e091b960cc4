package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a sitting's fixed rate was chosen ({@code meshbench.load=calibrated}): a calibration run of one case (bypass)
 * in a closed loop, measured in the same sitting, and a fraction of the throughput it reached.
 *
 * @param runId         the calibration run, kept in the results folder beside the runs it set the rate of
 * @param caseId        the case it ran (bypass)
 * @param clients       its closed loop's clients
 * @param maxPerSecond  the throughput of its measured window, transactions per second: this machine's maximum for
 *                      the case, in this sitting
 * @param fraction      {@code meshbench.rateFraction}
 * @param ratePerSecond {@code fraction} x {@code maxPerSecond}, rounded to a whole request per second: every case's
 *                      rate
 * @param steady        whether its measured window was steady (not drifting); a calibration that drifted is used but
 *                      said to be uncertain
 */
@JsonPropertyOrder({"runId", "caseId", "clients", "maxPerSecond", "fraction", "ratePerSecond", "steady"})
public record RateCalibration(
        @JsonProperty(required = true) String runId,
        @JsonProperty(required = true) String caseId,
        @JsonProperty(required = true) int clients,
        @JsonProperty(required = true) double maxPerSecond,
        @JsonProperty(required = true) double fraction,
        @JsonProperty(required = true) double ratePerSecond,
        @JsonProperty(required = true) boolean steady) {

    public RateCalibration {
        Checks.text("runId", runId);
        Checks.text("caseId", caseId);
        Checks.positive("clients", clients);
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("calibration.fraction (" + fraction + ") must be above 0 and below 1");
        }
        if (!(ratePerSecond >= 1)) {
            throw new IllegalArgumentException("calibration.ratePerSecond (" + ratePerSecond + ") must be at least 1");
        }
    }

    /**
     * The calibration of a closed-loop maximum, or why there can be none: the rate must come to at least one request
     * per second.
     */
    public static RateCalibration of(String runId, String caseId, int clients, double maxPerSecond, double fraction, boolean steady) {
        double rate = Math.round(maxPerSecond * fraction);
        if (!(rate >= 1)) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the calibration run %s reached %.2f "
                    + "transactions per second at %d clients; %s of it is below one request per second, too little to compare "
                    + "cases by", runId, maxPerSecond, clients, dev.meshbench.model.settings.Parsers.plain(fraction)));
        }
        return new RateCalibration(runId, caseId, clients, maxPerSecond, fraction, rate, steady);
    }
}
