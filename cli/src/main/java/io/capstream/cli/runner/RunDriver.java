package io.capstream.cli.runner;

import io.capstream.aggregator.slo.SloParseException;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.cli.config.ConsoleMask;
import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.WorkloadOptions;
import io.capstream.cli.report.OutputPath;
import io.capstream.cli.report.TopicHistory;
import io.capstream.cli.signals.ForcedExit;
import io.capstream.cli.stack.LocalStack;
import io.capstream.cli.stack.StackConfig;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.RunSecrets;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Provenance;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * A command that runs load from the command line ({@code capstream run}, {@code generate} and
 * {@code sweep}): checks the parameters (usage errors, exit 2, before anything is sent), starts the
 * in-process parts ({@link LocalStack}) and the {@link DeliverySession} once, runs the command's
 * {@link StackWork} on them (for {@code run}: one {@link RunStep}, which runs the load into a
 * {@link KafkaEventSink}, waits for the report, writes it and prints the summary), and stops
 * everything. Exit codes of {@link #execute()}: 0 every request completed and every event was
 * delivered; 1 some requests failed, events were undelivered, or no report arrived; 2 usage error.
 */
public final class RunDriver {
    /** Registry used when none is given and the aggregator runs in-process. */
    public static final String MOCK_REGISTRY = "mock://capstream";
    /** Bound of the preparation (validation, the 15 s {@code GET /models} probe, the context plan). */
    static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(60);
    /** Bound of the sink's close after the run (its flush already waited for the events). */
    static final Duration SINK_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** The longest a run's SIGINT/SIGTERM stop waits: the requests' grace, the events, the report of what ran. */
    static final Duration STOP_BOUND = Duration.ofSeconds(60);

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
     * The part of a command that runs on the started stack: one run ({@code run}, {@code generate})
     * or several ({@code sweep}).
     */
    @FunctionalInterface
    public interface StackWork {
        /**
         * @param stack   the started stack (its Kafka parts perhaps still to start at the end of the first run)
         * @param session the Kafka side shared by the runs (closed by the driver)
         * @param config  the resolved run configuration, bound to its target
         * @param control the stop flag SIGINT/SIGTERM sets (no new request starts once it is set)
         * @return the exit code
         * @throws Exception when a run fails unexpectedly (printed, exit 1)
         */
        int run(LocalStack stack, DeliverySession session, RunConfig config, RunControl control) throws Exception;

        /**
         * Usage problems of this work with the resolved configuration, checked with the run's own (before the
         * registry, Kafka or the target is contacted).
         *
         * @param config the resolved configuration (not bound to the simulated engine yet); not null
         * @return one message per problem; none by default
         */
        default List<String> usageProblems(RunConfig config) {
            return List.of();
        }
    }

    /**
     * Runs to the end: one run, its report written to {@code --output}.
     *
     * @return the exit code (0, 1 or 2)
     */
    public int execute() {
        return execute(List.of());
    }

    /**
     * Runs to the end: one run, its report written to {@code --output} (and the {@code --html}/{@code --csv}
     * files when given).
     *
     * @param commandProblems usage problems the command found itself, listed after the {@code --output}
     *                        check's; not null
     * @return the exit code (0, 1 or 2)
     */
    public int execute(List<String> commandProblems) {
        List<String> problems = new ArrayList<>();
        if (req.awaitReport()) {
            String outputProblem = OutputPath.check(req.output());
            if (outputProblem != null) {
                problems.add(outputProblem);
            }
        }
        problems.addAll(commandProblems);
        RunStep step = new RunStep(req, out, err, env);
        Instant processStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        return execute(problems, (stack, session, config, control) -> step.run(stack, session, config, control,
                OutputPath.claimer(req.output(), processStart, Path.of(""), line -> err.println("capstream run: " + line)),
                true).exitCode());
    }

    /**
     * Checks the request (usage errors, exit 2, before anything is sent: the Kafka and registry
     * settings, {@link #checkRun}, then {@code commandProblems} and {@link StackWork#usageProblems}), checks that the registry and a given
     * Kafka answer, installs the SIGINT/SIGTERM stop hook, starts the {@link LocalStack} and a
     * {@link DeliverySession}, runs {@code work} on them, and stops everything.
     *
     * @param commandProblems usage problems the command found itself, listed after the run's; not null
     * @param work            what runs on the stack
     * @return the exit code: 2 for usage errors; 1 when the registry or Kafka do not answer or
     *         {@code work} throws; else {@code work}'s
     */
    public int execute(List<String> commandProblems, StackWork work) {
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
        problems.addAll(commandProblems);
        if (resolved.config() != null) {
            problems.addAll(work.usageProblems(resolved.config()));
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println(cmd + ": " + p));
            return 2;
        }
        String simNotice = simulatedTargetNotice(req.run());
        if (simNotice != null) {
            err.println(cmd + ": warning: " + simNotice);
        }
        // Kafka (unless embedded), then the registry, as every command that needs both
        String unreachable = ConnectionChecks.kafkaThenRegistry(kafka, registry, req.registryClient());
        if (unreachable != null) {
            err.println(cmd + ": " + unreachable + "; nothing was sent");
            return 1;
        }
        if (kafka.bootstrapServers() != null) {
            String runId = resolved.config().identity().runId();
            if (runId != null && reportExists(kafka, runId)) {
                err.println(cmd + ": warning: capstream.reports already has a report for run id " + runId
                        + "; a reused run id mixes two runs (its report, replay): give a new --run-id");
            }
        }
        String registryNote = MockRegistryNote.of(kafka.bootstrapServers(), registry, req.awaitReport());
        if (registryNote != null) { // also when a report is awaited: tail cannot decode it either
            err.println(cmd + ": note: " + registryNote);
        }

        RunControl control = new RunControl();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = addStopHook("capstream-run-shutdown", new BoundedStop(cmd, () -> {
            err.println(cmd + ": stopping: no new request starts; those in flight may end within "
                    + control.interruptGrace().toSeconds() + " s, then are cancelled; then " + (req.awaitReport()
                    ? "the report of what ran" : "their events are sent") + " (at most " + STOP_BOUND.toSeconds()
                    + " s in all)" + ForcedExit.hint());
            control.requestStop();
        }, finished, STOP_BOUND, BoundedStop.LATCH, null, () -> req.awaitReport()
                ? "the report of what ran is not written" : "the events of the requests in flight are not sent"));
        // deferred delivery on the embedded broker: the broker and the aggregator start after the last request
        StackConfig stackCfg = StackConfig.of(kafka, registry, req.registryClient())
                .withAggregator(req.aggregator(), req.aggregatorGroup())
                .withSim(resolved.sim())
                .withKafkaAtEnd(req.eventDelivery().deferred(kafka.bootstrapServers() == null));
        try (LocalStack stack = LocalStack.start(stackCfg, err);
             DeliverySession session = DeliverySession.open(stack, req.eventDelivery(), req.awaitReport(), err)) {
            return work.run(stack, session, resolved.boundTo(stack), control);
        } catch (Exception e) {
            err.println(cmd + ": " + describe(e));
            return 1;
        } finally {
            finished.countDown();
            removeStopHook(hook);
        }
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
        return incompleteReason(p, List.of());
    }

    /**
     * As {@link #incompleteReason(Provenance)}, naming the workers whose RunFinished did arrive when not all did
     * (a distributed run whose worker died), e.g. "..., and only 2 workers' RunFinished arrived (w1, w2)".
     *
     * @param report an incomplete report; not null
     * @return why it is incomplete
     */
    static String incompleteReason(io.capstream.schemas.avro.BenchmarkReport report) {
        List<String> finished = report.getWorkers() == null ? List.of() : report.getWorkers().entrySet().stream()
                .filter(e -> e.getValue().getRunFinished()).map(Map.Entry::getKey).sorted().toList();
        return incompleteReason(report.getProvenance(), finished);
    }

    private static String incompleteReason(Provenance p, List<String> finishedWorkers) {
        List<Integer> missing = p.getMissingRequestIndices();
        String finished = p.getRunFinishedSeen() ? ""
                : finishedWorkers.isEmpty() ? "no RunFinished arrived"
                : "only " + finishedWorkers.size() + (finishedWorkers.size() == 1 ? " worker's" : " workers'")
                + " RunFinished arrived (" + String.join(", ", finishedWorkers) + ")";
        return "the report is incomplete: " + (missing.isEmpty() ? "" : missing.size()
                + " request(s) without an event (indices " + abbreviate(missing) + ")")
                + (missing.isEmpty() || finished.isEmpty() ? "" : ", and ") + finished;
    }

    /** @return at most the first 10 indices, then ", ..." */
    private static String abbreviate(List<Integer> indices) {
        String head = indices.stream().limit(10).map(String::valueOf).collect(Collectors.joining(", "));
        return indices.size() > 10 ? head + ", ..." : head;
    }

    /**
     * @param ro the run options
     * @return the warning for a {@code --model} given without {@code --base-url}, e.g. {@code "--model
     *         Qwen/Qwen3-8B without --base-url: the target is the built-in simulated engine, not your endpoint (give
     *         --base-url to measure it)"}, or null (a user who forgot {@code --base-url} got a sim benchmark labelled
     *         with their model, with no word of it)
     */
    static String simulatedTargetNotice(WorkloadOptions ro) {
        if (ro.baseUrl() != null || ro.model() == null || ro.model().equals(io.capstream.loadgen.sim.SimConfig
                .ENGINE_LABEL)) {
            return null;
        }
        return "--model " + ro.model() + " without --base-url: the target is the built-in simulated engine, not your"
                + " endpoint (give --base-url to measure it)";
    }

    /**
     * Resolves the run parameters shared by {@code run}, {@code generate} and {@code generate
     * --continuous} once, and checks them before anything starts: the simulated engine's settings
     * when it is the target, then every rule of the {@link RunConfig} (after {@link RunRequest#adjust()})
     * but the simulated engine's URL (bound later by {@link ResolvedRun#boundTo}), then each
     * {@code --slo} with {@link SloParser} (one {@code --slo: <parser's message>} line per bad SLO).
     *
     * @param req      the request
     * @param env      environment lookup (for {@code --api-key-env})
     * @param problems receives one message per problem
     * @return the resolved run; its parts are null when they could not be resolved (see {@link ResolvedRun})
     */
    public static ResolvedRun checkRun(RunRequest req, Function<String, String> env, List<String> problems) {
        WorkloadOptions ro = req.run();
        try {
            ro.baseUrl();
        } catch (IllegalArgumentException e) { // an empty --base-url: the other rules depend on the target
            problems.add(e.getMessage());
            return new ResolvedRun(null, null);
        }
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
            config = req.adjust().apply(ro.toConfig(req.sim()));
            // from here on the console masks the run's secrets as its events do
            ConsoleMask.add(RunSecrets.of(config, env));
            problems.addAll(config.validate(env));
            String files = OpenFileLimit.problem(config.load(), ro.baseUrl() == null);
            if (files != null) {
                problems.add(files);
            }
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        for (String slo : ro.slos()) {
            try {
                SloParser.parse(slo);
            } catch (SloParseException e) {
                problems.add("--slo: " + e.getMessage());
            }
        }
        return new ResolvedRun(config, simCfg);
    }

    /**
     * Installs a JVM shutdown hook (SIGINT/SIGTERM) running {@code body}: it asks the command to stop, waits a bounded
     * time, and prints one line saying what was left undone when the bound is hit.
     *
     * @param name thread name
     * @param body the hook's work; not null
     * @return the hook, for {@link #removeStopHook(Thread)}
     */
    public static Thread addStopHook(String name, BoundedStop body) {
        Thread hook = new Thread(body, name);
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
     * @param kafka client settings of a running Kafka
     * @param runId the run id
     * @return whether {@code capstream.reports} holds a (non-deleted) report keyed {@code runId}; false when
     *         the topic does not exist or cannot be read (the check only warns)
     */
    public static boolean reportExists(KafkaClientProperties kafka, String runId) {
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

    /**
     * @param e an exception, perhaps wrapped in {@link CompletionException}/{@link ExecutionException}
     * @return the innermost message (or the exception's name)
     */
    public static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
