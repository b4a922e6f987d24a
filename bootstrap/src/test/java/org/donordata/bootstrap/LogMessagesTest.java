package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every message the service logs with parameters shows them: System.Logger formats such a message with MessageFormat,
 * where a single quote begins quoted text, so "donor's … {0}" prints a literal "{0}" and loses the apostrophe. Found in
 * the log of a start that stored donors' JSON for the first time.
 */
class LogMessagesTest {

    private static final Path ROOT = Path.of("..");
    /** A log call's message: adjacent string literals joined by +, followed by at least one parameter. */
    private static final Pattern CALL = Pattern.compile(
            "\\.log\\(\\s*(?:System\\.Logger\\.)?Level\\.\\w+,\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*\\+?\\s*)+),");
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)}");
    /** A single quote not written twice: MessageFormat drops it and quotes what follows. */
    private static final Pattern LONE_QUOTE = Pattern.compile("(?<!')'(?!')");

    @Test
    void everyParameterOfALoggedMessageIsShown() throws IOException {
        List<String> wrong = new ArrayList<>();
        int messages = 0;
        for (Path source : mainSources()) {
            Matcher call = CALL.matcher(Files.readString(source));
            while (call.find()) {
                StringBuilder message = new StringBuilder();
                Matcher literal = LITERAL.matcher(call.group(1));
                while (literal.find()) {
                    message.append(literal.group(1));
                }
                long written = PLACEHOLDER.matcher(message).results().map(found -> found.group(1)).distinct().count();
                if (written == 0) {
                    continue;
                }
                messages++;
                if (LONE_QUOTE.matcher(message).find()
                        || new MessageFormat(message.toString()).getFormatsByArgumentIndex().length != written) {
                    wrong.add(ROOT.relativize(source) + ": " + message);
                }
            }
        }
        assertTrue(messages > 2, "found " + messages + " logged messages with parameters: is the pattern still right?");
        assertEquals(List.of(), wrong, "a single quote in these hides their parameters (write it twice)");
    }

    private static List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path main : modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(path -> path.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        return sources;
    }
}
