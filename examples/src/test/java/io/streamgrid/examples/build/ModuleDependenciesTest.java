package io.streamgrid.examples.build;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module picture in docs/ARCHITECTURE.md is the build's: for every jar module of the parent pom,
 * the line "module ──► a, b" names exactly the StreamGrid modules its pom depends on at compile or
 * run time (test scope and build-order {@code pom} dependencies left out), and the picture has no
 * line for a module the build does not have. (In the examples module because it is built after
 * every module it reads but perf.)
 */
class ModuleDependenciesTest {
    private static final Path ROOT = Path.of(System.getProperty("streamgrid.root", ".."));
    private static final String ARROW = "──►";
    private static final String NONE = "(none of ours)";

    @Test
    void when_theBuildIsRead_then_theArchitecturePictureNamesTheSameModuleDependencies() throws Exception {
        final Map<String, Set<String>> build = new LinkedHashMap<>();
        for (final String module : children(document(ROOT.resolve("pom.xml")).getDocumentElement(), "modules", "module")) {
            final Document pom = document(ROOT.resolve(module).resolve("pom.xml"));
            if ("pom".equals(text(pom.getDocumentElement(), "packaging"))) {
                continue; // build-only modules: a child JVM's jars, no code of ours
            }
            build.put(module, ourDependencies(pom));
        }

        final Map<String, Set<String>> picture = picture(Files.readString(ROOT.resolve("docs/ARCHITECTURE.md")));

        assertThat(build).as("modules read from the poms").containsKeys("grid-node", "jet-jobs", "examples", "perf");
        assertThat(picture).as("docs/ARCHITECTURE.md's module picture against the poms").isEqualTo(build);
    }

    /** The StreamGrid modules {@code pom} depends on at compile or run time. */
    private static Set<String> ourDependencies(final Document pom) {
        final Set<String> modules = new TreeSet<>();
        final Element dependencies = child(pom.getDocumentElement(), "dependencies");
        if (dependencies == null) {
            return modules;
        }
        for (final Element dependency : elements(dependencies, "dependency")) {
            final String artifact = text(dependency, "artifactId");
            final String scope = text(dependency, "scope");
            final String type = text(dependency, "type");
            if (artifact.startsWith("streamgrid-") && (scope.isEmpty() || scope.equals("compile") || scope.equals("runtime"))
                    && (type.isEmpty() || type.equals("jar"))) {
                modules.add(artifact.substring("streamgrid-".length()));
            }
        }
        return modules;
    }

    /** Module → its dependencies, from the block between the module-dependencies markers. */
    private static Map<String, Set<String>> picture(final String architecture) {
        final int begin = architecture.indexOf("<!-- module-dependencies: begin -->");
        final int end = architecture.indexOf("<!-- module-dependencies: end -->");
        assertThat(begin).as("the picture's begin marker").isNotNegative();
        assertThat(end).as("the picture's end marker").isGreaterThan(begin);
        final Map<String, Set<String>> picture = new LinkedHashMap<>();
        for (final String line : architecture.substring(begin, end).lines().filter(l -> l.contains(ARROW)).toList()) {
            final String module = line.substring(0, line.indexOf(ARROW)).strip();
            final String after = line.substring(line.indexOf(ARROW) + ARROW.length()).strip();
            picture.put(module, after.equals(NONE) ? new TreeSet<>()
                    : Arrays.stream(after.split(",")).map(String::strip).collect(Collectors.toCollection(TreeSet::new)));
        }
        return picture;
    }

    private static Document document(final Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    }

    private static List<String> children(final Element parent, final String container, final String name) {
        return elements(child(parent, container), name).stream().map(Node::getTextContent).map(String::strip).toList();
    }

    private static Element child(final Element parent, final String name) {
        final List<Element> found = elements(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The direct children of {@code parent} called {@code name}. */
    private static List<Element> elements(final Element parent, final String name) {
        final NodeList nodes = parent.getChildNodes();
        final java.util.ArrayList<Element> found = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(final Element parent, final String name) {
        final Element element = child(parent, name);
        return element == null ? "" : element.getTextContent().strip();
    }
}
