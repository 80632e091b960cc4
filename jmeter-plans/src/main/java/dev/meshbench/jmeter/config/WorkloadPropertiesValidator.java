package dev.meshbench.jmeter.config;

import dev.meshbench.jmeter.workload.InvalidWorkloadPropertyException;
import dev.meshbench.jmeter.workload.WorkloadSettings;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks every workload property (clients, step.seconds, think.ms, customers, flight.days, airports,
 * rewards.percent, the service URLs) when the test starts, before any thread group, and prints one line saying what the run will do.
 *
 * <p>On a bad value it reports {@code property=value: rule}. In non-GUI mode it then ends JMeter with exit code 1,
 * the only way JMeter 5.6 has to make the run (and a Maven build around it) fail before it starts; in the GUI it
 * shows the error and stops the test.
 */
@TestElementMetadata(labelResource = "displayName")
public class WorkloadPropertiesValidator extends AbstractTestElement implements ConfigElement, TestBean, TestStateListener {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadPropertiesValidator.class);

    /** Exit code of a non-GUI JMeter whose workload properties are invalid. */
    public static final int EXIT_INVALID_PROPERTY = 1;

    private transient Consumer<InvalidWorkloadPropertyException> onInvalid = WorkloadPropertiesValidator::abort;

    /** Validates {@code props}; on success returns the settings, else hands the problem to the failure action. */
    WorkloadSettings validate(Properties props) {
        try {
            WorkloadSettings settings = WorkloadSettings.fromProperties(props);
            String summary = settings.summary();
            java.util.Optional<dev.meshbench.jmeter.workload.SittingControlReader> sitting =
                    dev.meshbench.jmeter.workload.SittingControlReader.fromProperties(props);
            if (sitting.isPresent()) {
                dev.meshbench.model.SittingControl c = sitting.get().current();
                summary += "; sitting mode: " + props.getProperty(dev.meshbench.jmeter.workload.WorkloadProperties.WARMUP_CLIENTS)
                        + " clients until the control file " + props.getProperty(dev.meshbench.model.SittingControl.PROPERTY)
                        + " says stop (now phase " + c.phase() + ", rate " + (c.rate() > 0 ? c.rate() + " req/s" : "closed loop")
                        + "), no ramp steps";
            }
            System.out.println(dev.meshbench.model.PlanOutput.PREFIX + summary); // progress for people, on JMeter's stdout
            LOG.info("Workload properties valid: {}", summary);
            return settings;
        } catch (InvalidWorkloadPropertyException e) {
            onInvalid.accept(e);
            return null;
        }
    }

    private static void abort(InvalidWorkloadPropertyException e) {
        String message = dev.meshbench.model.PlanOutput.PREFIX + "invalid JMeter property " + e.getMessage();
        LOG.error(message);
        if (JMeter.isNonGUI()) {
            System.err.println(message);
            System.err.flush();
            System.exit(EXIT_INVALID_PROPERTY); // NOSONAR: non-GUI JMeter has no other way to fail the run
        } else {
            JMeterUtils.reportErrorToUser(message, "Invalid workload property");
            StandardJMeterEngine.stopEngineNow();
        }
    }

    /** For tests: what to do with an invalid property instead of ending the JVM. */
    void setOnInvalid(Consumer<InvalidWorkloadPropertyException> onInvalid) {
        this.onInvalid = onInvalid;
    }

    @Override
    public void testStarted() {
        Properties props = JMeterUtils.getJMeterProperties();
        validate(props != null ? props : new Properties());
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        // nothing to release
    }

    @Override
    public void testEnded(String host) {
        // nothing to release
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // holds no settings of its own to merge
    }

    @Override
    public boolean expectsModification() {
        return false;
    }

    @Override
    public Object clone() {
        return super.clone();
    }
}
