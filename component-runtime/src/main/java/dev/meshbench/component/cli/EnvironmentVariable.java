package dev.meshbench.component.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The environment variable a picocli option falls back to when the command line does not give it (containers set
 * these, e.g. {@code PORT}, {@code GRAPH_FILE}); the command line wins. Read by {@link EnvironmentDefaults}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface EnvironmentVariable {
    /** The variable's name, e.g. {@code PORT}. */
    String value();
}
