package io.capstream.cli.runner;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaReachability;
import io.capstream.cli.options.RegistryReachability;
import io.capstream.cli.options.RunOptions;
import io.capstream.cli.progress.ProgressView;
import io.capstream.cli.report.OutputPath;
import io.capstream.cli.report.ReportWaiter;
import io.capstream.cli.report.SummaryTable;
import io.capstream.cli.report.TopicHistory;
import io.capstream.cli.stack.LocalStack;
import io.capstream.cli.stack.StackConfig;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.StoppedBeforeStartException;
import io.capstream.loadgen.run.UsageException;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Provenance;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * One capacity run from the command line ({@code capstream run} and {@code capstream generate}):
 * checks the parameters (usage errors, exit 2, before anything is sent), starts the in-process
 * parts ({@link LocalStack}), runs the load through {@link LoadGenerator} into a
 * {@link KafkaEventSink}, waits for the report ({@link ReportWaiter}) and writes it, prints the
 * {@link SummaryTable}, and stops everything. Exit codes: 0 every request completed and every event
 * was delivered; 1 some requests failed, events were undelivered, or no report arrived; 2 usage error.
 */
public final class RunDriver {
    /** Registry used when none is given and the aggregator runs in-process. */
    public static final String MOCK_REGISTRY = "mock://capstream";
    /** Bound of the preparation (validation, the 15 s {@code GET /models} probe, the context plan). */
    static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(60);
    /** Bound of the sink's close after the run (its flush already waited for the events). */
    static final Duration SINK_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final RunRequest req;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;

