package io.capstream.cli.distributed;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.servermetrics.ServerMetricsPublisher;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunPlanner;
import io.capstream.loadgen.run.RunSecrets;
import io.capstream.loadgen.run.ShareAssignment;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Executes one {@link WorkerShare} on a worker: rebuilds the run's {@link RunConfig}
 * ({@link WorkerShares#toConfig}), checks it (the API key variable must exist here), rebuilds the plan
 * from RunStarted's window without probing and checks it against RunStarted's context plan, converts
 * the shared start instant to this clock with the given {@link ClockOffset}, runs the share
 * ({@link LoadGenerator#runShare}) into its own {@link KafkaEventSink} and closes it. A share found
 * unusable sends nothing (the run's report then lists its indices as missing). Thread-safe.
 */
public final class ShareRunner {
    /** A share whose start instant passed longer ago than this is not run (a late reassignment), ms. */
    public static final long STALE_MS = 30_000;
    private static final Duration SINK_CLOSE = Duration.ofSeconds(30);
    private final Vertx vertx;
    private final KafkaClientProperties kafka;
    private final String registryUrl;
    private final RegistryClientConfig registryClient;
    private final Function<String, String> env;
    private final java.io.PrintStream log;
    private final CapClock clock;

    /**
     * @param vertx          the Vert.x instance the requests run on (not closed here)
     * @param kafka          client settings with the bootstrap servers set
     * @param registryUrl    registry URL of the events' serde
     * @param registryClient registry client settings
     * @param env            environment lookup (for the API key variable)
     * @param log            notes (a share's server metrics that could not be sent)
     */
    public ShareRunner(Vertx vertx, KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registryClient,
                       Function<String, String> env, java.io.PrintStream log) {
        this(vertx, kafka, registryUrl, registryClient, env, log, CapClock.system());
    }

    /**
     * @param vertx          the Vert.x instance the requests run on (not closed here)
     * @param kafka          client settings with the bootstrap servers set
     * @param registryUrl    registry URL of the events' serde
     * @param registryClient registry client settings
     * @param env            environment lookup (for the API key variable)
     * @param log            notes (a share's server metrics that could not be sent)
     * @param clock          the clock of the stale-start check and of the share's run; not null
     */
    public ShareRunner(Vertx vertx, KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registryClient,
                       Function<String, String> env, java.io.PrintStream log, CapClock clock) {
        this.clock = clock;
        this.vertx = vertx;
        this.kafka = kafka;
        this.registryUrl = registryUrl;
        this.registryClient = registryClient;
        this.env = env;
        this.log = log;
    }

    /**
     * @param ws       the share; not null
     * @param workerId this worker's id (the events' worker_id)
     * @param offset   this worker's clock offset
     * @param control  early stop
     * @return the share's outcome; fails with {@link IllegalArgumentException} (nothing sent) when the share
     *         cannot run here (invalid config, missing API key variable, stale start, a different plan)
     */
    public CompletableFuture<RunOutcome> run(WorkerShare ws, String workerId, ClockOffset offset, RunControl control) {
        RunConfig config;
        try {
            config = WorkerShares.toConfig(ws, workerId);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<String> problems = new ArrayList<>(config.validate(env));
        long startLocalMs = offset.toLocal(ws.getStartAtBrokerEpochMs());
        long lateMs = clock.millis() - startLocalMs;
        if (lateMs > STALE_MS) {
            problems.add("its start instant passed " + lateMs / 1000 + " s ago");
        }
        if (!problems.isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(String.join("; ", problems)));
        }
        String keyEnv = config.target().apiKeyEnv();
        ApiKey key = keyEnv == null ? ApiKey.none() : ApiKey.fromEnv(keyEnv, env);
        return RunPlanner.complete(config, ws.getRunStarted().getMaxContextTokens(), key).thenCompose(plan -> {
            io.capstream.cli.config.ConsoleMask.add(RunSecrets.of(plan.config(), plan.apiKey()));
            if (!samePlan(plan, ws)) {
                return CompletableFuture.failedFuture(new IllegalArgumentException(
                        "the context plan rebuilt here differs from the coordinator's (another capstream version?)"));
            }
            ShareAssignment a = new ShareAssignment(WorkerShares.planShare(ws), Math.max(1, ws.getConcurrency()),
                    startLocalMs, offset.known() ? offset.offsetMs() : null, offset.known() ? offset.uncertaintyMs() : null);
            KafkaEventSink sink = new KafkaEventSink(KafkaSinkConfig.of(kafka.bootstrapServers(), registryUrl)
                    .withClientProperties(kafka.userProperties()).withRegistryClient(registryClient));
            CompletableFuture<RunOutcome> f;
            try {
                f = new LoadGenerator(vertx, env, clock).runShare(plan, a, sink, null, control);
            } catch (RuntimeException e) {
                sink.close(SINK_CLOSE);
                return CompletableFuture.failedFuture(e);
            }
            // off the event loop that completed the share: closing the sink and sending the scrapes block
            return f.whenCompleteAsync((o, e) -> {
                sink.close(SINK_CLOSE);
                if (o != null && o.serverMetrics() != null) {
                    try {
                        String why = ServerMetricsPublisher.publish(kafka, registryUrl, registryClient,
                                o.serverMetrics(), o.runId(), o.workerId(), config.target().baseUrl(), config.target().model(),
                                RunSecrets.of(plan.config(), plan.apiKey()));
                        if (why != null) {
                            log.println("capstream worker " + workerId + ": note: " + why);
                        }
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        });
    }

    private static boolean samePlan(RunPlan plan, WorkerShare ws) {
        int[] mine = plan.contextPlan().toArray();
        List<Integer> theirs = ws.getRunStarted().getPlannedContextTokens();
        if (mine.length != theirs.size()) {
            return false;
        }
        for (int i = 0; i < mine.length; i++) {
            if (mine[i] != theirs.get(i)) {
                return false;
            }
        }
        return true;
    }
}
