package io.capstream.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.config.ConfigDefaultProvider;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The docs cannot drift from the code: every block marked {@code <!-- checked: DocsExamplesTest NAME -->} in
 * {@code README.md}, {@code docs/*.md} or {@code bench/<name>/README.md} equals what the code prints for NAME
 * (picocli's help of the commands, the index of every command's options, a run's console summary rendered by the
 * real printer from a fixture report), and every relative link in those files points to a file that exists (and to
 * a heading of it, for an {@code #anchor} into Markdown).
 *
 * <p>With {@code -Dcapstream.docs.write=true} the checked blocks are rewritten from the code instead (then review
 * {@code git diff docs/}).
 */
class DocsExamplesTest {
    /** The fixture report: a real {@code ./capstream run} against the built-in sim (60 requests, concurrency 20). */
    static final String RUN_REPORT = "/docs/run-example-report.json";
    /** The columns the help blocks are rendered at (picocli's default off a terminal). */
    static final int HELP_WIDTH = 80;

    private final Path root = MarkdownDocs.repositoryRoot();

    /** What each checked block must hold, by its name; each a fresh rendering by the code. */
    private static Map<String, Supplier<String>> expectedBlocks() {
        Map<String, Supplier<String>> blocks = new LinkedHashMap<>();
        blocks.put("top-level-help", () -> help(null));
        blocks.put("run-help", () -> help("run"));
        blocks.put("run-summary", DocsExamplesTest::runSummary);
        blocks.put("option-index", DocsExamplesTest::optionIndex);
        return blocks;
    }

    /** picocli's usage message of the command (or of {@code capstream} itself), with the built-in defaults. */
    private static String help(String subcommand) {
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(new String[0], Map.of()));
        cmd.setUsageHelpAutoWidth(false);
        cmd.setUsageHelpWidth(HELP_WIDTH);
        CommandLine target = subcommand == null ? cmd : cmd.getSubcommands().get(subcommand);
        return target.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /**
     * Every command with the long names of all its options (aliases after a {@code /}), wrapped at 116 columns: the
     * index that proves configuration.md names every option there is.
     */
    private static String optionIndex() {
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(new String[0], Map.of()));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, CommandLine> sub : new java.util.TreeMap<>(cmd.getSubcommands()).entrySet()) {
            List<String> names = new ArrayList<>();
            for (CommandLine.Model.OptionSpec o : sub.getValue().getCommandSpec().options()) {
                names.add(String.join("/", o.names()));
            }
            names.sort(String.CASE_INSENSITIVE_ORDER);
            StringBuilder line = new StringBuilder(String.format("%-10s", sub.getKey()));
            for (String name : names) {
                if (line.length() + name.length() + 1 > 116) {
                    sb.append(line.toString().stripTrailing()).append('\n');
                    line = new StringBuilder(" ".repeat(10));
                }
                line.append(name).append(' ');
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /**
     * What {@code run} prints at its end for the fixture's run: the summary ({@code SummaryTable}, which
     * {@code capstream report FILE} prints alone) and the line {@code run} adds after it.
     */
    private static String runSummary() {
        Path report = fixture(RUN_REPORT);
        CommandOutput out = CommandOutput.run("report", report.toString());
        assertThat(out.exitCode()).as("capstream report %s; stderr: %s", report, out.err()).isZero();
        String runId;
        try {
            runId = ArtifactJson.read(report).get("run_id").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.out() + "report written to capstream-report-" + runId + ".json\n";
    }

    private static Path fixture(String resource) {
        try {
            return Path.of(DocsExamplesTest.class.getResource(resource).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource " + resource + " missing", e);
        }
    }

    /** Trailing blanks of each line and trailing empty lines do not count (editors strip them). */
    static String normalized(String text) {
        return text.replace("\r\n", "\n").replaceAll("[ \\t]+\\n", "\n").replaceAll("[ \\t]+$", "").stripTrailing();
    }

    @Test
    void checkedBlocksShowWhatTheCodePrints() throws IOException {
        Map<String, Supplier<String>> expected = expectedBlocks();
        boolean write = Boolean.getBoolean("capstream.docs.write");
        List<String> seen = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path file : MarkdownDocs.docFiles(root)) {
            String text = MarkdownDocs.read(file);
            StringBuilder rewritten = new StringBuilder();
            Matcher m = MarkdownDocs.CHECKED.matcher(text);
            while (m.find()) {
                String name = m.group(1);
                seen.add(name);
                Supplier<String> code = expected.get(name);
                if (code == null) {
                    problems.add(root.relativize(file) + ": unknown checked block '" + name + "' (known: "
                            + expected.keySet() + ")");
                    continue;
                }
                String want = normalized(code.get());
                String doc = normalized(m.group(2));
                if (write) {
                    String block = m.group().substring(0, m.start(2) - m.start()) + want + "\n```";
                    m.appendReplacement(rewritten, Matcher.quoteReplacement(block));
                } else if (!want.equals(doc)) {
                    problems.add(root.relativize(file) + ": checked block '" + name + "' differs from what the code"
                            + " prints (rewrite with -Dcapstream.docs.write=true)\n"
                            + MarkdownDocs.firstDifference(want, doc));
                }
            }
            if (write) {
                m.appendTail(rewritten);
                Files.writeString(file, rewritten.toString(), StandardCharsets.UTF_8);
            }
        }
        assertThat(seen).as("checked blocks found in README.md, docs/*.md and bench/*/README.md")
                .containsAll(expected.keySet());
        assertThat(problems).as("checked doc blocks against the code").isEmpty();
    }

    @Test
    void everyRelativeLinkPointsToAnExistingFileAndHeading() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : MarkdownDocs.docFiles(root)) {
            for (Map.Entry<Integer, String> link : MarkdownDocs.relativeLinks(MarkdownDocs.read(file))) {
                checked++;
                String where = root.relativize(file) + ":" + link.getKey() + ": (" + link.getValue() + ")";
                String target = link.getValue();
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(where + " -> no such file " + root.relativize(resolved));
                } else if (hash >= 0 && resolved.toString().endsWith(".md")) {
                    String anchor = target.substring(hash + 1);
                    if (!MarkdownDocs.anchors(MarkdownDocs.read(resolved)).contains(anchor)) {
                        broken.add(where + " -> no heading #" + anchor + " in " + root.relativize(resolved));
                    }
                }
            }
        }
        assertThat(checked).as("relative links found in README.md, docs/*.md and bench/*/README.md").isGreaterThan(20);
        assertThat(broken).as("relative links that point nowhere").isEmpty();
    }
}
