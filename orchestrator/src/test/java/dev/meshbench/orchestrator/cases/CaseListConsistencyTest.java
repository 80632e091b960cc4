package dev.meshbench.orchestrator.cases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.meshbench.model.EgressCase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * One list of cases. {@link EgressCase} (module model) is the list; the files that cannot read Java necessarily spell
 * the ids, and this test reads each of them from the checkout and fails, naming the file and the missing or extra
 * ids, when one disagrees:
 * <ul>
 *   <li>the root {@code pom.xml}: one profile {@code case-<id>} per case, adding the module {@code runs/<id>};</li>
 *   <li>{@code runs/}: one module per case, running that case ({@code meshbench.case}); {@code runs/all} runs
 *       {@code all}, which the orchestrator expands to {@link EgressCase#values()};</li>
 *   <li>{@code istio-config/cases/}: one kustomize overlay per case ({@link EgressCase#istioConfigDir()});</li>
 *   <li>{@code .ci/run}: keeps no list of its own; it takes the ids from the root pom's case profiles with
 *       {@code sed}, and this test applies that very expression to the pom;</li>
 *   <li>{@code Jenkinsfile}: keeps no list of its own; it runs {@code -Pall-cases}.</li>
 * </ul>
 * Neither script may grow a literal list (a line naming two or more case ids).
 */
class CaseListConsistencyTest {
    private static final Path ROOT = checkoutRoot();
    private static final List<String> IDS = Arrays.stream(EgressCase.values()).map(EgressCase::id).toList();
    /** A case profile as a script names it: {@code case-sni}, {@code -Pcase-sni}, {@code -Pstudy,case-sni}. */
    private static final Pattern CASE_PROFILE = Pattern.compile("(?:(?<![\\w-])|(?<=-P))case-([a-z]+)\\b");

    @Test
    @DisplayName("the root pom has one profile case-<id> per case, each adding the module runs/<id>")
    void rootPomProfiles() throws Exception {
        Element project = parse(ROOT.resolve("pom.xml"));
        Map<String, List<String>> modulesOfCaseProfile = new LinkedHashMap<>();
        for (Element profile : children(child(project, "profiles").orElseThrow(), "profile")) {
            String id = text(profile, "id");
            if (id.startsWith("case-")) {
                List<String> modules = child(profile, "modules").map(m -> children(m, "module").stream()
                        .map(e -> e.getTextContent().trim()).toList()).orElse(List.of());
                modulesOfCaseProfile.put(id.substring("case-".length()), modules);
            }
        }
        assertSameIds("pom.xml (profiles case-<id>)", modulesOfCaseProfile.keySet());
        modulesOfCaseProfile.forEach((id, modules) -> assertEquals(List.of("runs/" + id), modules,
                "pom.xml: profile case-" + id + " must add exactly the module runs/" + id));
    }

    @Test
    @DisplayName("runs/ has one module per case, each named for and running its own case; runs/all runs them all")
    void runsModules() throws Exception {
        Set<String> caseModules = new LinkedHashSet<>();
        try (Stream<Path> dirs = Files.list(ROOT.resolve("runs"))) {
            for (Path dir : dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))).sorted().toList()) {
                Element project = parse(dir.resolve("pom.xml"));
                Optional<String> runs = child(project, "properties").flatMap(p -> child(p, "meshbench.case"))
                        .map(e -> e.getTextContent().trim());
                String name = dir.getFileName().toString();
                if (runs.isEmpty()) {
                    continue; // not a case module (runs/latency: the latency study)
                }
                if (name.equals("all")) {
                    assertEquals("all", runs.get(), "runs/all/pom.xml: meshbench.case must be all (every EgressCase)");
                    continue;
                }
                assertEquals(name, runs.get(), "runs/" + name + "/pom.xml: meshbench.case must be the folder's name");
                assertEquals("run-" + name, text(project, "artifactId"), "runs/" + name + "/pom.xml: artifactId");
                caseModules.add(name);
            }
        }
        assertSameIds("runs/ (folders whose pom.xml sets meshbench.case)", caseModules);
    }

    @Test
    @DisplayName("istio-config/cases/ has one kustomize overlay per case")
    void istioOverlays() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("istio-config/cases"))) {
            assertSameIds("istio-config/cases/ (overlay folders)",
                    dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList());
        }
        for (EgressCase c : EgressCase.values()) {
            assertTrue(Files.isRegularFile(ROOT.resolve("istio-config").resolve(c.istioConfigDir()).resolve("kustomization.yaml")),
                    "istio-config/" + c.istioConfigDir() + "/kustomization.yaml missing");
        }
    }

    @Test
    @DisplayName(".ci/run takes its case list from the root pom's case profiles and names no case the kit lacks")
    void ciRun() throws IOException {
        String script = Files.readString(ROOT.resolve(".ci/run"));
        // cases=$(sed -n 's/<basic regular expression>/\1/p' pom.xml ...), looped over as `for c in $cases`.
        Matcher derivation = Pattern.compile("(?m)^cases=\\$\\(sed -n 's/(.+)/\\\\1/p' pom\\.xml").matcher(script);
        if (!derivation.find()) {
            fail(".ci/run: no line `cases=$(sed -n 's/...<id>case-...<\\/id>.../\\1/p' pom.xml ...)`: the smoke's case "
                    + "list must come from the root pom's case profiles, not be spelled in the script");
        }
        assertTrue(script.contains(" in $cases"), ".ci/run: the smoke checks no longer loop over $cases");
        Pattern sed = Pattern.compile(derivation.group(1).replace("\\(", "(").replace("\\)", ")").replace("\\/", "/"));
        List<String> fromPom = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("pom.xml"))) {
            Matcher m = sed.matcher(line);
            if (m.find()) {
                fromPom.add(m.group(1));
            }
        }
        assertSameIds(".ci/run (its sed over pom.xml: " + derivation.group(1) + ")", fromPom);
        assertNoExtraIds(".ci/run (case-<id> profiles it names)", profilesNamed(script));
        assertNoLiteralList(".ci/run", script);
    }

    @Test
    @DisplayName("the Jenkinsfile runs every case through -Pall-cases and names no case the kit lacks")
    void jenkinsfile() throws IOException {
        String pipeline = Files.readString(ROOT.resolve("Jenkinsfile"));
        assertTrue(pipeline.contains("-Pall-cases"), "Jenkinsfile: runs no longer -Pall-cases: if it lists the cases "
                + "itself, make this test parse that list");
        assertNoExtraIds("Jenkinsfile (case-<id> profiles it names)", profilesNamed(pipeline));
        assertNoLiteralList("Jenkinsfile", pipeline);
    }

    /** Fails naming {@code file} and the ids it lacks or has beyond {@link EgressCase}. */
    private static void assertSameIds(String file, Collection<String> found) {
        Set<String> missing = new TreeSet<>(IDS);
        missing.removeAll(found);
        Set<String> extra = new TreeSet<>(found);
        extra.removeAll(IDS);
        if (!missing.isEmpty() || !extra.isEmpty() || found.size() != Set.copyOf(found).size()) {
            fail(file + " disagrees with EgressCase (" + String.join(", ", IDS) + "): missing " + list(missing)
                    + ", extra " + list(extra) + "; found " + found);
        }
    }

    private static void assertNoExtraIds(String file, Collection<String> found) {
        Set<String> extra = new TreeSet<>(found);
        extra.removeAll(IDS);
        if (!extra.isEmpty()) {
            fail(file + " names cases EgressCase (" + String.join(", ", IDS) + ") lacks: " + list(extra));
        }
    }

    /** A line naming two or more case ids as words is a hand-kept list of cases. */
    private static void assertNoLiteralList(String file, String text) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Set<String> named = new TreeSet<>();
            for (String id : IDS) {
                if (Pattern.compile("(?<![\\w-])" + id + "(?![\\w-])").matcher(lines[i]).find()) {
                    named.add(id);
                }
            }
            if (named.size() >= 2) {
                fail(file + " line " + (i + 1) + " spells a list of cases (" + String.join(", ", named)
                        + "); take it from the root pom or -Pall-cases instead: " + lines[i].trim());
            }
        }
    }

    private static Set<String> profilesNamed(String text) {
        Set<String> ids = new TreeSet<>();
        Matcher m = CASE_PROFILE.matcher(text);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private static String list(Set<String> ids) {
        return ids.isEmpty() ? "none" : String.join(", ", ids);
    }

    private static Path checkoutRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("Jenkinsfile")) && Files.isDirectory(dir.resolve(".ci"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no checkout root (a folder with Jenkinsfile and .ci/) above "
                + Path.of("").toAbsolutePath());
    }

    private static Element parse(Path pom) throws ParserConfigurationException, SAXException, IOException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Optional<Element> child(Element parent, String name) {
        return children(parent, name).stream().findFirst();
    }

    private static String text(Element parent, String name) {
        return child(parent, name).map(e -> e.getTextContent().trim())
                .orElseThrow(() -> new AssertionError("<" + parent.getTagName() + "> has no <" + name + ">"));
    }
}
