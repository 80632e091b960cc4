package dev.meshbench.jmeter.timers;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.RampSchedule;
import dev.meshbench.jmeter.workload.StepRates;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.timers.Timer;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Holds each ramp step at the fixed rate of the {@code rate} property ({@link StepRates}), requests per second over
 * all of the step's threads; does nothing without it. At plan level it paces every request of every step, each step
 * with its own schedule ({@link StepRatePacer}). In the plan's sitting mode ({@code meshbench.controlFile}) the rate is
 * the control file's, read as it changes; a new rate starts a schedule of its own. The step's threads are the pool that may wait for answers at
 * once: give enough of them (rate x response time) or the achieved rate falls short.
 */
@TestElementMetadata(labelResource = "displayName")
public class StepRateTimer extends AbstractTestElement implements Timer, TestBean, TestStateListener {
    private static final long serialVersionUID = 1L;

    private static final Map<String, StepRatePacer> PACERS = new ConcurrentHashMap<>();
    private static volatile StepRates rates = new StepRates(java.util.List.of());
    private static volatile RampSchedule ramp;
    /** The sitting's control file, in the plan's sitting mode: the rate comes from there. */
    private static volatile dev.meshbench.jmeter.workload.SittingControlReader sitting;

    @Override
    public long delay() {
        dev.meshbench.jmeter.workload.SittingControlReader control = sitting;
        if (control != null) {
            double rate = control.current().rate();
            // a new rate starts a new schedule from now: no burst to catch up with the old one
            return rate > 0 ? Math.round(PACERS.computeIfAbsent("sitting/" + rate, k -> new StepRatePacer(rate)).waitNanos(System.nanoTime()) / 1e6)
                    : 0;
        }
        if (rates.perStep().isEmpty() || ramp == null) {
            return 0;
        }
        AbstractThreadGroup group = JMeterContextService.getContext().getThreadGroup();
        if (group == null) {
            return 0;
        }
        int clients = group.getNumThreads();
        return rates.ofStep(ramp, clients)
                .map(r -> PACERS.computeIfAbsent(group.getName() + "/" + clients, k -> new StepRatePacer(r)))
                .map(p -> Math.round(p.waitNanos(System.nanoTime()) / 1e6))
                .orElse(0L);
    }

    @Override
    public boolean isModifiable() {
        return false;
    }

    @Override
    public void testStarted() {
        PACERS.clear();
        dev.meshbench.jmeter.workload.SittingControlReader.reset();
        try {
            sitting = dev.meshbench.jmeter.workload.SittingControlReader.fromProperties(JMeterUtils.getJMeterProperties()).orElse(null);
        } catch (InvalidWorkloadPropertyException e) {
            sitting = null; // the validator reports it and stops the run
        }
        try {
            RampSchedule r = RampSchedule.fromProperties(JMeterUtils.getJMeterProperties());
            rates = StepRates.fromProperties(JMeterUtils.getJMeterProperties(), r);
            ramp = r;
        } catch (InvalidWorkloadPropertyException e) {
            // the plan's validator reports bad properties and stops the run; no pacing meanwhile
            rates = new StepRates(java.util.List.of());
            ramp = null;
        }
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        PACERS.clear();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }
}
