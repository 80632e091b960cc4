package dev.meshbench.jmeter.functions;

import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.functions.AbstractFunction;
import org.apache.jmeter.functions.InvalidVariableException;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shared plumbing of the kit's JMeter functions: parameter count check, trimmed parameter values, storing the
 * result in an optional variable, and failures that are logged at ERROR (JMeter itself logs a failing function
 * only at DEBUG and substitutes an empty string).
 */
abstract class MeshbenchFunction extends AbstractFunction {

    private static final Logger LOG = LoggerFactory.getLogger(MeshbenchFunction.class);

    private final List<String> argumentDescriptions;
    private final int minParameters;
    private CompoundVariable[] parameters = new CompoundVariable[0];

    MeshbenchFunction(int minParameters, List<String> argumentDescriptions) {
        this.minParameters = minParameters;
        this.argumentDescriptions = List.copyOf(argumentDescriptions);
    }

    @Override
    public final void setParameters(Collection<CompoundVariable> parameters) throws InvalidVariableException {
        checkParameterCount(parameters, minParameters, argumentDescriptions.size());
        this.parameters = parameters.toArray(new CompoundVariable[0]);
    }

    @Override
    public final List<String> getArgumentDesc() {
        return argumentDescriptions;
    }

    /** Parameter {@code index} evaluated now and trimmed; empty when not given. */
    final String parameter(int index) {
        return index < parameters.length ? parameters[index].execute().trim() : "";
    }

    /** Puts {@code value} into the variable named by parameter {@code index}, if that parameter is given. */
    final void storeIn(int index, String value) {
        String name = parameter(index);
        JMeterVariables vars = getVariables();
        if (!name.isEmpty() && vars != null) {
            vars.put(name, value);
        }
    }

    static Properties jmeterProperties() {
        Properties props = JMeterUtils.getJMeterProperties();
        return props != null ? props : new Properties();
    }

    /** Logs the failure (JMeter would hide it) and returns the exception to throw. */
    final InvalidVariableException failure(String problem) {
        String message = getReferenceKey() + ": " + problem;
        LOG.error(message);
        return new InvalidVariableException(message);
    }
}
