package dev.meshbench.jmeter.functions;

import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.engine.util.CompoundVariable;
import org.apache.jmeter.functions.AbstractFunction;
import org.apache.jmeter.functions.InvalidVariableException;

/** Calls a function the way JMeter does: parameters as CompoundVariables, then execute on the current thread. */
final class FunctionCalls {

    private FunctionCalls() {
    }

    static String call(AbstractFunction function, String... parameters) throws InvalidVariableException {
        List<CompoundVariable> params = new ArrayList<>();
        for (String p : parameters) {
            params.add(new CompoundVariable(p));
        }
        function.setParameters(params);
        return function.execute();
    }
}
