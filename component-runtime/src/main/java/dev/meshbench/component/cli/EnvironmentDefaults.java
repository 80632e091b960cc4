package dev.meshbench.component.cli;

import java.lang.reflect.AnnotatedElement;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;

/**
 * picocli's default values from environment variables: an option annotated {@link EnvironmentVariable} takes the
 * variable's value (trimmed) when the command line does not give the option; an unset or blank variable is no value.
 * picocli asks only for options the command line left out, and converts and checks the value as if it had been given,
 * so a bad variable is reported like a bad option (naming the variable, see {@link ComponentCommandLine}).
 */
public final class EnvironmentDefaults implements IDefaultValueProvider {
    private final Map<String, String> environment;
    private final Set<ArgSpec> supplied = new HashSet<>();

    /** @param environment usually {@code System.getenv()}; tests pass their own */
    public EnvironmentDefaults(Map<String, String> environment) {
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** The variable an option falls back to, if it names one. */
    public static Optional<String> variableOf(ArgSpec arg) {
        Object member = arg.userObject();
        if (member instanceof AnnotatedElement e) {
            EnvironmentVariable v = e.getAnnotation(EnvironmentVariable.class);
            return v == null ? Optional.empty() : Optional.of(v.value());
        }
        return Optional.empty();
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        String value = variableOf(arg).map(environment::get).orElse(null);
        if (value == null || value.isBlank()) {
            return null;
        }
        supplied.add(arg);
        return value.trim();
    }

    /** Whether the option's value came from its variable (the command line did not give it). */
    public boolean supplied(ArgSpec arg) {
        return supplied.contains(arg);
    }
}
