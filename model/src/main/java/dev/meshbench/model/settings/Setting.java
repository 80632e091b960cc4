package dev.meshbench.model.settings;

import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code meshbench.*} setting: its name, default, the study's value ({@code -Pstudy}), how its text is read and
 * checked, what it means, and where it applies. A value is refused where it enters with a message naming the
 * property, the value and the rule: {@code meshbench.clients=0: client counts must be positive whole numbers}.
 *
 * <p>An absent setting takes its default ({@link #studyValue} first when the study's values apply); a blank one is
 * absent when the setting has no default (an optional setting left empty), and is read, and refused, when it has
 * one (a typo must not silently mean the default).
 *
 * @param name         the property, as users pass it ({@code -Dmeshbench.clients=1,5})
 * @param defaultValue the value when absent, as text; empty when the setting is optional or set by the build
 * @param defaultText  the default as the reference says it ({@code `envoy` on PATH}); the value itself when empty
 * @param studyValue   the egress study's value, layered under explicit values by {@code -Pstudy}
 * @param parser       how the text is read, and its rule
 * @param doc          one line on what it means
 * @param target       which target reads it
 * @param goals        which goals (and commands) read it
 * @param jmeter       the JMeter property the Acmeair plan reads this setting as ({@code think.ms}), when it is one of
 *                     the driver's: the kit passes the value under that name ({@link Catalogue#DRIVER}), and the
 *                     plan's plugin reads and refuses it with this same parser, so a value means, and fails, the same
 *                     on both sides
 * @param <T>          the value's type
 */
public record Setting<T>(String name, Optional<String> defaultValue, String defaultText, Optional<String> studyValue,
        Parser<T> parser, String doc, TargetScope target, Set<Goal> goals, Optional<String> jmeter) {

    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, name);
        Objects.requireNonNull(defaultText, name);
        Objects.requireNonNull(studyValue, name);
        Objects.requireNonNull(parser, name);
        Objects.requireNonNull(doc, name);
        Objects.requireNonNull(target, name);
        Objects.requireNonNull(jmeter, name);
        if (!name.startsWith("meshbench.")) {
            throw new IllegalArgumentException(name + ": a setting's name starts with meshbench.");
        }
        if (goals.isEmpty()) {
            throw new IllegalArgumentException(name + ": applies to no goal");
        }
        goals = Set.copyOf(goals);
        // A default or study value the setting's own rule refuses is a mistake in the catalogue: fail at class load.
        defaultValue.ifPresent(v -> readAs(name, v, parser));
        studyValue.ifPresent(v -> readAs(name, v, parser));
    }

    /** The value of {@code text}, or an error {@code name=text: rule}. */
    public T parse(String text) {
        return readAs(name, text, parser);
    }

    /** The value of {@code text}, or an error naming {@code label} instead of the property (a command-line option). */
    public T parseAs(String label, String text) {
        return readAs(label, text, parser);
    }

    /** The default's value; an error naming the property when it has none. */
    public T defaultParsed() {
        return parse(defaultValue.orElseThrow(() -> new IllegalStateException(name + " has no default")));
    }

    /** The text in effect: the property, else (with {@code study}) the study's value, else the default; empty when none. */
    public Optional<String> text(Map<String, String> props, boolean study) {
        String v = props.get(name);
        if (v != null && !(v.isBlank() && defaultValue.isEmpty() && studyValue.isEmpty())) {
            return Optional.of(v.trim());
        }
        if (study && studyValue.isPresent()) {
            return studyValue;
        }
        return defaultValue;
    }

    /** The JMeter property the plan reads this setting as; an error when it is not one of the driver's. */
    public String jmeterName() {
        return jmeter.orElseThrow(() -> new IllegalStateException(name + " is not a JMeter property"));
    }

    /** The value in effect without the study's values; empty when the setting is optional and not given. */
    public Optional<T> read(Map<String, String> props) {
        return read(props, false);
    }

    /** The value in effect; empty when the setting is optional and not given. */
    public Optional<T> read(Map<String, String> props, boolean study) {
        return text(props, study).map(this::parse);
    }

    /** The value in effect without the study's values, or an error saying the setting is not set. */
    public T value(Map<String, String> props) {
        return value(props, false);
    }

    /** The value in effect, or an error saying the setting is not set. */
    public T value(Map<String, String> props, boolean study) {
        return read(props, study).orElseThrow(() -> new IllegalArgumentException(name + " is not set: " + doc));
    }

    /** Whether the property is given, not blank. */
    public boolean isSet(Map<String, String> props) {
        String v = props.get(name);
        return v != null && !v.isBlank();
    }

    /** An error about this setting's value: {@code name=value: why}. */
    public IllegalArgumentException invalid(String value, String why) {
        return new IllegalArgumentException(name + "=" + value + ": " + why);
    }

    private static <T> T readAs(String label, String text, Parser<T> parser) {
        try {
            return parser.read().apply(text.trim());
        } catch (Parser.Invalid e) {
            throw new IllegalArgumentException(label + "=" + text.trim() + ": " + e.getMessage(), e);
        }
    }

    /** Starts a setting: {@code Setting.named("meshbench.x").parser(...).doc(...).goals(...).build()}. */
    public static Builder<String> named(String name) {
        return new Builder<>(name, Parsers.text());
    }

    /** A setting under construction (the catalogue's declarations read top to bottom). */
    public static final class Builder<T> {
        private final String name;
        private Parser<T> parser;
        private String defaultValue;
        private String defaultText = "";
        private String studyValue;
        private String doc = "";
        private TargetScope target = TargetScope.BOTH;
        private String jmeter;
        private final Set<Goal> goals = EnumSet.noneOf(Goal.class);

        private Builder(String name, Parser<T> parser) {
            this.name = name;
            this.parser = parser;
        }

        @SuppressWarnings("unchecked")
        public <U> Builder<U> parser(Parser<U> p) {
            Builder<U> b = (Builder<U>) this;
            b.parser = p;
            return b;
        }

        public Builder<T> defaultValue(String v) {
            this.defaultValue = v;
            return this;
        }

        /** How the reference states the default when it is not one value (or the setting has none). */
        public Builder<T> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        public Builder<T> study(String v) {
            this.studyValue = v;
            return this;
        }

        public Builder<T> doc(String text) {
            this.doc = text;
            return this;
        }

        /** The JMeter property the plan reads this setting as (one of the driver's, {@link Catalogue#DRIVER}). */
        public Builder<T> jmeter(String property) {
            this.jmeter = property;
            return this;
        }

        public Builder<T> local() {
            this.target = TargetScope.LOCAL;
            return this;
        }

        public Builder<T> kubernetes() {
            this.target = TargetScope.KUBERNETES;
            return this;
        }

        public Builder<T> goals(Goal... gs) {
            goals.addAll(java.util.List.of(gs));
            return this;
        }

        public Setting<T> build() {
            return new Setting<>(name, Optional.ofNullable(defaultValue), defaultText, Optional.ofNullable(studyValue), parser,
                    doc, target, goals, Optional.ofNullable(jmeter));
        }
    }
}
