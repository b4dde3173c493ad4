package io.capstream.cli.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's Markdown docs as the docs tests see them: where the repository is, which files are docs, the
 * blocks marked as checked, the relative links, and the anchors GitHub gives to headings. Test-side only.
 */
final class MarkdownDocs {
    /** The marker a checked block follows: {@code <!-- checked: DocsExamplesTest NAME -->}, then a fenced block. */
    static final Pattern CHECKED = Pattern.compile(
            "<!-- checked: DocsExamplesTest (\\S+) -->\\n```[a-z]*\\n(.*?)\\n?```", Pattern.DOTALL);
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

    private MarkdownDocs() {}

    /**
     * The repository root: the parent of {@code capstream.testdata.dir} (set by the parent pom's Surefire
     * configuration), else the first directory upwards from the working directory that holds {@code docs/}.
     *
     * @return the repository root, never null
     * @throws IllegalStateException when neither finds it
     */
    static Path repositoryRoot() {
        String testdata = System.getProperty("capstream.testdata.dir");
        if (testdata != null && Files.isDirectory(Path.of(testdata).getParent().resolve("docs"))) {
            return Path.of(testdata).getParent();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("docs")) && Files.isRegularFile(p.resolve("README.md"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root with docs/ above " + Path.of("").toAbsolutePath());
    }

    /**
     * The docs: {@code README.md}, every {@code docs/*.md} and every {@code bench/<name>/README.md}, in a stable order.
     *
     * @param root the repository root
     * @return the files, README first
     */
    static List<Path> docFiles(Path root) {
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (Stream<Path> benches = Files.list(root.resolve("bench"))) {
            benches.map(b -> b.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /**
     * Reads a file as UTF-8.
     *
     * @param file the file
     * @return its text
     */
    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text outside fenced code blocks, line by line (a line inside a block becomes empty), so that a {@code #}
     * comment in a shell block is no heading and a link-like text in code is no link.
     *
     * @param markdown the file's text
     * @return its lines, code blocks blanked
     */
    static List<String> proseLines(String markdown) {
        List<String> lines = new ArrayList<>();
        boolean fence = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("```")) {
                fence = !fence;
                lines.add("");
            } else {
                lines.add(fence ? "" : line);
            }
        }
        return lines;
    }

    /**
     * The relative link targets of a file (not {@code http:}, {@code https:} or {@code mailto:}), outside code
     * blocks and inline code, each with its line number.
     *
     * @param markdown the file's text
     * @return (line number, target) pairs, in order
     */
    static List<Map.Entry<Integer, String>> relativeLinks(String markdown) {
        List<Map.Entry<Integer, String>> links = new ArrayList<>();
        List<String> lines = proseLines(markdown);
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINK.matcher(INLINE_CODE.matcher(lines.get(i)).replaceAll(""));
            while (m.find()) {
                String target = m.group(1);
                if (!target.matches("(?i)(https?|mailto):.*")) {
                    links.add(Map.entry(i + 1, target));
                }
            }
        }
        return links;
    }

    /**
     * The anchors GitHub gives to the headings of a file: lower case, punctuation but {@code -} and {@code _} dropped,
     * spaces as {@code -}, a repeated anchor suffixed {@code -1}, {@code -2}, ...
     *
     * @param markdown the file's text
     * @return the anchors, in order
     */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(markdown)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = m.group(1).trim().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /**
     * A diff-like view of two texts: the first differing line with a few lines of context from both.
     *
     * @param expected what the code prints
     * @param actual   what the doc shows
     * @return a readable description of the first difference
     */
    static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        int i = 0;
        while (i < e.length && i < a.length && e[i].equals(a[i])) {
            i++;
        }
        StringBuilder sb = new StringBuilder("first difference at line " + (i + 1) + " of the block:\n");
        for (int k = Math.max(0, i - 2); k < Math.min(Math.max(e.length, a.length), i + 3); k++) {
            if (k < e.length && k < a.length && e[k].equals(a[k])) {
                sb.append("    ").append(e[k]).append('\n');
            } else {
                sb.append("  - doc:  ").append(k < a.length ? a[k] : "<end>").append('\n');
                sb.append("  + code: ").append(k < e.length ? e[k] : "<end>").append('\n');
            }
        }
        return sb.toString();
    }
}
