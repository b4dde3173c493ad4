package io.capstream.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --html}/{@code --csv}: checked before anything runs, without creating anything. */
class VisualOutputOptionsTest {
    @TempDir
    Path tmp;

    private static VisualOutputOptions parse(String... args) {
        VisualOutputOptions o = new VisualOutputOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    @Test
    void missingParentsAreFineAndTheCheckLeavesNothingBehind() throws Exception {
        VisualOutputOptions o = parse("--html", tmp.resolve("a/b/page.html").toString(), "--csv",
                tmp.resolve("rows.csv").toString());
        assertEquals(List.of(), o.problems());
        assertFalse(Files.exists(tmp.resolve("a")), "the directories are created only when the files are written");
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void aFileInTheWayOfTheParentASymlinkAndTheSameFileTwiceAreRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        Path link = Files.createSymbolicLink(tmp.resolve("l.html"), file);
        VisualOutputOptions o = parse("--html", file.resolve("p.html").toString(), "--csv", link.toString());
        assertEquals(List.of("--html: cannot create " + file + " (" + file + " is not a directory)",
                "--csv: " + link + " is a symlink"), o.problems());
        Path same = tmp.resolve("same");
        assertEquals(List.of("--html and --csv name the same file " + same),
                parse("--html", same.toString(), "--csv", tmp.resolve("x/../same").toString()).problems());
        assertEquals(List.of("--csv: " + same + " is the report file itself"),
                parse("--csv", same.toString()).problems(null, new VisualOutputOptions.Taken(null, "ignored"),
                        new VisualOutputOptions.Taken(same, "the report file itself")));
    }

    @Test
    void noOptionsNoProblems() {
        VisualOutputOptions o = parse();
        assertFalse(o.any());
        assertEquals(List.of(), o.problems());
        assertNull(VisualOutputOptions.fileProblem("--json", null, "report.json"));
    }
}
