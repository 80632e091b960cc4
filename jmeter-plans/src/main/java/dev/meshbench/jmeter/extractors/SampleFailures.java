package dev.meshbench.jmeter.extractors;

import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;

/** Marks a sample failed the way assertions do, so the JTL's failureMessage column says why. */
final class SampleFailures {

    private SampleFailures() {
    }

    static void fail(SampleResult result, String source, String message) {
        AssertionResult failure = new AssertionResult(source);
        failure.setFailure(true);
        failure.setFailureMessage(message);
        result.addAssertionResult(failure);
        result.setSuccessful(false);
    }
}
