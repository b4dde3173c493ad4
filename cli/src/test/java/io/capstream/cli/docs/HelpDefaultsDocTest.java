package io.capstream.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * configuration.md names exactly the options whose {@code --help} shows a config file's or an environment variable's
 * value as their default (picocli's {@code ${DEFAULT-VALUE}}); the others print a built-in default in their text.
 */
class HelpDefaultsDocTest {
    private static final Pattern MARK = Pattern.compile("QQ(--[\\w-]+)QQ");
    private static final Pattern COMMAND = Pattern.compile("^- `([\\w-]+)`:");
    /** {@code - the simulated engine's options (in `run`, `sim`): `--sim-model`, ...}: one list for several commands. */
    private static final Pattern SHARED = Pattern.compile("^- the simulated engine's options \\(in ([^)]*)\\):");
    private static final Pattern WORD = Pattern.compile("`([a-z]+)`");
    private static final Pattern OPTION = Pattern.compile("`(--[\\w-]+)`");
    private static final String START = "<!-- help-defaults: HelpDefaultsDocTest -->";
    private static final String END = "<!-- /help-defaults -->";

    @Test
    void theDocListsTheOptionsWhoseHelpShowsTheEffectiveDefault() throws Exception {
        // a provider answering with each option's own marker: its --help shows the marker where it shows the
        // provider's value (what a config file or CAPSTREAM_... sets)
        CommandLine cmd = CapstreamMain.newCommandLine(arg -> arg instanceof CommandLine.Model.OptionSpec o
                ? "QQ" + o.longestName() + "QQ" : null);
        Map<String, Set<String>> shown = new TreeMap<>();
        for (Map.Entry<String, CommandLine> sub : cmd.getSubcommands().entrySet()) {
            Matcher m = MARK.matcher(sub.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", ""));
            while (m.find()) {
                shown.computeIfAbsent(sub.getKey(), k -> new TreeSet<>()).add(m.group(1));
            }
        }
        String doc = Files.readString(MarkdownDocs.repositoryRoot().resolve("docs/configuration.md"));
        assertThat(doc).as("configuration.md's marked list").contains(START).contains(END);
        Map<String, Set<String>> documented = new TreeMap<>();
        for (String line : doc.substring(doc.indexOf(START), doc.indexOf(END)).split("\n")) {
            Matcher shared = SHARED.matcher(line);
            if (shared.find()) {
                Matcher commands = WORD.matcher(shared.group(1));
                while (commands.find()) {
                    Matcher listed = OPTION.matcher(line.substring(shared.end()));
                    Set<String> options = documented.computeIfAbsent(commands.group(1), k -> new TreeSet<>());
                    while (listed.find()) {
                        options.add(listed.group(1));
                    }
                }
            }
            Matcher command = COMMAND.matcher(line);
            if (command.find()) {
                Matcher listed = OPTION.matcher(line);
                Set<String> options = documented.computeIfAbsent(command.group(1), k -> new TreeSet<>());
                while (listed.find()) {
                    options.add(listed.group(1));
                }
            }
        }
        assertThat(documented).as("per command, the options configuration.md says --help shows with a config or env"
                + " value").isEqualTo(shown);
    }
}
