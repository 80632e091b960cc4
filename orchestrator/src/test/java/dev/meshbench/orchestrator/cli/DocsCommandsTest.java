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
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md") && !root.resolve("docs/measurements").equals(p.getParent())).sorted()
                    .forEach(files::add);
        }
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        List<Documented> out = new ArrayList<>();
        for (Path f : files) {
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
