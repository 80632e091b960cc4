package dev.meshbench.results.convert;

/**
 * One row of a JMeter CSV results file, reduced to what the converter uses.
 *
 * @param timeStamp epoch ms when the sample started
 * @param elapsed   response time, ms
 * @param label     sampler name
 * @param success   JMeter's verdict
 * @param step      clients of the step the sample belongs to, or {@code null} when the row has none
 * @param line      line of the row in the file
 */
record JtlSample(long timeStamp, long elapsed, String label, boolean success, Integer step, int line) {
}
