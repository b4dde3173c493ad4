package io.capstream.cli.options;

import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code --help} of the commands with many options ({@code run}, {@code sweep}, {@code generate}): their options
 * under headings (target, workload, load, sweep, run id and SLOs, output, Kafka, simulated engine, general) instead of
 * one list of some 90 options, and a one-line synopsis ({@code capstream run [OPTIONS]}). Only the help text changes:
 * the options, their names, descriptions and parsing are the command's own (this is a picocli option-list section
 * renderer, not argument groups, so that every option parses as before).
 *
 * <p>An option's section is found by its name ({@link #SECTION_BY_NAME}), else by the options class that declares it
 * (Kafka, sim, visual output), else by its {@code --sim-} prefix; an option in none of them is listed under
 * {@link #OTHER} so that it is never hidden. Stateless.
 */
public final class OptionSections {
    /** Heading of the endpoint options. */
    public static final String TARGET = "Target (the endpoint and how each request is sent):";
    /** Heading of the options that shape the requests. */
    public static final String WORKLOAD = "Workload (how many requests, what they hold):";
    /** Heading of the conversation and tool options (issue 29). */
    public static final String CONVERSATION = "Conversations and tools (multi-turn sessions, agent loops):";
    /** Heading of the load-level options. */
    public static final String LOAD = "Load (how many at once, when they start):";
    /** Heading of {@code sweep}'s step and search options. */
    public static final String SWEEP = "Sweep (the steps, or the SLO search):";
    /** Heading of the run-id, SLO and stop-rule options. */
    public static final String RUN = "Run id, SLOs and stop rules:";
    /** Heading of the report and file options. */
    public static final String OUTPUT = "Output (report, pages, CSV):";
    /** Heading of the Kafka, registry and aggregator options. */
    public static final String KAFKA = "Kafka, schema registry and the report aggregator:";
    /** Heading of the built-in engine's options. */
    public static final String SIM = "Built-in simulated engine (the target when there is no --base-url):";
    /** Heading of help, version and config file. */
    public static final String GENERAL = "General:";
    /** Heading of any option no section names: never expected for the commands this is installed on. */
    public static final String OTHER = "Other options:";

    /** The sections in the order they are printed. */
    public static final List<String> ORDER = List.of(TARGET, WORKLOAD, CONVERSATION, LOAD, SWEEP, RUN, OUTPUT, KAFKA, SIM, GENERAL,
            OTHER);

    /** The section of an option, by its longest name. */
    static final Map<String, String> SECTION_BY_NAME = byName();

    /** {@code sweep}'s options whose names {@code run} also has with another meaning (lists of steps there). */
    private static final Set<String> SWEEP_AXES = Set.of("--concurrency", "--rate");

    private OptionSections() {
    }

    private static Map<String, String> byName() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : List.of("--base-url", "--model", "--engine", "--gpu", "--endpoint", "--api-key-env", "--header",
                "--extra-body", "--timeout", "--keep-alive", "--http-client", "--no-trace-headers", "--thinking-mode", "--no-thinking",
                "--reasoning-effort", "--server-metrics")) {
            m.put(n, TARGET);
        }
        for (String n : List.of("--requests", "--trace", "--burst", "--dataset", "--tokenizer", "--ctx-tokens",
                "--shared-prefix-tokens", "--input-tokens", "--output-tokens", "--max-tokens", "--max-model-len",
                "--margin", "--seed", "--prompt-salt", "--images", "--image-size", "--image-format", "--batch")) {
            m.put(n, WORKLOAD);
        }
        for (String n : List.of("--turns", "--think-time", "--session-header", "--tools", "--tool-choice",
                "--tool-result-tokens", "--tool-latency", "--responses-state")) {
            m.put(n, CONVERSATION);
        }
        for (String n : List.of("--concurrency", "--rate", "--arrival", "--burstiness", "--rate-schedule",
                "--steady-state", "--max-in-flight", "--duration", "--ramp-up",
                "--warmup-requests", "--warmup-prime-cache", "--client-warmup", "--workers", "--continuous", "--interval")) {
            m.put(n, LOAD);
        }
        for (String n : List.of("--cancel-rate", "--cancel-after")) {
            m.put(n, LOAD);
        }
        for (String n : List.of("--search", "--search-start", "--search-max", "--max-steps", "--repeat", "--sweep-id")) {
            m.put(n, SWEEP);
        }
        for (String n : List.of("--run-id", "--run-id-suffix", "--slo", "--max-error-rate", "--max-consecutive-errors",
                "--stop-on-saturation")) {
            m.put(n, RUN);
        }
        for (String n : List.of("--output", "--output-dir", "--html", "--csv", "--report-timeout")) {
            m.put(n, OUTPUT);
        }
        for (String n : List.of("--no-aggregator", "--aggregator-group", "--event-delivery", "--kafka-wait")) {
            m.put(n, KAFKA);
        }
        for (String n : List.of("--help", "--version", "--config")) {
            m.put(n, GENERAL);
        }
        return Map.copyOf(m);
    }

    /**
     * Makes the command's usage help print its options under the section headings, and its synopsis one line.
     *
     * @param cmd a command line; not null
     */
    public static void install(CommandLine cmd) {
        CommandSpec spec = cmd.getCommandSpec();
        spec.usageMessage().abbreviateSynopsis(true);
        spec.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING,
                help -> "");
        spec.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                OptionSections::render);
    }

    /**
     * @param spec a command; not null
     * @return its visible options by section, sections in {@link #ORDER} (empty ones left out), options in the
     *     command's declaration order within each, except that options with an explicit {@code order} (the
     *     {@link KafkaOptions} ones, declared on methods, whose reflection order the JVM does not fix) follow the
     *     others in that order
     */
    public static Map<String, List<OptionSpec>> sections(CommandSpec spec) {
        Map<String, List<OptionSpec>> by = new LinkedHashMap<>();
        ORDER.forEach(s -> by.put(s, new ArrayList<>()));
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                by.get(sectionOf(o)).add(o);
            }
        }
        by.values().removeIf(List::isEmpty);
        by.values().forEach(list -> list.sort(Comparator.comparingInt(OptionSpec::order)));
        return by;
    }

    /** @return the section heading of one option */
    static String sectionOf(OptionSpec o) {
        String name = o.longestName();
        Class<?> declaring = declaringClass(o);
        if (declaring != null && declaring.getSimpleName().equals("SweepCommand") && SWEEP_AXES.contains(name)) {
            return SWEEP;
        }
        String byName = SECTION_BY_NAME.get(name);
        if (byName != null) {
            return byName;
        }
        if (declaring == KafkaOptions.class || declaring == AggregatorGroupOption.class) {
            return KAFKA;
        }
        if (declaring == SimOptions.class || name.startsWith("--sim-")) {
            return SIM;
        }
        if (declaring == TlsOptions.class) {
            return TARGET;
        }
        if (declaring == VisualOutputOptions.class) {
            return OUTPUT;
        }
        return OTHER;
    }

    private static Class<?> declaringClass(OptionSpec o) {
        return o.userObject() instanceof Member m ? m.getDeclaringClass() : null;
    }

    private static String render(Help help) {
        StringBuilder sb = new StringBuilder();
        Help.IParamLabelRenderer labels = help.parameterLabelRenderer();
        for (Map.Entry<String, List<OptionSpec>> e : sections(help.commandSpec()).entrySet()) {
            sb.append(help.createHeading("%n" + e.getKey() + "%n"));
            sb.append(help.optionListExcludingGroups(e.getValue(), help.createDefaultLayout(), null, labels));
        }
        return sb.toString();
    }
}
