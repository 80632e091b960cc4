package dev.meshbench.model.settings;

import java.util.Objects;
import java.util.function.Function;

/**
 * How a setting's text becomes a value, and the rule it must follow, worded for the reference ("a whole number from 1
 * to 100"). A value that breaks the rule is refused with {@link Invalid}, whose message says why in words that follow
 * "{@code name=value: }"; {@link Setting#parse} adds the name and the value.
 *
 * @param rule the rule, for the reference and {@code --help}
 * @param read reads a trimmed value, or throws {@link Invalid}
 * @param <T>  the value's type
 */
public record Parser<T>(String rule, Function<String, T> read) {
    public Parser {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(read, "read");
    }

    /** A value that breaks a parser's rule; the message says why, without the name or the value. */
    public static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public Invalid(String why) {
            super(why);
        }
    }

    /** This parser with a further check on the value it read. */
    public <U> Parser<U> then(String moreRule, Function<T, U> next) {
        return new Parser<>(moreRule.isEmpty() ? rule : rule + "; " + moreRule, v -> next.apply(read.apply(v)));
    }
}
