package io.capstream.cli;

import io.capstream.cli.config.ConfigDefaultProvider;
import io.capstream.cli.config.ConsoleMask;
import io.capstream.cli.signals.ForcedExit;
import picocli.CommandLine;

/**
 * Entry point of the {@code capstream} command. Builds the picocli command tree
 * ({@link CapstreamCommand}) and exits with the command's exit code.
 */
public final class CapstreamMain {
    /** System property that lists the packages whose generated Avro classes may be deserialized. */
    static final String AVRO_SERIALIZABLE_PACKAGES = "org.apache.avro.SERIALIZABLE_PACKAGES";
    /** The commands whose --help lists their options under section headings ({@code OptionSections}). */
    static final java.util.List<String> OPTION_SECTION_COMMANDS = java.util.List.of("run", "sweep", "generate");

    private CapstreamMain() {
    }

    /**
     * Runs the command line and exits the JVM with its exit code (0 ok, 1 some requests or files
     * failed, 2 usage error).
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        // Avro 1.12 only deserializes generated classes of trusted packages; set it before any Avro class loads.
        if (System.getProperty(AVRO_SERIALIZABLE_PACKAGES) == null) {
            System.setProperty(AVRO_SERIALIZABLE_PACKAGES, "io.capstream");
        }
        ForcedExit.install(); // a second Ctrl-C while the orderly stop runs exits at once
        System.exit(execute(args));
    }

    /**
     * Runs the command line without exiting (used by tests).
     *
     * @param args command-line arguments
     * @return the exit code
     */
    public static int execute(String... args) {
        // stdout and stderr mask the secrets the command was given while it runs (ConsoleMask.add)
        try (ConsoleMask.Installed console = ConsoleMask.install()) {
            return newCommandLine(ConfigDefaultProvider.fromArgs(args, System.getenv())).execute(args);
        }
    }

    /**
     * Builds the command tree.
     *
     * @param defaults where option defaults come from (environment, config file)
     * @return a configured command line
     */
    public static CommandLine newCommandLine(CommandLine.IDefaultValueProvider defaults) {
        CommandLine cmd = new CommandLine(new CapstreamCommand());
        installKafkaHelp(cmd);
        cmd.setDefaultValueProvider(defaults);
        cmd.setParameterExceptionHandler(new io.capstream.cli.config.ShortUsageErrors());
        io.capstream.cli.config.ConfigErrors.install(cmd);
        VersionProvider version = new VersionProvider();
        cmd.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(version));
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setUsageHelpAutoWidth(true);
        for (String name : OPTION_SECTION_COMMANDS) {
            io.capstream.cli.options.OptionSections.install(cmd.getSubcommands().get(name));
        }
        return cmd;
    }

    /**
     * The commands that never embed Kafka: their help says when they need the connection options, and why,
     * instead of the embedded defaults of {@code run} and {@code sweep} (before {@code OptionSections} groups them).
     */
    private static void installKafkaHelp(CommandLine cmd) {
        java.util.function.Function<String, picocli.CommandLine.Model.CommandSpec> spec =
                name -> cmd.getSubcommands().get(name).getCommandSpec();
        io.capstream.cli.options.RequiredKafkaHelp.install(spec.apply("tail"),
                io.capstream.cli.commands.TailCommand.REGISTRY_NEEDED);
        io.capstream.cli.options.RequiredKafkaHelp.install(spec.apply("aggregate"),
                io.capstream.cli.commands.AggregateCommand.REGISTRY_NEEDED);
        io.capstream.cli.options.RequiredKafkaHelp.install(spec.apply("worker"),
                io.capstream.cli.commands.WorkerCommand.REGISTRY_NEEDED);
        io.capstream.cli.options.RequiredKafkaHelp.install(spec.apply("generate"),
                io.capstream.cli.commands.GenerateCommand.KAFKA_NEEDED,
                io.capstream.cli.commands.GenerateCommand.REGISTRY_NEEDED);
        io.capstream.cli.options.RequiredKafkaHelp.installForRunIds(spec.apply("report"));
        io.capstream.cli.options.RequiredKafkaHelp.installForRunIds(spec.apply("compare"));
    }
}
