package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ComponentRole;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The project's Markdown pages (the README, {@code docs/}, each module's README) link to each other by relative paths
 * and {@code #anchors}; a page moved or a heading renamed must not leave a link pointing nowhere. The module holding
 * the README tests holds this one too; it reads files only.
 */
class DocsLinksTest {
    /** Tests run in the module's folder. */
    private static final Path ROOT = Path.of("..");

    /** {@code [text](target)} or {@code ![alt](target)}, with an optional title after the target. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    @Test
    @DisplayName("every relative link in the Markdown pages points to an existing file, and every #anchor to a heading of it")
    void relativeLinksResolve() throws IOException {
        List<Path> pages = markdownPages();
        assertTrue(pages.contains(ROOT.resolve("README.md")) && pages.stream().anyMatch(p -> p.startsWith(ROOT.resolve("docs"))),
                "pages found: " + pages);
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            List<String> lines = prose(Files.readAllLines(page));
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(lines.get(i).replaceAll("`[^`]*`", "code"));
                while (m.find()) {
                    String target = m.group(1);
                    if (SCHEME.matcher(target).find()) {
                        continue;
                    }
                    checked++;
                    String where = ROOT.relativize(page) + " line " + (i + 1) + ": " + target;
                    int hash = target.indexOf('#');
                    String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
                    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(where + " (no file " + resolved + ")");
                        continue;
                    }
                    if (hash >= 0 && resolved.toString().endsWith(".md")) {
                        String anchor = target.substring(hash + 1);
                        Set<String> known = anchors.computeIfAbsent(resolved, DocsLinksTest::anchorsOf);
                        if (!known.contains(anchor)) {
                            broken.add(where + " (no heading with anchor #" + anchor + " in " + resolved + ")");
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 50, "relative links checked: " + checked);
        assertEquals(List.of(), broken, "links that point nowhere");
    }

    @Test
    @DisplayName("the README's glossary defines mesh CPU as the report does, from ComponentRole.MESH")
    void glossaryMeshCpu() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md")).replaceAll("\\s+", " ");
        String definition = ComponentRole.MESH.definition();
        assertTrue(readme.contains("**mesh CPU** is the CPU of every mesh proxy, hops or not: " + definition),
                "README.md's glossary names " + definition);
    }

    @Test
    @DisplayName("a heading's anchor is GitHub's: lower case, punctuation dropped, spaces to hyphens, repeats numbered")
    void anchors() {
        assertEquals(Set.of("how-mvn-verify--pcase-id-works", "the-five-cases", "the-five-cases-1", "a-b"),
                anchorsOf(List.of("## How `mvn verify -Pcase-<id>` works", "```", "# not a heading", "```",
                        "## The five cases", "### The five cases", "# [a](x.md) b")));
    }

    /** The README, every page under {@code docs/} and every module's Markdown, build output left out. */
    private static List<Path> markdownPages() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".md"))
                    .filter(f -> {
                        for (Path part : ROOT.relativize(f)) {
                            String name = part.toString();
                            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        }
    }

    private static Set<String> anchorsOf(Path page) {
        try {
            return anchorsOf(Files.readAllLines(page));
        } catch (IOException e) {
            throw new IllegalStateException("reading " + page + " failed: " + e.getMessage(), e);
        }
    }

    /** GitHub's anchors of the headings outside code blocks, a repeated one suffixed -1, -2, ... */
    static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(lines)) {
            Matcher m = HEADING.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String text = m.group(2).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
            String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** The lines with fenced code blocks blanked, so line numbers stay those of the file. */
    private static List<String> prose(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                out.add("");
            } else {
                out.add(fenced ? "" : line);
            }
        }
        return out;
    }
}
