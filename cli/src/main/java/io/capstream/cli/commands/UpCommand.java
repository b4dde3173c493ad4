package io.capstream.cli.commands;

import io.capstream.aggregator.api.ApiConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.signals.ForcedExit;
import io.capstream.cli.up.UpBanner;
import io.capstream.cli.up.UpConfig;
import io.capstream.cli.up.UpStack;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code capstream up}: a local stack without Docker that several capstream processes share — the
 * embedded KRaft broker on a fixed loopback port, a real Apicurio Registry 2.6.13 child process
 * (Confluent-compatible API), every capstream topic, and with {@code --with-sim} the simulated engine.
 * Prints the flags and {@code export} lines the other commands take, then runs until Ctrl-C or
 * SIGTERM, when a shutdown hook stops the engine, the registry child process and the broker.
 *
 * <p>Exit codes: 1 when a service cannot start or the registry child process dies while up runs (the
 * stack is stopped with the reason, not restarted: see {@code UpStack#watch}), 2 for a usage error
 * such as a port already in use (naming the process that holds it, see {@code PortHolder});
 * stopped by SIGINT / SIGTERM the JVM exits 130 / 143 (128 + the signal number) after the clean stop.
 */
@Command(name = "up", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Starts a local stack for other capstream processes, without Docker: an embedded Kafka broker and an"
                    + " Apicurio Registry 2.6.13 (Confluent-compatible API) as a child process, on 127.0.0.1.",
            "Prints the --bootstrap-servers / --schema-registry-url flags and export lines for the other commands,"
                    + " then runs until Ctrl-C or SIGTERM and stops both (no process is left behind)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:a service cannot start, or the registry child process died (up stops the stack)",
            "2:usage error (e.g. a port in use; the process holding it is named)",
            "130:stopped by Ctrl-C (SIGINT), after the clean stop", "143:stopped by SIGTERM, likewise"})
public final class UpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "" + UpConfig.DEFAULT_KAFKA_PORT,
            description = "Port of the embedded Kafka broker on 127.0.0.1. Default: ${DEFAULT-VALUE}. Env CAPSTREAM_KAFKA_PORT.")
    int kafkaPort;

    @Option(names = "--registry-port", paramLabel = "PORT", defaultValue = "" + UpConfig.DEFAULT_REGISTRY_PORT,
            description = "Port of the Apicurio Registry on 127.0.0.1. Default: ${DEFAULT-VALUE}. Env CAPSTREAM_REGISTRY_PORT.")
    int registryPort;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Keep the broker's data (DIR/data, DIR/metadata) and the registry's schemas (DIR/registry)"
                    + " in DIR between runs, so old records still decode after a restart (default: a temp directory"
                    + " deleted on stop, registry in memory).")
    Path dataDir;

    @Option(names = "--event-partitions", paramLabel = "N", defaultValue = "" + TopicSetup.DEFAULT_EVENT_PARTITIONS,
            description = "Partitions of capstream.events. Default: ${DEFAULT-VALUE}.")
    int eventPartitions;

    @Option(names = "--registry-timeout", paramLabel = "DURATION", defaultValue = "120s",
            converter = DurationConverter.class,
            description = "How long the registry may take to start, e.g. 90s, 5m (a bare number is seconds)."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration registryTimeout;

    @Option(names = "--with-sim", description = "Also serve the simulated OpenAI-compatible engine (see --sim-port).")
    boolean withSim;

    @Option(names = "--sim-port", paramLabel = "PORT", defaultValue = "" + UpConfig.DEFAULT_SIM_PORT,
            description = "Port of the simulated engine with --with-sim. Default: ${DEFAULT-VALUE}.")
    int simPort;

    @Mixin
    SimOptions sim;

    @Override
    public Integer call() throws Exception {
        UpConfig cfg;
        String dirProblem = dataDir == null ? null : io.capstream.cli.up.DataDirCheck.problem(dataDir);
        if (dirProblem != null) {
            throw new ParameterException(spec.commandLine(), dirProblem);
        }
        if (withSim && (simPort < 0 || simPort > 65535)) {
            throw new ParameterException(spec.commandLine(), "--sim-port must be in 0..65535, got " + simPort);
        }
        try {
            cfg = new UpConfig(kafkaPort, registryPort, dataDir, eventPartitions, registryTimeout,
                    withSim ? sim.toConfig("127.0.0.1", simPort) : null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintStream err = System.err;
        UpStack stack;
        try {
            stack = UpStack.start(cfg, err);
        } catch (IllegalStateException e) {
            if (String.valueOf(e.getMessage()).contains("already in use")) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            err.println("capstream up: failed: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            err.println("capstream up: failed: " + e);
            return 1;
        }
        Thread hook = new Thread(() -> {
            ForcedExit.stopping("capstream up", () -> "the broker and the registry are killed without a clean stop");
            stack.close();
        }, "capstream-up-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        PrintStream out = System.out;
        UpBanner.lines(stack.bootstrapServers(), stack.schemaRegistryUrl(), stack.simBaseUrl()).forEach(out::println);
        out.flush();
        err.println("capstream up: live dashboard on http://" + ApiConfig.DEFAULT_HOST + ":" + ApiConfig.DEFAULT_PORT
                + "/ once `capstream aggregate` runs with the flags above");
        err.println("capstream up: running; press Ctrl-C (or send SIGTERM) to stop");
        stack.awaitClosed();
        return stack.failure() == null ? 0 : 1;
    }
}
