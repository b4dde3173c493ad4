package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Before: {@code run --help} was some 350 lines of options in one list. Now {@code run}, {@code sweep} and
 * {@code generate} list them under headings, each option exactly once, none left under "Other options".
 */
class OptionSectionsTest {
    private static CommandLine command(String name) {
        return CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new Properties()))
                .getSubcommands().get(name);
    }

    /** @return the headings of the help text, in order (lines ending in ':' that are not indented) */
    private static List<String> headings(String help) {
        List<String> out = new ArrayList<>();
        for (String line : help.split("\n")) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && line.endsWith(":")) {
                out.add(line);
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "sweep", "generate"})
    void optionsAreListedUnderHeadingsEachExactlyOnce(String name) {
        CommandLine cmd = command(name);
        String help = cmd.getUsageMessage(CommandLine.Help.Ansi.OFF);
        List<String> expected = new ArrayList<>(List.of(OptionSections.TARGET, OptionSections.WORKLOAD,
                OptionSections.CONVERSATION, OptionSections.LOAD));
        if (name.equals("sweep")) {
            expected.add(OptionSections.SWEEP);
        }
        expected.add(OptionSections.RUN);
        if (!name.equals("generate")) {
            expected.add(OptionSections.OUTPUT);
        }
        expected.addAll(List.of(OptionSections.KAFKA, OptionSections.SIM, OptionSections.GENERAL, "Exit codes:"));
        assertEquals(expected, headings(help), name + " --help:\n" + help);
        assertThat(help).as("a one-line synopsis:\n" + help).startsWith("Usage: capstream " + name + " [OPTIONS]\n");

        for (OptionSpec o : cmd.getCommandSpec().options()) {
            for (String n : o.names()) {
                // an option line: indented, the name (after "-x, " for the short one), then '=', ' ' or the line end
                Matcher m = Pattern.compile("(?m)^ {2,6}(?:-\\w, )?" + Pattern.quote(n) + "(?:[= \\[]|$)").matcher(help);
                int count = 0;
                while (m.find()) {
                    count++;
                }
                String shortOrLong = n.startsWith("--") ? "" : " (short name, on its long name's line)";
                if (n.startsWith("--")) {
                    assertEquals(1, count, name + " " + n + " should be listed exactly once:\n" + help);
                } else {
                    Matcher s = Pattern.compile("(?m)^ {2}" + Pattern.quote(n) + ", ").matcher(help);
                    int shorts = 0;
                    while (s.find()) {
                        shorts++;
                    }
                    assertEquals(1, shorts, name + " " + n + shortOrLong + " should be listed exactly once:\n" + help);
                }
            }
            if (o.description().length > 0) {
                // the help wraps lines (also after a '.'): compare without whitespace
                String start = o.description()[0].replaceAll("\\s+", "").replace("%%", "%");
                start = start.substring(0, Math.min(40, start.indexOf("${") < 0 ? start.length() : start.indexOf("${")));
                assertThat(help.replaceAll("\\s+", "")).as(name + " " + o.longestName()
                        + "'s description should be kept: " + start).contains(start);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "sweep", "generate"})
    void everyOptionHasASection(String name) {
        List<String> unplaced = OptionSections.sections(command(name).getCommandSpec())
                .getOrDefault(OptionSections.OTHER, List.of()).stream().map(OptionSpec::longestName).toList();
        assertEquals(List.of(), unplaced, name + ": options without a section; add them to OptionSections");
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "sweep", "generate"})
    void everyVisibleOptionIsInOneSection(String name) {
        CommandLine.Model.CommandSpec spec = command(name).getCommandSpec();
        List<OptionSpec> placed = OptionSections.sections(spec).values().stream().flatMap(List::stream).toList();
        List<OptionSpec> visible = spec.options().stream().filter(o -> !o.hidden()).toList();
        assertEquals(visible.size(), placed.size(), name + ": " + placed);
        assertThat(placed).as(name + ": every visible option is placed").containsAll(visible);
    }

    @org.junit.jupiter.api.Test
    void sweepsAxesAreInTheSweepSectionRunsInTheLoadSection() {
        assertThat(OptionSections.sections(command("sweep").getCommandSpec()).get(OptionSections.SWEEP)).as("sweep --concurrency is a list of steps")
                .anyMatch(o -> o.longestName().equals("--concurrency"));
        assertThat(OptionSections.sections(command("run").getCommandSpec()).get(OptionSections.LOAD)).as("run --concurrency is the load")
                .anyMatch(o -> o.longestName().equals("--concurrency"));
    }

    /**
     * Before: the Kafka options, declared on setter methods, were listed in the order the JVM returned the methods,
     * which HotSpot does not fix (CI printed {@code --schema-registry-url} before {@code --bootstrap-servers}, this
     * machine the other way round). Every option declared on a method, where its class declares more than one, now
     * has an explicit {@code order}, and help lists them by it.
     */
    @Test
    void optionsDeclaredOnMethodsHaveAnOrderTheJvmDoesNotDecide() {
        CommandLine root = CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new Properties()));
        List<String> unordered = new ArrayList<>();
        for (CommandLine cmd : root.getSubcommands().values()) {
            for (OptionSpec o : cmd.getCommandSpec().options()) {
                if (o.userObject() instanceof Method m && o.order() == -1 /* picocli: no order given */
                        && optionMethods(m.getDeclaringClass()) > 1) {
                    unordered.add(cmd.getCommandName() + " " + o.longestName());
                }
            }
        }
        assertThat(unordered).as("options on methods without an explicit order").isEmpty();

        String help = command("run").getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help.indexOf("--bootstrap-servers")).as("run --help:\n" + help)
                .isLessThan(help.indexOf("--schema-registry-url="));
        assertThat(help.indexOf("--schema-registry-url=")).as("run --help:\n" + help)
                .isLessThan(help.indexOf("--kafka-property="));
    }

    /**
     * picocli formats a command's description, header and footer with String.format: a bare % (e.g. "95% interval")
     * makes it print a "[picocli WARN] Could not format" line into --help (compare's did). Failed before the fix.
     */
    @Test
    void everyHelpTextIsAValidFormatString() {
        List<String> broken = new ArrayList<>();
        collectUnformattable(CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new Properties())), broken);
        assertThat(broken).as("descriptions picocli cannot format (escape %% as %%%%)").isEmpty();
    }

    private static void collectUnformattable(CommandLine cmd, List<String> broken) {
        CommandLine.Model.CommandSpec spec = cmd.getCommandSpec();
        List<String> texts = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
        texts.addAll(Arrays.asList(spec.usageMessage().header()));
        texts.addAll(Arrays.asList(spec.usageMessage().footer()));
        for (String t : texts) {
            try {
                String.format(java.util.Locale.ROOT, t);
            } catch (java.util.IllegalFormatException e) {
                broken.add(spec.qualifiedName() + ": " + t);
            }
        }
        cmd.getSubcommands().values().forEach(sub -> collectUnformattable(sub, broken));
    }

    private static long optionMethods(Class<?> c) {
        return Arrays.stream(c.getDeclaredMethods()).filter(m -> m.isAnnotationPresent(CommandLine.Option.class)).count();
    }
}
