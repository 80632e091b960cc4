package dev.meshbench.orchestrator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Every {@code java -jar orchestrator/target/meshbench.jar ...} a user would copy from the README, {@code docs/}
 * (not the dated records under {@code docs/measurements/}, which keep the commands of their day) and the modules'
 * READMEs is a command line the kit accepts as written: its command and options parse. The cheap ones, {@code render}
 * and {@code --help}, are also run, and must succeed.
 */
class DocsCommandsTest {
    private static final String PREFIX = "java -jar orchestrator/target/meshbench.jar";

    /** One command as documented: the file and line it is on, and its arguments after the jar. */
    record Documented(String where, List<String> args) {
    }

    @TestFactory
    Stream<DynamicTest> everyDocumentedCommandParses() throws IOException {
        List<Documented> all = documented(root());
        assertTrue(all.size() >= 5, "found only " + all);
        return all.stream().map(d -> dynamicTest(d.where() + ": " + String.join(" ", d.args()), () -> {
            CommandLine cli = MeshbenchMain.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(out));
            cli.setErr(new PrintWriter(err));
            String[] args = d.args().toArray(String[]::new);
            if (d.args().contains("--help") || d.args().get(0).equals("render")) {
                assertEquals(0, cli.execute(args), d.where() + ": " + err);
                assertFalse(out.toString().isBlank(), d.where() + ": printed nothing");
            } else {
                cli.parseArgs(args);
            }
        }));
    }

    @Test
    void commandsAreReadAsAShellWould() {
        List<Documented> d = commands("x.md", List.of("```bash",
                "java -jar orchestrator/target/meshbench.jar run --latency -Dmeshbench.latency.cells='single/1/*/*'   # a comment",
                "$ java -jar orchestrator/target/meshbench.jar up --case sni \\",
                "    -Dmeshbench.x=\"a b\"",
                "```",
                "java -jar orchestrator/target/meshbench.jar not-in-a-block"));
        assertEquals(List.of(new Documented("x.md:2", List.of("run", "--latency", "-Dmeshbench.latency.cells=single/1/*/*")),
                new Documented("x.md:3", List.of("up", "--case", "sni", "-Dmeshbench.x=a b"))), d);
    }

    static List<Documented> documented(Path root) throws IOException {
        List<Documented> out = new ArrayList<>();
        for (Path f : markdownFiles(root)) {
            out.addAll(commands(root.relativize(f).toString(), Files.readAllLines(f)));
        }
        return out;
    }

    /** The meshbench.jar commands in the fenced code blocks of a Markdown file's lines. */
    static List<Documented> commands(String file, List<String> lines) {
        List<Documented> out = new ArrayList<>();
        boolean inBlock = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (line.startsWith("$ ")) {
                line = line.substring(2);
            }
            if (!inBlock || !line.startsWith(PREFIX + " ")) {
                continue;
            }
            int first = i;
            StringBuilder command = new StringBuilder(line);
            while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
                command.setLength(command.length() - 1);
                command.append(' ').append(lines.get(++i).strip());
            }
            List<String> words = words(command.substring(PREFIX.length()));
            out.add(new Documented(file + ":" + (first + 1), words));
        }
        return out;
    }

    /** Splits as a POSIX shell would for the quoting the docs use: single and double quotes, a trailing comment. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    out.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            out.add(word.toString());
        }
        return out;
    }

    /**
     * A Maven command that builds only some modules ({@code -pl}) finds their siblings in the reactor ({@code -am}) or,
     * failing that, in {@code ~/.m2} only if the same file installed them earlier with {@code -am}: on a machine with
     * nothing of the project installed, anything else fails to resolve a sibling (or, worse, takes a stale one).
     */
    @Test
    void everyDocumentedMavenCommandFindsTheModulesItNeeds() throws IOException {
        List<String> wrong = new ArrayList<>();
        int seen = 0;
        for (Path f : markdownFiles(root())) {
            List<MavenCommand> cmds = mavenCommands(root().relativize(f).toString(), Files.readString(f));
            seen += cmds.size();
            wrong.addAll(withoutTheirModules(cmds));
        }
        assertTrue(seen >= 20, "found only " + seen + " mvn commands");
        assertEquals(List.of(), wrong);
    }

    @Test
    void aModuleCommandWithoutAlsoMakeNeedsAnEarlierInstall() {
        String md = String.join("\n", "Run `mvn -B -pl jmeter-plans jmeter:gui` to see it.", "```bash",
                "mvn -B -q -pl jmeter-plans -am install", "mvn -B -pl jmeter-plans -Pload verify \\", "  -Dclients=1",
                "mvn -B -pl charts test", "mvn -B -pl orchestrator -am test", "$ mvn -B -pl model test", "```",
                "Then `mvn -B install -DskipTests` and `mvn -B -pl charts test`.");
        List<MavenCommand> cmds = mavenCommands("x.md", md);
        assertEquals(8, cmds.size(), cmds.toString());
        assertEquals(List.of("x.md:1: mvn -B -pl jmeter-plans jmeter:gui (builds jmeter-plans alone: add -am, or install it with -am first)",
                "x.md:6: mvn -B -pl charts test (builds charts alone: add -am, or install it with -am first)"), withoutTheirModules(cmds));
    }

    /** One {@code mvn} command of a Markdown file (a code block's line or an inline code span), as a shell reads it. */
    record MavenCommand(String where, List<String> words) {
        List<String> modules() {
            for (int i = 0; i < words.size() - 1; i++) {
                if (words.get(i).equals("-pl") || words.get(i).equals("--projects")) {
                    return List.of(words.get(i + 1).split(","));
                }
            }
            return List.of();
        }

        boolean alsoMake() {
            return words.contains("-am") || words.contains("--also-make");
        }

        boolean installs() {
            return words.contains("install");
        }
    }

    /**
     * The commands that build modules alone (no {@code -am}) that no earlier command of the file installed with
     * {@code -am}, or installed every module (an {@code install} without {@code -pl}); a module with no sibling dependency,
     * {@code model}, needs nothing (its parent is read from the checkout).
     */
    static List<String> withoutTheirModules(List<MavenCommand> cmds) {
        List<String> out = new ArrayList<>();
        java.util.Set<String> installed = new java.util.HashSet<>();
        boolean all = false;
        for (MavenCommand c : cmds) {
            boolean everything = all;
            List<String> alone = c.modules().stream().filter(m -> !m.equals("model") && !everything && !installed.contains(m)).toList();
            if (!c.alsoMake() && !alone.isEmpty()) {
                out.add(c.where() + ": " + String.join(" ", c.words()) + " (builds " + String.join(",", alone)
                        + " alone: add -am, or install it with -am first)");
            }
            if (c.installs() && c.alsoMake()) {
                installed.addAll(c.modules());
            }
            all |= c.installs() && c.modules().isEmpty();
        }
        return out;
    }

    static List<MavenCommand> mavenCommands(String file, String text) {
        List<MavenCommand> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        boolean inBlock = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock) {
                String cmd = line.startsWith("$ ") ? line.substring(2) : line;
                if (cmd.startsWith("mvn ")) {
                    int first = i;
                    StringBuilder full = new StringBuilder(cmd);
                    while (full.toString().endsWith("\\") && i + 1 < lines.length) {
                        full.setLength(full.length() - 1);
                        full.append(' ').append(lines[++i].strip());
                    }
                    add(out, file + ":" + (first + 1), full.toString());
                }
                continue;
            }
            // inline code spans, which may wrap onto the next line of the paragraph
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("`(mvn [^`]*)(`|$)").matcher(line);
            while (m.find()) {
                String span = m.group(1);
                if (m.group(2).isEmpty() && i + 1 < lines.length) {
                    String next = lines[i + 1].strip();
                    span += " " + next.substring(0, Math.max(0, next.indexOf('`')));
                }
                add(out, file + ":" + (i + 1), span);
            }
        }
        return out;
    }

    /** Each command of {@code a && b}, in order. */
    private static void add(List<MavenCommand> out, String where, String line) {
        for (String part : line.split("&&")) {
            List<String> w = words(part);
            if (!w.isEmpty() && w.get(0).equals("mvn")) {
                out.add(new MavenCommand(where, w));
            }
        }
    }

    private static List<Path> markdownFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md") && !root.resolve("docs/measurements").equals(p.getParent())).sorted()
                    .forEach(files::add);
        }
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        return files;
    }

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("docs"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new AssertionError("no docs/ folder above " + Path.of("").toAbsolutePath());
        }
        return p;
    }
}
