package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import net.sourceforge.plantuml.FileFormat;
import net.sourceforge.plantuml.FileFormatOption;
import net.sourceforge.plantuml.SourceStringReader;
import org.junit.jupiter.api.Test;

/** The picture docs/architecture.md shows is the rule ArchitectureTest checks, as it is now. */
class ArchitectureDiagramTest {

    private static final Path PICTURE = Path.of("..", "docs", "architecture.svg");

    @Test
    void thePictureIsRenderedFromTheRuleAsItIs() throws Exception {
        System.setProperty("java.awt.headless", "true");
        ByteArrayOutputStream rendered = new ByteArrayOutputStream();
        new SourceStringReader(Files.readString(ArchitectureRules.DIAGRAM))
                .outputImage(rendered, new FileFormatOption(FileFormat.SVG));

        assertEquals(rendered.toString(StandardCharsets.UTF_8), Files.readString(PICTURE),
                "docs/architecture.svg no longer shows docs/architecture.puml: run bin/render-architecture");
    }
}
