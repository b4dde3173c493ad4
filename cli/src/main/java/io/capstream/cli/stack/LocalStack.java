package io.capstream.cli.stack;

import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsRuntime;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.runtime.StreamsStartException;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.aggregator.sweep.SweepTopology;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The in-process parts of {@code capstream run}: a Vert.x instance, optionally the simulated
 * engine, optionally the embedded Kafka broker (with every capstream topic), and optionally the
 * report topology (with the sweep path, {@code SweepTopology#buildWithReports}) as a Kafka Streams
 * application. On a shared Kafka the report topology is not
 * started while a {@code capstream aggregate} service runs there ({@link AggregatorChoice}): the
 * service publishes the report, once. {@link #close()} stops everything in reverse order and leaves
 * no threads or temp directories behind, and on a shared Kafka none of the in-process topology's
 * internal topics and no consumer group of it ({@link ThrowawayApplicationId}).
 */
public final class LocalStack implements AutoCloseable {
    /** How long the Streams application may take to reach RUNNING. */
    private static final Duration STREAMS_START_TIMEOUT = Duration.ofSeconds(60);
    /** How long the Streams application may take to close (leaving its group). */
    private static final Duration STREAMS_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** Bound of the deletion of the in-process topology's topics and group on a shared Kafka. */
    private static final Duration CLEANUP_TIMEOUT = Duration.ofSeconds(15);
    /** What the in-process report topology is called in messages. */
    private static final String AGGREGATOR_NAME = "report aggregator";
    /** The step of {@link #startKafka(PrintStream, Consumer)} that starts the embedded broker. */
    public static final String STEP_BROKER = "starting the embedded Kafka broker";
    /** The step that creates capstream's topics. */
    public static final String STEP_TOPICS = "creating the topics";
    /** The step that looks for a running {@code capstream aggregate} on a shared Kafka. */
    public static final String STEP_AGGREGATOR_PROBE = "looking for a running capstream aggregate";
    /** The step that starts the in-process report aggregator. */
    public static final String STEP_AGGREGATOR = "starting the report aggregator";

    private final Vertx vertx;
    private final List<AutoCloseable> closers = new ArrayList<>();
    private SimEngine sim;
    private EmbeddedKafka broker;
    private KafkaClientProperties kafka;
    private String schemaRegistryUrl;
    private RegistryClientConfig registryClient = RegistryClientConfig.defaults();
    /** The in-process report topology, or null (not started, or a running {@code capstream aggregate} reports). */
    private volatile StreamsRuntime aggregator;
    private String runningAggregatorGroup;
    private StackConfig config;
    private boolean kafkaStarted;

    private LocalStack(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Starts the configured parts. On failure everything already started is stopped.
     *
     * @param cfg what to start
     * @param log where to print one line per started part (stderr)
     * @return the running stack
     * @throws Exception when a part cannot start (port in use, broker failure, Streams timeout)
     */
    public static LocalStack start(StackConfig cfg, PrintStream log) throws Exception {
        // the Linux epoll transport when it loads (NIO elsewhere): interleaved bench/fidelity runs at 256 streams
        // on one core took 3.8-4.4 s of event-loop CPU with it against 5.0-5.1 s with NIO
        // its client connections stamped for the requests' DNS, connect and TLS phases (issue 30)
        Vertx vertx = io.capstream.loadgen.client.TimedTransport.vertx(
                new VertxOptions().setBlockedThreadCheckInterval(10_000).setPreferNativeTransport(true));
        LocalStack stack = new LocalStack(vertx);
        try {
            stack.startParts(cfg, log);
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private void startParts(StackConfig cfg, PrintStream log) throws Exception {
        if (cfg.sim() != null) {
            // the engine gets event loops of its own: its work (parsing prompts, the prefix cache) must not hold
            // up the threads that stamp the client's chunks (it delayed them by up to ~10 ms at p99 when shared)
            Vertx simVertx = Vertx.vertx(new VertxOptions().setBlockedThreadCheckInterval(10_000)
                    .setPreferNativeTransport(true));
            closers.add(() -> simVertx.close().await(10, TimeUnit.SECONDS));
            sim = SimEngine.start(simVertx, cfg.sim()).await(30, TimeUnit.SECONDS);
            closers.add(sim);
            log.println("capstream: simulated engine (capstream-sim) at " + sim.baseUrl());
        }
        kafka = cfg.kafka();
        schemaRegistryUrl = cfg.schemaRegistryUrl();
        registryClient = cfg.registryClient();
        config = cfg;
        if (cfg.embeddedKafka() && cfg.kafkaAtEnd()) {
            preloadShutdownHookClasses();
            log.println("capstream: the embedded Kafka and the report aggregator start after the last request");
            return;
        }
        startKafka(log);
    }

    /**
     * Starts the Kafka parts: the embedded broker with every capstream topic (when no bootstrap
     * servers were given) and the in-process report topology (when configured and no running
     * {@code capstream aggregate} takes the run). Runs once: {@link #start} calls it unless the
     * configuration defers it ({@link StackConfig#kafkaAtEnd()}); later calls return at once.
     * Thread-safe.
     *
     * @param log where to print one line per started part (stderr)
     * @throws Exception when the broker or the aggregator cannot start
     */
    public synchronized void startKafka(PrintStream log) throws Exception {
        startKafka(log, step -> { });
    }

    /**
     * As {@link #startKafka(PrintStream)}, telling {@code step} what it starts before each part, so that a progress
     * line can name it: {@value #STEP_BROKER}, {@value #STEP_TOPICS}, {@value #STEP_AGGREGATOR_PROBE},
     * {@value #STEP_AGGREGATOR}.
     *
     * @param log  where to print one line per started part (stderr)
     * @param step receives each step as it begins (on this thread); not null
     * @throws Exception when the broker or the aggregator cannot start
     */
    public synchronized void startKafka(PrintStream log, Consumer<String> step) throws Exception {
        if (kafkaStarted) {
            return;
        }
        kafkaStarted = true;
        StackConfig cfg = config;
        if (cfg.embeddedKafka()) {
            step.accept(STEP_BROKER);
            broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
            closers.add(broker);
            kafka = kafka.withBootstrapServers(broker.bootstrapServers());
            step.accept(STEP_TOPICS);
            TopicSetup.ensureTopics(broker.bootstrapServers(), kafka.userProperties(), cfg.eventPartitions());
            log.println("capstream: embedded Kafka at " + broker.bootstrapServers());
        }
        if (cfg.aggregator()) {
            if (broker == null && cfg.aggregatorGroup() != null) {
                step.accept(STEP_AGGREGATOR_PROBE);
                AggregatorChoice choice = AggregatorChoice.probe(kafka, cfg.aggregatorGroup(), schemaRegistryUrl,
                        AggregatorChoice.PROBE_TIMEOUT);
                log.println("capstream: " + choice.line());
                if (choice.useRunning()) {
                    runningAggregatorGroup = choice.group();
                    return;
                }
            }
            if (broker == null) {
                step.accept(STEP_TOPICS);
                // a shared Kafka that never saw capstream (no 'capstream up' or 'aggregate' yet): create the
                // missing topics as import, replay and aggregate do, or Streams stops at once on a missing source
                Set<String> created = TopicSetup.ensureTopics(kafka.bootstrapServers(), kafka.userProperties(),
                        cfg.eventPartitions());
                if (!created.isEmpty()) {
                    log.println("capstream: created the missing topics " + String.join(", ", new TreeSet<>(created)));
                }
            }
            step.accept(STEP_AGGREGATOR);
            startAggregator(log);
        }
    }

    /**
     * Kafka classes whose static initialiser registers a JVM shutdown hook. A run stopped by SIGTERM
     * or SIGINT starts the embedded broker while the JVM is already shutting down, when
     * {@code Runtime.addShutdownHook} throws "Shutdown in progress": initialised now, they register
     * their hooks before that (no thread is started by them).
     */
    private static final List<String> SHUTDOWN_HOOK_CLASSES = List.of(
            "org.apache.kafka.server.metrics.KafkaYammerMetrics");

    private static void preloadShutdownHookClasses() throws ClassNotFoundException {
        for (String name : SHUTDOWN_HOOK_CLASSES) {
            Class.forName(name, true, LocalStack.class.getClassLoader());
        }
    }

    private void startAggregator(PrintStream log) throws Exception {
        ThrowawayApplicationId id = ThrowawayApplicationId.create("capstream-run");
        String appId = id.value();
        if (broker == null) {
            // a throwaway application on a shared Kafka: its changelog topics and its group (created by
            // startAtEnd below) are of no use after this run; runs after Streams has closed (closers run backwards)
            closers.add(() -> {
                String problem = id.deleteLeftovers(kafka, CLEANUP_TIMEOUT);
                if (problem != null) {
                    log.println("capstream: warning: could not delete the Kafka topics and group of " + appId + " ("
                            + problem + ")");
                }
            });
        }
        startAtEnd(kafka, appId, List.of(Topics.EVENTS, Topics.REPORTS));
        // no state directory: a temp one, deleted on close, that holds all of the application's local state
        StreamsSettings settings = StreamsSettings.defaults(appId, kafka.bootstrapServers(), null)
                .withExtra(kafka.userProperties());
        // closing leaves the group at once (Streams otherwise stays a member until its session times out), so
        // that the group is empty and can be deleted
        StreamsRuntime runtime = StreamsRuntime.create(
                SweepTopology.buildWithReports(ReportTopologyConfig.defaults(schemaRegistryUrl)
                        .withRegistryClient(registryClient).withSloParser(ReportSlos::parse)),
                settings, StreamsRuntime.Options.named(AGGREGATOR_NAME).withTempStateDir().withCleanUpOnClose(true)
                        .withCloseTimeout(STREAMS_CLOSE_TIMEOUT));
        closers.add(runtime);
        aggregator = runtime;
        runtime.start();
        try {
            runtime.awaitRunning(STREAMS_START_TIMEOUT);
        } catch (StreamsStartException e) {
            throw new IllegalStateException("the report aggregator did not start (state " + e.state() + ")", e);
        }
        log.println("capstream: report aggregator running (Kafka Streams " + appId + ")");
    }

    /**
     * Commits the Streams group's offsets at the current end of {@code capstream.events}, so that a
     * fresh in-process aggregator on a shared Kafka reads only this run's events, not the topic's history.
     * Used by {@code run} and by the report pipeline of {@code import} and {@code replay}.
     *
     * @param kafka   client settings (bootstrap servers, security)
     * @param groupId the Streams application id (= consumer group); must have no active member
     * @throws Exception when Kafka does not answer within 30 s or the group has active members
     */
    public static void startAtEnd(KafkaClientProperties kafka, String groupId) throws Exception {
        startAtEnd(kafka, groupId, List.of(Topics.EVENTS));
    }

    /**
     * Commits the Streams group's offsets at the current end of each topic, so that a fresh in-process
     * aggregator on a shared Kafka reads only what this process makes, not the topics' history (for
     * {@code run}: {@code capstream.events} for the reports, and {@code capstream.reports} for the sweep
     * curves, which would otherwise re-publish the curve of every past sweep). A topic that does not
     * exist is skipped.
     *
     * @param kafka   client settings (bootstrap servers, security)
     * @param groupId the Streams application id (= consumer group); must have no active member
     * @param topics  the source topics to start at their end; not null
     * @throws Exception when Kafka does not answer within 30 s or the group has active members
     */
    public static void startAtEnd(KafkaClientProperties kafka, String groupId, List<String> topics) throws Exception {
        try (Admin admin = Admin.create(kafka.admin())) {
            java.util.Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> present = topics.stream().filter(existing::contains).toList();
            if (present.isEmpty()) {
                return;
            }
            var desc = admin.describeTopics(present).allTopicNames().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            desc.forEach((topic, d) -> d.partitions()
                    .forEach(p -> specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
            var ends = admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            ends.forEach((tp, info) -> offsets.put(tp, new OffsetAndMetadata(info.offset())));
            admin.alterConsumerGroupOffsets(groupId, offsets).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** @return the Vert.x instance (closed by {@link #close()}) */
    public Vertx vertx() {
        return vertx;
    }

    /** @return the in-process simulated engine, or null */
    public SimEngine sim() {
        return sim;
    }

    /**
     * @return client settings with the bootstrap servers actually used (embedded or given); with
     *         {@link StackConfig#kafkaAtEnd()} the embedded broker's servers are null until
     *         {@link #startKafka} has run
     */
    public synchronized KafkaClientProperties kafka() {
        return kafka;
    }

    /** @return the registry URL */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    /** @return the registry client settings (credentials, timeouts) every registry client of the stack uses */
    public RegistryClientConfig registryClient() {
        return registryClient;
    }

    /** @return why the in-process aggregator stopped, or null while it runs (or when there is none) */
    public String aggregatorFailure() {
        StreamsRuntime runtime = aggregator;
        return runtime == null ? null : runtime.failure();
    }

    /**
     * @return the group of the running {@code capstream aggregate} service whose report this run waits
     *         for instead of aggregating in-process, or null when the report is made in this process (or
     *         there is no aggregator)
     */
    public synchronized String runningAggregatorGroup() {
        return runningAggregatorGroup;
    }

    /** @return true once {@link #startKafka} has run (at start, unless {@link StackConfig#kafkaAtEnd()}) */
    public synchronized boolean kafkaStarted() {
        return kafkaStarted;
    }

    /** @return true when the broker is (or, with {@link StackConfig#kafkaAtEnd()}, will be) the embedded one */
    public boolean embeddedKafka() {
        return config.embeddedKafka();
    }

    /**
     * Stops Streams, the broker, the engine and Vert.x, in reverse start order (after a
     * {@link #startKafka} in progress on another thread has ended). Idempotent.
     */
    @Override
    public synchronized void close() {
        for (int i = closers.size() - 1; i >= 0; i--) {
            try {
                closers.get(i).close();
            } catch (Exception e) {
                System.err.println("capstream: while stopping: " + e);
            }
        }
        closers.clear();
        try {
            vertx.close().await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("capstream: while stopping Vert.x: " + e);
        }
    }
}