    /**
     * @param req what to run
     * @param out summary table and result lines
     * @param err progress, notices and errors
     * @param env environment lookup (for {@code --api-key-env})
     */
    public RunDriver(RunRequest req, PrintStream out, PrintStream err, Function<String, String> env) {
        this.req = req;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    /**
     * Runs to the end.
     *
     * @return the exit code (0, 1 or 2)
     */
    public int execute() {
        String cmd = "capstream " + req.commandName();
        List<String> problems = new ArrayList<>();
        KafkaClientProperties kafka = req.kafka();
        String registry = req.schemaRegistryUrl();
        if (req.requireExternalKafka()) {
            if (kafka.bootstrapServers() == null) {
                problems.add("--bootstrap-servers is required (use 'capstream run' for an embedded broker)");
            }
            if (registry == null) {
                problems.add("--schema-registry-url is required with an external Kafka");
            }
        }
        if (registry == null) {
            registry = MOCK_REGISTRY;
        }
        ResolvedRun resolved = checkRun(req, env, problems);
        if (req.awaitReport()) {
            String outputProblem = OutputPath.check(req.output());
            if (outputProblem != null) {
                problems.add(outputProblem);
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println(cmd + ": " + p));
            return 2;
        }
        String registryDown = RegistryReachability.check(registry, req.registryClient());
        if (registryDown != null) {
            err.println(cmd + ": " + registryDown + "; nothing was sent");
            return 1;
        }
        if (kafka.bootstrapServers() != null) {
            String unreachable = KafkaReachability.check(kafka);
            if (unreachable != null) {
                err.println(cmd + ": " + unreachable + "; nothing was sent");
                return 1;
            }
            String runId = resolved.config().runId();
            if (runId != null && reportExists(kafka, runId)) {
                err.println(cmd + ": warning: capstream.reports already has a report for run id " + runId
                        + "; a reused run id mixes two runs (its report, replay): give a new --run-id");
            }
        }
        if (kafka.bootstrapServers() != null && registry.startsWith("mock://") && !req.awaitReport()) {
            err.println(cmd + ": note: events are encoded with the in-process mock registry; only this process can"
                    + " decode them (give --schema-registry-url for other consumers)");
        }

        RunControl control = new RunControl();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = addStopHook("capstream-run-shutdown", control::requestStop, finished, Duration.ofSeconds(30));
        // deferred delivery on the embedded broker: the broker and the aggregator start after the last request
        StackConfig stackCfg = StackConfig.of(kafka, registry, req.registryClient())
                .withAggregator(req.aggregator(), req.aggregatorGroup())
                .withSim(resolved.sim())
                .withKafkaAtEnd(req.eventDelivery().deferred(kafka.bootstrapServers() == null));
        try (LocalStack stack = LocalStack.start(stackCfg, err)) {
            return runOn(stack, resolved.boundTo(stack), control, cmd);
        } catch (Exception e) {
            err.println(cmd + ": " + describe(e));
            return 1;
        } finally {
            finished.countDown();
            removeStopHook(hook);
        }
    }

    private int runOn(LocalStack stack, RunConfig config, RunControl control, String cmd) throws Exception {
        LoadGenerator generator = new LoadGenerator(stack.vertx(), env);
        RunPlan plan;
        try {
            plan = generator.prepare(config).get(PREPARE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UsageException u) {
                u.problems().forEach(p -> err.println(cmd + ": " + p));
                return 2;
            }
            throw e;
        } catch (java.util.concurrent.TimeoutException e) {
            err.println(cmd + ": the run could not be prepared within " + PREPARE_TIMEOUT.toSeconds()
                    + " s (GET /models probe); nothing was sent");
            return 1;
        }
        RunOutcome outcome;
        long undelivered;
        long events;
        String sinkError;
        try (RunDelivery delivery = RunDelivery.open(stack, req.eventDelivery(), req.awaitReport(), err)) {
            EventSink sink = delivery.sink();
            // the run's future completes: every request ends (per-read --timeout), and a flush during an outage
            // ends after delivery.timeout.ms + max.block.ms (KafkaEventSink); SIGINT/SIGTERM stop it early
            try (ProgressView progress = ProgressView.forConsole().watchDelivery(sink::pending)) {
                try {
                    outcome = generator.run(plan, sink, progress, control).join();
                } catch (CompletionException e) {
                    if (e.getCause() instanceof StoppedBeforeStartException stopped) {
                        // SIGINT/SIGTERM during the warm-up: no RunStarted was emitted, so no report will come
                        err.println(cmd + ": " + stopped.getMessage() + "; nothing was sent to Kafka");
                        return 130;
                    }
                    throw e;
                }
            } finally {
                undelivered = sink.close(SINK_CLOSE_TIMEOUT);
                events = sink.handedOver();
                sinkError = delivery.lastError();
            }
            ReportWaiter awaiter = delivery.waiter();
            undelivered = Math.max(undelivered, outcome.eventsUndelivered());
            int code = outcome.exitCode();
            if (awaiter != null && undelivered == 0) {
                code = Math.max(code, writeReport(awaiter, outcome, cmd, stack));
            } else if (!req.awaitReport()) {
                out.printf("run %s: %d completed, %d failed of %d; %s (Kafka %s)%n", outcome.runId(),
                        outcome.completed(), outcome.failed(), outcome.requestsPlanned(),
                        deliverySummary(events, undelivered), stack.kafka().bootstrapServers());
            }
            if (outcome.failed() > 0) {
                err.println(cmd + ": " + outcome.failed() + " of " + outcome.requestsSent() + " requests failed");
            }
            if (outcome.interrupted()) {
                err.println(cmd + ": the run was interrupted before every planned request ran");
            }
            if (undelivered > 0) {
                err.println(cmd + ": " + Math.min(undelivered, events) + " of " + events
                        + " events could not be delivered to Kafka" + (sinkError == null ? "" : " (" + sinkError + ")")
                        + (req.awaitReport() ? "; no report was awaited: it would be incomplete" : ""));
                code = 1;
            }
            return code;
        }
    }

    private int writeReport(ReportWaiter awaiter, RunOutcome outcome, String cmd, LocalStack stack) throws Exception {
        Optional<BenchmarkReport> report = awaiter.await(outcome.runId(), req.reportTimeout());
        if (report.isEmpty() && stack.aggregatorFailure() != null) {
            err.println(cmd + ": no report for run " + outcome.runId() + ": " + stack.aggregatorFailure());
            return 1;
        }
        if (report.isEmpty()) {
            err.println(cmd + ": no report for run " + outcome.runId() + " arrived on capstream.reports within "
                    + req.reportTimeout().toSeconds() + " s" + (stack.runningAggregatorGroup() == null ? ""
                    : " from the running aggregator (group " + stack.runningAggregatorGroup() + ")"));
            return 1;
        }
        String text = report.get().getArtifactJson();
        Path file = OutputPath.resolve(req.output(), outcome.runId());
        ArtifactJson.writeAtomically(file, text);
        out.print(SummaryTable.render(report.get(), outcome.clientCheck()));
        out.println("report written to " + file);
        Provenance p = report.get().getProvenance();
        if (!p.getComplete()) {
            err.println(cmd + ": " + incompleteReason(p));
        }
        return p.getComplete() ? 0 : 1;
    }

    /**
     * @param events      events the run handed to the sink
     * @param undelivered events that did not reach Kafka (failed, dropped or still pending at the end)
     * @return e.g. {@code "302 events, 225 delivered, 77 undelivered"}
     */
    static String deliverySummary(long events, long undelivered) {
        long lost = Math.min(events, Math.max(0, undelivered));
        return events + (events == 1 ? " event, " : " events, ") + (events - lost) + " delivered, " + lost + " undelivered";
    }

    /**
     * @param p an incomplete report's provenance; not null
     * @return why the report is incomplete, e.g. "the report is incomplete: 2 request(s) without an
     *         event (indices 3, 7)"
     */
    static String incompleteReason(Provenance p) {
        List<Integer> missing = p.getMissingRequestIndices();
        return "the report is incomplete: " + (missing.isEmpty() ? "" : missing.size()
                + " request(s) without an event (indices " + abbreviate(missing) + ")")
                + (missing.isEmpty() || p.getRunFinishedSeen() ? "" : ", and ")
                + (p.getRunFinishedSeen() ? "" : "no RunFinished arrived");
    }

    /** @return at most the first 10 indices, then ", ..." */
    private static String abbreviate(List<Integer> indices) {
        String head = indices.stream().limit(10).map(String::valueOf).collect(Collectors.joining(", "));
        return indices.size() > 10 ? head + ", ..." : head;
    }

    /**
     * Resolves the run parameters shared by {@code run}, {@code generate} and {@code generate
     * --continuous} once, and checks them before anything starts: the simulated engine's settings
     * when it is the target, then every rule of the {@link RunConfig} but the simulated engine's URL
     * (bound later by {@link ResolvedRun#boundTo}).
     *
     * @param req      the request
     * @param env      environment lookup (for {@code --api-key-env})
     * @param problems receives one message per problem
     * @return the resolved run; its parts are null when they could not be resolved (see {@link ResolvedRun})
     */
    public static ResolvedRun checkRun(RunRequest req, Function<String, String> env, List<String> problems) {
        RunOptions ro = req.run();
        SimConfig simCfg = null;
        if (ro.baseUrl() == null) {
            try {
                simCfg = req.sim().toConfig("127.0.0.1", 0);
            } catch (IllegalArgumentException e) {
                problems.add("simulated engine: " + e.getMessage());
            }
        }
        RunConfig config = null;
        try {
            config = ro.toConfig(req.sim());
            problems.addAll(config.validate(env));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return new ResolvedRun(config, simCfg);
    }

    /**
     * Installs a JVM shutdown hook (SIGINT/SIGTERM) that asks the run to stop and waits for it to
     * finish.
     *
     * @param name thread name
     * @param stop asks the run to stop
     * @param done counted down when the run has finished
     * @param wait how long the hook waits for {@code done}
     * @return the hook, for {@link #removeStopHook(Thread)}
     */
    public static Thread addStopHook(String name, Runnable stop, CountDownLatch done, Duration wait) {
        Thread hook = new Thread(() -> {
            stop.run();
            try {
                done.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** @param hook a hook from {@link #addStopHook}; nothing happens when the JVM is already shutting down */
    public static void removeStopHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running
        }
    }

    /**
     * @return whether {@code capstream.reports} holds a (non-deleted) report keyed {@code runId}; false when
     *         the topic does not exist or cannot be read (the check only warns)
     */
    private static boolean reportExists(KafkaClientProperties kafka, String runId) {
        boolean[] found = {false};
        try {
            TopicHistory.read(kafka.consumer(Map.of(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false)),
                    Topics.REPORTS, (key, value) -> {
                        if (runId.equals(key)) {
                            found[0] = value != null;
                        }
                    });
        } catch (RuntimeException e) {
            return false;
        }
        return found[0];
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
