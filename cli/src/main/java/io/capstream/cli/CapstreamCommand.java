package io.capstream.cli;

import io.capstream.cli.commands.AggregateCommand;
import io.capstream.cli.commands.CompareCommand;
import io.capstream.cli.commands.GenerateCommand;
import io.capstream.cli.commands.ImportCommand;
import io.capstream.cli.commands.ReplayCommand;
import io.capstream.cli.commands.RerunCommand;
import io.capstream.cli.commands.ReportCommand;
import io.capstream.cli.commands.RunCommand;
import io.capstream.cli.commands.SimCommand;
import io.capstream.cli.commands.SweepCommand;
import io.capstream.cli.commands.TailCommand;
import io.capstream.cli.commands.UpCommand;
import io.capstream.cli.commands.WorkerCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code capstream} command: lists the subcommands. */
@Command(name = "capstream",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Measures the serving capacity of OpenAI-compatible LLM endpoints and streams the measurements through Kafka.",
            "",
            "Every option can also be set with an environment variable CAPSTREAM_<OPTION> (e.g. --bootstrap-servers ->"
                    + " CAPSTREAM_BOOTSTRAP_SERVERS) or in a properties file given with --config (key = option name without"
                    + " dashes, e.g. bootstrap-servers=127.0.0.1:9092). Precedence: command-line flag, then environment,"
                    + " then config file, then the built-in default."
        },
        subcommands = {
            RunCommand.class,
            SweepCommand.class,
            GenerateCommand.class,
            WorkerCommand.class,
            AggregateCommand.class,
            ImportCommand.class,
            ReplayCommand.class,
            RerunCommand.class,
            ReportCommand.class,
            CompareCommand.class,
            TailCommand.class,
            SimCommand.class,
            io.capstream.cli.check.CheckCommand.class,
            UpCommand.class,
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:the run or some inputs failed (see the message)",
            "2:usage error (nothing was sent)",
            "130:stopped by Ctrl-C (SIGINT), after the command's orderly stop",
            "143:stopped by SIGTERM, likewise"
        })
public final class CapstreamCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /** Read before parsing by {@link io.capstream.cli.config.ConfigDefaultProvider#fromArgs}; declared here so every subcommand accepts it. */
    @picocli.CommandLine.Option(names = "--config", paramLabel = "FILE", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Properties file with option defaults: key = option name without dashes (bootstrap-servers=...),"
                    + " Kafka client settings as kafka.<key>=<value>. Env CAPSTREAM_CONFIG.")
    String configFile;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is required (see capstream --help)");
    }
}
