package dev.meshbench.model.settings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The property reference, {@code docs/settings.md}, generated from the {@link Catalogue}: one table per kind of
 * setting, each row with name, default, the study's value, target, what reads it, meaning and rule.
 * {@code java -cp model/target/classes dev.meshbench.model.settings.SettingsReference docs/settings.md} writes it; so
 * does {@code SettingsReferenceTest} with {@code -Dmeshbench.regenerateGolden=true}.
 */
public final class SettingsReference {
    /** The committed file, relative to the checkout. */
    public static final String FILE = "docs/settings.md";

    private SettingsReference() {
    }

    /** The reference as Markdown. */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("# Settings\n\n");
        out.append("<!-- Generated from model/src/main/java/dev/meshbench/model/settings/Catalogue.java by SettingsReference: "
                + "edit the catalogue, not this file. -->\n\n");
        out.append("Every `meshbench.*` property the kit reads. Give them to Maven as `-D<property>=<value>` "
                + "(`mvn -B verify -Pcase-sni -Dmeshbench.clients=1,5`); the `meshbench` command's options say which "
                + "property they stand for, and its `--help` shows the same defaults. An absent property takes its default "
                + "(with `-Pstudy`, the study's value first); an optional one left empty is absent. A value that breaks "
                + "its rule stops the build before anything starts, naming the property, the value and the rule, e.g. "
                + "`meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20`.\n\n");
        out.append("Every run records the settings it ran with in `run.json` (`measurement.settings`: each property in "
                + "effect, defaults included, secrets left out).\n");
        for (Map.Entry<String, List<Setting<?>>> section : Catalogue.SECTIONS.entrySet()) {
            out.append("\n## ").append(section.getKey()).append("\n\n");
            out.append("| property | default | `-Pstudy` | target | read by | meaning | rule |\n");
            out.append("|---|---|---|---|---|---|---|\n");
            for (Setting<?> s : section.getValue()) {
                out.append("| `").append(s.name()).append("` | ")
                        .append(cell(defaultText(s))).append(" | ")
                        .append(s.studyValue().map(v -> "`" + v + "`").orElse("")).append(" | ")
                        .append(s.target().label()).append(" | ")
                        .append(goals(s.goals())).append(" | ")
                        .append(cell(s.doc() + s.jmeter().map(j -> "; JMeter property `" + j + "` (what the plan reads)")
                                .orElse(""))).append(" | ")
                        .append(cell(s.parser().rule())).append(" |\n");
            }
        }
        return out.toString();
    }

    private static String defaultText(Setting<?> s) {
        if (!s.defaultText().isEmpty()) {
            return s.defaultText();
        }
        return s.defaultValue().map(v -> "`" + v + "`").orElse("none");
    }

    private static String goals(Set<Goal> goals) {
        return goals.stream().sorted().map(Goal::label).collect(Collectors.joining(", "));
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** Writes the reference to {@code args[0]} (default {@value #FILE}). */
    public static void main(String[] args) throws java.io.IOException {
        Path file = Path.of(args.length > 0 ? args[0] : FILE);
        Files.writeString(file, markdown(), StandardCharsets.UTF_8);
        System.out.println("wrote " + file);
    }
}
