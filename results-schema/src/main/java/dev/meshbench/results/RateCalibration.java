package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a sitting's fixed rate was chosen ({@code meshbench.load=calibrated}): one case (bypass) in a closed loop,
 * measured in the same sitting, and a fraction of the throughput it reached. The closed loop measured is either a
 * calibration run of its own or, in a switched sitting whose warm-up ended warm, the warm-up's own last windows
 * ({@code warmupSeconds}): those windows were judged flat, a closed loop of bypass at the same clients, so measuring
 * the same loop again would only repeat them.
 *
 * @param runId         the calibration run, kept in the results folder beside the runs it set the rate of; for a
 *                      maximum from a warm-up, the id of the sitting whose warm-up it was
 * @param caseId        the case it ran (bypass)
 * @param clients       its closed loop's clients
 * @param maxPerSecond  the throughput of its measured window, transactions per second: this machine's maximum for
 *                      the case, in this sitting
 * @param fraction      {@code meshbench.rateFraction}
 * @param ratePerSecond {@code fraction} x {@code maxPerSecond}, rounded to a whole request per second: every case's
 *                      rate
 * @param steady        whether its measured window was steady (not drifting); a calibration that drifted is used but
 *                      said to be uncertain
 * @param warmupSeconds when the maximum is the sitting's warm-up's mean throughput over its last windows, how many
 *                      seconds those were (the windows its warm-up rule judged flat); absent for a calibration run
 */
@JsonPropertyOrder({"runId", "caseId", "clients", "maxPerSecond", "fraction", "ratePerSecond", "steady", "warmupSeconds"})
public record RateCalibration(
        @JsonProperty(required = true) String runId,
        @JsonProperty(required = true) String caseId,
        @JsonProperty(required = true) int clients,
        @JsonProperty(required = true) double maxPerSecond,
        @JsonProperty(required = true) double fraction,
        @JsonProperty(required = true) double ratePerSecond,
        @JsonProperty(required = true) boolean steady,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer warmupSeconds) {

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
        if (warmupSeconds != null && warmupSeconds < 1) {
            throw new IllegalArgumentException("calibration.warmupSeconds (" + warmupSeconds + ") must be at least 1 when given");
        }
    }

    /**
     * The calibration of a closed-loop maximum, or why there can be none: the rate must come to at least one request
     * per second.
     */
    public static RateCalibration of(String runId, String caseId, int clients, double maxPerSecond, double fraction, boolean steady) {
        return of(runId, caseId, clients, maxPerSecond, fraction, steady, null);
    }

    /**
     * The calibration of sitting {@code sittingId}'s warm-up: its mean throughput over its last {@code seconds}, the
     * windows it was judged warm by, and a closed loop of {@code caseId} at {@code clients}; steady, since those
     * windows did not trend.
     */
    public static RateCalibration ofWarmUp(String sittingId, String caseId, int clients, double maxPerSecond, double fraction,
            int seconds) {
        return of(sittingId, caseId, clients, maxPerSecond, fraction, true, seconds);
    }

    private static RateCalibration of(String runId, String caseId, int clients, double maxPerSecond, double fraction, boolean steady,
            Integer warmupSeconds) {
        double rate = Math.round(maxPerSecond * fraction);
        if (!(rate >= 1)) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the calibration %s reached %.2f "
                    + "transactions per second at %d clients; %s of it is below one request per second, too little to compare "
                    + "cases by", warmupSeconds == null ? "run " + runId : "from sitting " + runId + "'s warm-up", maxPerSecond,
                    clients, dev.meshbench.model.settings.Parsers.plain(fraction)));
        }
        return new RateCalibration(runId, caseId, clients, maxPerSecond, fraction, rate, steady, warmupSeconds);
    }

    /** Whether the maximum is a warm-up's last windows, not a calibration run of its own. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean fromWarmUp() {
        return warmupSeconds != null;
    }
}
