package io.capstream.cli.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main class over {@value #MAX_LINES} lines (docs/architecture.md, "Small classes"): every
 * {@code *}{@code /src/main/java/**}{@code /*.java} below the repository root, counted as {@code wc -l}
 * does (newline characters). The repository root is the parent of the {@code capstream.testdata.dir}
 * system property that the build sets.
 */
class MainClassSizeTest {
    static final int MAX_LINES = 400;

    @Test
    void noMainClassIsOver400Lines() throws IOException {
        Path root = repositoryRoot();
        Map<String, Long> tooLong = new TreeMap<>();
        List<Path> modules;
        try (Stream<Path> s = Files.list(root)) {
            modules = s.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList();
        }
        assertThat(modules).as("modules with src/main/java under %s", root).hasSizeGreaterThanOrEqualTo(4);
        for (Path module : modules) {
            try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                    long lines = lines(f);
                    String name = root.relativize(f).toString().replace('\\', '/');
                    if (lines > MAX_LINES) {
                        tooLong.put(name, lines);
                    }
                });
            }
        }
        assertThat(tooLong).as("main classes over %d lines (path -> lines); split them by concern", MAX_LINES).isEmpty();
    }

    @Test
    void countsLinesAsWcDoes() throws IOException {
        Path f = Files.createTempFile("lines", ".java");
        try {
            Files.writeString(f, "a\nb\n\nc");
            assertThat(lines(f)).as("newlines in 'a\\nb\\n\\nc'").isEqualTo(3);
        } finally {
            Files.delete(f);
        }
    }

    private static Path repositoryRoot() {
        String testdata = System.getProperty("capstream.testdata.dir");
        assertThat(testdata).as("system property capstream.testdata.dir (set by the build)").isNotNull();
        return Path.of(testdata).toAbsolutePath().normalize().getParent();
    }

    private static long lines(Path f) {
        try {
            byte[] bytes = Files.readAllBytes(f);
            long n = 0;
            for (byte b : bytes) {
                if (b == '\n') {
                    n++;
                }
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
