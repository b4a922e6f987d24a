package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every test that README.md and docs/ name as holding a promise exists: its class is a test source of some module,
 * and a method named after it (with a dot or {@code #}) is declared there or in a contract it runs. A promise whose
 * test was renamed or never written fails here instead of standing in the documents unheld.
 */
class DocumentedTestsExistTest {

    private static final Path ROOT = Path.of("..");
    /** A test class in backticks, optionally with a method: {@code FooTest}, {@code FooTest.bar}, {@code FooIT#bar…}. */
    private static final Pattern CITATION = Pattern.compile(
            "(?<![>\\w])([A-Z][a-z][A-Za-z0-9]*(?:Test|IT|Contract))\\b(?:[.#](?!java\\b)([a-z][A-Za-z0-9_]*)(…)?)?");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void everyTestTheDocumentsNameExists() throws IOException {
        Map<String, String> sources = testSources();
        List<String> missing = new ArrayList<>();
        int cited = 0;
        for (Path document : documents()) {
            List<String> lines = Files.readAllLines(document);
            for (int line = 0; line < lines.size(); line++) {
                Matcher code = CODE.matcher(lines.get(line));
                while (code.find()) {
                    Matcher citation = CITATION.matcher(code.group(1));
                    while (citation.find()) {
                        cited++;
                        String where = ROOT.relativize(document) + ":" + (line + 1) + " ";
                        String source = sources.get(citation.group(1));
                        if (source == null) {
                            missing.add(where + citation.group(1) + " is no test class");
                        } else if (citation.group(2) != null && !declares(sources, source, citation.group(2),
                                citation.group(3) != null)) {
                            missing.add(where + citation.group(1) + "." + citation.group(2) + " is no method of it");
                        }
                    }
                }
            }
        }
        assertTrue(cited > 50, "the documents cite " + cited + " tests: is the pattern still right?");
        assertEquals(List.of(), missing);
    }

    /** A test method is declared in the class or in a class of the test sources it names (a contract it extends). */
    private static boolean declares(Map<String, String> sources, String source, String method, boolean prefix) {
        Pattern declaration = Pattern.compile("[\\w>\\]]\\s+" + Pattern.quote(method) + (prefix ? "\\w*" : "") + "\\(");
        if (declaration.matcher(source).find()) {
            return true;
        }
        Matcher extended = Pattern.compile("extends ([A-Z]\\w*)").matcher(source);
        while (extended.find()) {
            String parent = sources.get(extended.group(1));
            if (parent != null && parent != source && declaration.matcher(parent).find()) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    /** Every module's test sources, by class name (nested classes by their own name too). */
    private static Map<String, String> testSources() throws IOException {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path tests : modules.map(module -> module.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(tests)) {
                    files.filter(path -> path.toString().endsWith(".java")).forEach(path -> {
                        try {
                            String text = Files.readString(path);
                            sources.put(path.getFileName().toString().replace(".java", ""), text);
                            Matcher nested = Pattern.compile("\\n\\s+(?:static )?(?:abstract )?class (\\w+)").matcher(text);
                            while (nested.find()) {
                                sources.putIfAbsent(nested.group(1), text);
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
            }
        }
        return sources;
    }
}
