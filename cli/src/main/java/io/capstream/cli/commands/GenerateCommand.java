package io.capstream.cli.commands;

import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.RunOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.EventDelivery;
import io.capstream.cli.runner.RunRequest;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstream generate}: the load of {@code capstream run} against an external Kafka, without
 * the embedded broker, without an in-process aggregator and without waiting for a report (a
 * separate {@code capstream aggregate} turns the events into reports). With {@code --continuous}
 * it repeats the run every {@code --interval} seconds (continuous capacity monitoring).
 */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sends the benchmark load and writes its events to an external Kafka (capstream.events); a separate"
                + " 'capstream aggregate' computes the reports. Requires --bootstrap-servers and --schema-registry-url."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request completed and every event was delivered",
            "1:some requests failed or events were undelivered", "2:usage error (nothing was sent)",
            "4:a stop rule (--max-error-rate, --max-consecutive-errors, --stop-on-saturation) ended the run early;"
                + " every event was delivered",
            "130:stopped by Ctrl-C (SIGINT), after the orderly stop (requests in flight end, RunFinished is sent)",
            "143:stopped by SIGTERM, likewise"})
public final class GenerateCommand implements Callable<Integer> {
    /** When generate needs {@code --bootstrap-servers} (its {@code --help}, {@code RequiredKafkaHelp}): always. */
    public static final String KAFKA_NEEDED = "Required, in every mode (one run, --continuous, --workers): this"
            + " command starts no embedded broker ('capstream run' does)";
    /** When and why generate needs {@code --schema-registry-url}: the rest of its description in {@code --help}. */
    public static final String REGISTRY_NEEDED = ". Required, in every mode: the events are Avro records that carry"
            + " only their schema's id, registered there for 'capstream aggregate' (and 'tail') to resolve; with a"
            + " mock://SCOPE registry, which lives inside one process, no other process can read them";

    @Spec
    CommandSpec spec;

    @Mixin
    RunOptions run = new RunOptions();

    @Option(names = "--continuous",
            description = "Repeat the run until stopped (continuous monitoring), one run every --interval seconds.")
    boolean continuous;

    @Option(names = "--interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Time between the starts of consecutive runs with --continuous (only with it), e.g. 10s, 1m"
                    + " (a bare number is seconds). Default: 60s.")
    Duration interval = Duration.ofSeconds(60);

    @Option(names = "--kafka-wait", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With --continuous: how long to wait at start for Kafka to answer (a broker still starting,"
                    + " a loaded machine), with a line every 10 s while waiting; then exit 1 with one line."
                    + " Default: 60s. A single run checks once, for 10 s (--kafka-wait without --continuous is a usage"
                    + " error).")
    Duration kafkaWait = Duration.ofSeconds(60);

    @Option(names = "--workers", paramLabel = "N",
            description = "Distributed run: publish the plan to N 'capstream worker' processes on the same Kafka"
                    + " (topic capstream.plan.<run id>, one partition per worker) instead of sending the load here, print"
                    + " the run id and exit; the workers send their shares from one shared start instant. Not with"
                    + " --continuous. 1.." + DistributedRunOptions.MAX_WORKERS + ".")
    Integer workers;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    SimOptions sim = new SimOptions();

    @Override
    public Integer call() {
        if (!continuous) {
            for (String only : new String[] {"--interval", "--kafka-wait"}) {
                if (spec.commandLine().getParseResult().hasMatchedOption(only)) {
                    System.err.println("capstream generate: " + only + " only applies with --continuous");
                    return 2;
                }
            }
        }
        if (interval.isZero() || interval.isNegative()) {
            System.err.println("capstream generate: --interval must be a positive number of seconds");
            return 2;
        }
        if (kafkaWait.isZero() || kafkaWait.isNegative()) {
            System.err.println("capstream generate: --kafka-wait must be > 0");
            return 2;
        }
        RunRequest req = RunRequest.builder("generate", run, sim).kafka(kafka.clientProperties())
                .schemaRegistryUrl(kafka.schemaRegistryUrl()).registryClient(kafka.registryClientConfig())
                .requireExternalKafka(true).eventDelivery(EventDelivery.LIVE).build();
        if (workers != null) {
            String bad = continuous ? "--workers cannot be combined with --continuous"
                    : DistributedRunOptions.problem(workers, kafka);
            if (bad != null) {
                System.err.println("capstream generate: " + bad);
                return 2;
            }
            return new RunDriver(req, System.out, System.err, System::getenv).execute(java.util.List.of(),
                    DistributedRunOptions.coordinator(req, workers));
        }
        if (continuous) {
            return runContinuous(req);
        }
        return new RunDriver(req, System.out, System.err, System::getenv).execute();
    }

    /**
     * Call site of the continuous loop ({@code io.capstream.loadgen.continuous.ContinuousRunner}):
     * it repeats the run of {@code req} every {@link #interval} with heartbeats in between,
     * until SIGINT/SIGTERM.
     */
    private int runContinuous(RunRequest req) {
        return new io.capstream.cli.continuous.ContinuousDriver(req, interval, kafkaWait,
                System.out, System.err, System::getenv).execute();
    }
}
