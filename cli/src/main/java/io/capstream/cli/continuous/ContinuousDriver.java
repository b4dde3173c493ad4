package io.capstream.cli.continuous;

import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaReachability;
import io.capstream.cli.options.KafkaWait;
import io.capstream.cli.runner.BoundedStop;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.ResolvedRun;
import io.capstream.cli.runner.RunRequest;
import io.capstream.cli.stack.LocalStack;
import io.capstream.cli.stack.StackConfig;
import io.capstream.loadgen.continuous.ContinuousConfig;
import io.capstream.loadgen.continuous.ContinuousListener;
import io.capstream.loadgen.continuous.ContinuousRunner;
import io.capstream.loadgen.continuous.ContinuousSummary;
import io.capstream.loadgen.continuous.KafkaHeartbeatSender;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.RunSecrets;
import io.capstream.schemas.text.SecretMask;
import io.capstream.cli.servermetrics.ServerMetricsPublisher;
import java.util.function.Consumer;
import io.capstream.loadgen.run.UsageException;
import java.io.PrintStream;
import io.capstream.schemas.text.DurationLabel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * {@code capstream generate --continuous}: starts what is needed (the simulated engine when no
 * {@code --base-url} is given), then runs {@link ContinuousRunner} against the external Kafka
 * until SIGINT/SIGTERM (a shutdown hook calls {@link ContinuousRunner#stop()} and waits up to
 * {@link #STOP_BOUND} for the current run's RunFinished, then prints what it left unflushed and exits).
 * Prints one line per finished run.
 * Exit codes: 0 stopped cleanly with every event delivered; 1 undelivered events or a failure;
 * 2 usage error.
 */
public final class ContinuousDriver {
    /** How long SIGINT/SIGTERM waits for the current run's last events, its RunFinished and the final line. */
    static final Duration STOP_BOUND = Duration.ofSeconds(15);
    /** What a stop cut short by {@link #STOP_BOUND} leaves behind. */
    static final String UNFLUSHED = "the current run's events not yet delivered to Kafka (and its RunFinished) were"
            + " not flushed: its report stays incomplete";
    private final RunRequest req;
    private final Duration interval;
    private final Duration kafkaWait;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;

    /**
     * @param req      the run (as for a single {@code generate})
     * @param interval {@code --interval}
     * @param kafkaWait {@code --kafka-wait}: how long to wait at start for Kafka to answer; positive
     * @param out      one line per run
     * @param err      notices and errors
     * @param env      environment lookup (for {@code --api-key-env})
     */
    public ContinuousDriver(RunRequest req, Duration interval, Duration kafkaWait, PrintStream out, PrintStream err,
                            Function<String, String> env) {
        this.req = req;
        this.interval = interval;
        this.kafkaWait = kafkaWait;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    /** @return the exit code */
    public int execute() {
        String cmd = "capstream " + req.commandName() + " --continuous";
        KafkaClientProperties kafka = req.kafka();
        List<String> problems = new ArrayList<>();
        if (kafka.bootstrapServers() == null) {
            problems.add("--bootstrap-servers is required");
        }
        if (req.schemaRegistryUrl() == null) {
            problems.add("--schema-registry-url is required");
        }
        ResolvedRun resolved = RunDriver.checkRun(req, env, problems);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println(cmd + ": " + p));
            return 2;
        }
        // a monitoring service may start before its broker (compose) or on a loaded machine: it waits for Kafka, as
        // aggregate, then checks the registry (the order of every command that needs both)
        String unreachable = ConnectionChecks.kafkaThenRegistry(
                () -> new KafkaWait(t -> KafkaReachability.probe(kafka, t), System::nanoTime, err, cmd)
                        .await(kafka.bootstrapServers(), kafkaWait, "--kafka-wait"),
                req.schemaRegistryUrl(), req.registryClient());
        if (unreachable != null) {
            err.println(cmd + ": " + unreachable + "; nothing was sent");
            return 1;
        }
        StackConfig stackCfg = StackConfig.of(kafka, req.schemaRegistryUrl(), req.registryClient())
                .withSim(resolved.sim());
        try (LocalStack stack = LocalStack.start(stackCfg, err)) {
            return runOn(stack, resolved.boundTo(stack), cmd);
        } catch (Exception e) {
            err.println(cmd + ": " + e.getMessage());
            return 1;
        }
    }

    private int runOn(LocalStack stack, RunConfig run, String cmd) throws InterruptedException {
        RunConfig base = run.identity().workerId() != null ? run
                : run.withIdentity(run.identity().withWorkerId("capstream-" + UUID.randomUUID().toString().substring(0, 8)));
        String baseUrl = base.target().baseUrl();
        ContinuousConfig config;
        try {
            config = ContinuousConfig.of(base, interval);
        } catch (IllegalArgumentException e) {
            err.println(cmd + ": " + e.getMessage());
            return 2;
        }
        KafkaSinkConfig sinkConfig = KafkaSinkConfig.of(stack.kafka().bootstrapServers(), stack.schemaRegistryUrl())
                .withClientProperties(stack.kafka().userProperties()).withRegistryClient(stack.registryClient());
        KafkaHeartbeatSender heartbeats = KafkaHeartbeatSender.create(stack.kafka().bootstrapServers(),
                stack.schemaRegistryUrl(), stack.registryClient(), stack.kafka().userProperties(), base.identity().workerId());
        ContinuousRunner runner = new ContinuousRunner(new LoadGenerator(stack.vertx(), env),
                () -> new KafkaEventSink(sinkConfig), heartbeats, config,
                new Printer(out, err, o -> publishServerMetrics(stack, o, baseUrl, base.target().model(),
                        RunSecrets.of(base, env), cmd)), RunListener.NONE);
        CountDownLatch done = new CountDownLatch(1);
        // the current run's RunFinished, the sink flush and the final line, at most STOP_BOUND (a broker that has gone
        // would hold the producers' close for their whole delivery timeout)
        Thread hook = RunDriver.addStopHook("capstream-continuous-shutdown", new BoundedStop(cmd, runner::stop, done,
                STOP_BOUND, BoundedStop.LATCH, err, () -> UNFLUSHED));
        err.println(startLine(cmd, config.mode().name().toLowerCase(java.util.Locale.ROOT),
                io.capstream.cli.config.Secrets.redactUrls(baseUrl), interval, config.heartbeatInterval()));
        try {
            return session(runner, heartbeats, cmd, hook);
        } finally {
            done.countDown();
        }
    }

    private int session(ContinuousRunner runner, KafkaHeartbeatSender heartbeats, String cmd, Thread hook)
            throws InterruptedException {
        ContinuousSummary summary;
        try {
            summary = runner.run();
        } catch (UsageException e) {
            e.problems().forEach(p -> err.println(cmd + ": " + p));
            return 2;
        } finally {
            heartbeats.close();
        }
        if (summary.eventsUndelivered() > 0) {
            err.println(cmd + ": " + summary.eventsUndelivered() + " events could not be delivered to Kafka");
        }
        err.printf("%s: stopped after %d runs (%d completed, %d failed requests, %d heartbeats)%n", cmd,
                summary.runs(), summary.completed(), summary.failed(), summary.heartbeats());
        RunDriver.removeStopHook(hook);
        return summary.exitCode();
    }

    /**
     * Sends a finished run's server-metrics scrapes to {@code capstream.server-metrics}, as a one-off run does
     * (between runs, on the runner's thread: one producer and a few records per run); a failure is a note.
     */
    private void publishServerMetrics(LocalStack stack, RunOutcome o, String baseUrl, String model, SecretMask mask,
                                      String cmd) {
        if (o.serverMetrics() == null || o.serverMetrics().scrapes().isEmpty()) {
            return;
        }
        try {
            String why = ServerMetricsPublisher.publish(stack.kafka(), stack.schemaRegistryUrl(), stack.registryClient(),
                    o.serverMetrics(), o.runId(), o.workerId(), baseUrl, model, mask);
            if (why != null) {
                err.println(cmd + ": note: " + why);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param cmd       the command name ({@code capstream generate}); {@code mode} e.g. {@code closed}
     * @param url       the target URL, secrets already masked
     * @param interval  {@code --interval}; {@code heartbeat} the heartbeat interval; neither null
     * @return the start line, durations spelled as the options take them ({@code every 10s, heartbeats every 2s})
     */
    static String startLine(String cmd, String mode, String url, Duration interval, Duration heartbeat) {
        return cmd + ": " + mode + " mode against " + url + ", every " + DurationLabel.of(interval)
                + ", heartbeats every " + DurationLabel.of(heartbeat) + "; Ctrl-C to stop";
    }

    /**
     * @param o a finished run, its sink closed
     * @return e.g. {@code run r-c3: 20 completed, 0 failed of 20} ({@link RunOutcome#counts()}), with {@code (interrupted)} and, when some of its
     *         events did not reach Kafka, {@code ; 21 of its events were NOT delivered to Kafka: its report and
     *         windows miss them}
     */
    static String line(RunOutcome o) {
        return String.format(java.util.Locale.ROOT, "run %s: %s%s%s", o.runId(), o.counts(),
                o.interrupted() ? " (interrupted)" : "", o.eventsUndelivered() == 0
                        ? "" : "; " + o.eventsUndelivered() + " of its events were NOT delivered to Kafka: its report"
                        + " and windows miss them");
    }

    /** One line per run; then the run's server metrics go to their topic. */
    private record Printer(PrintStream out, PrintStream err, Consumer<RunOutcome> afterRun) implements ContinuousListener {
        @Override
        public void onRunFinished(int iteration, RunOutcome o) {
            out.println(line(o));
            out.flush();
            afterRun.accept(o);
        }

        @Override
        public void onRunError(int iteration, Throwable error) {
            err.println("capstream generate --continuous: run " + iteration + " could not run: " + error);
        }
    }
}
