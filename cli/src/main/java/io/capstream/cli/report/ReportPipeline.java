package io.capstream.cli.report;

import io.capstream.aggregator.report.ReportTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsRuntime;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.runtime.StreamsStartException;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.aggregator.sweep.SweepTopology;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.stack.AggregatorChoice;
import io.capstream.cli.stack.LocalStack;
import io.capstream.cli.stack.ThrowawayApplicationId;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.SchemaRegistryClient;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.PrintWriter;
import io.capstream.schemas.text.DurationLabel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code import} and {@code replay} need to turn events into reports: a Kafka cluster (an
 * embedded broker when no bootstrap servers are given, with the in-memory registry), capstream's
 * topics, the report topology running in this JVM (unless disabled, or on a shared Kafka while a
 * {@code capstream aggregate} service runs there: see {@link AggregatorChoice}), an idempotent
 * {@code acks=all} producer for events, and a {@link ReportWaiter} on {@code capstream.reports}.
 * Close it to stop everything it started (broker, Streams, clients, temp state directory) and, on
 * a shared Kafka, to delete the internal topics and the group of a throwaway application id
 * ({@link ThrowawayApplicationId}).
 */
public final class ReportPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReportPipeline.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    /** Bound of the deletion of a throwaway application's topics and group on a shared Kafka. */
    private static final Duration CLEANUP_TIMEOUT = Duration.ofSeconds(15);

    private final ReportPipelineConfig config;
    private final Consumer<String> notices;
    private ThrowawayApplicationId throwawayId;
    private EmbeddedKafka broker;
    private String bootstrap;
    private String registryUrl;
    private StreamsRuntime runtime;
    private KafkaProducer<String, RunEvent> eventProducer;
    private KafkaProducer<String, BenchmarkReport> reportProducer;
    private ReportWaiter waiter;

    private ReportPipeline(ReportPipelineConfig config, Consumer<String> notices) {
        this.config = config;
        this.notices = notices;
    }

    /**
     * Starts everything and returns once the report topology is running; notices go to the log.
     *
     * @param config settings; not null
     * @return the running pipeline
     * @throws IllegalStateException when the broker or the Streams application cannot start
     */
    public static ReportPipeline start(ReportPipelineConfig config) {
        return start(config, LOG::info);
    }

    /**
     * Starts everything and returns once the report topology is running (or, on a shared Kafka, once
     * it is decided that a running {@code capstream aggregate} makes the reports).
     *
     * @param config  settings; not null
     * @param notices receives one-line notices without a command prefix: where the reports come from
     *                (on a shared Kafka with an {@code aggregatorGroup}) and, on close, a cleanup that
     *                failed ({@code warning: ...}); not null
     * @return the running pipeline
     * @throws IllegalStateException when the broker or the Streams application cannot start
     */
    public static ReportPipeline start(ReportPipelineConfig config, Consumer<String> notices) {
        ReportPipeline p = new ReportPipeline(config, Objects.requireNonNull(notices, "notices"));
        try {
            p.doStart();
            return p;
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /**
     * {@link #start(ReportPipelineConfig, Consumer)} for a command: each notice is printed (and flushed) as
     * {@code capstream <command>: <notice>}.
     *
     * @param config  settings; not null
     * @param command the command's name, e.g. {@code "import"}; not null
     * @param err     where notices go (the command's stderr); not null
     * @return the running pipeline
     * @throws IllegalStateException when the broker or the Streams application cannot start
     */
    public static ReportPipeline start(ReportPipelineConfig config, String command, PrintWriter err) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(err, "err");
        return start(config, n -> {
            err.println("capstream " + command + ": " + n);
            err.flush();
        });
    }

    private void doStart() {
        if (config.embedded()) {
            broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
            bootstrap = broker.bootstrapServers();
            registryUrl = config.schemaRegistryUrl() != null ? config.schemaRegistryUrl()
                    : "mock://capstream-" + UUID.randomUUID();
        } else {
            bootstrap = config.kafka().bootstrapServers();
            registryUrl = config.schemaRegistryUrl() != null ? config.schemaRegistryUrl() : "mock://capstream";
            // one line within KafkaReachability.TIMEOUT, instead of the admin client's minute-long retries; then the
            // registry (a real one: the events are encoded and the reports decoded with it), as every command
            String unreachable = ConnectionChecks.kafkaThenRegistry(config.kafka(), registryUrl,
                    config.registryClient());
            if (unreachable != null) {
                throw new IllegalStateException(unreachable);
            }
        }
        var kafka = config.kafka().withBootstrapServers(bootstrap);
        TopicSetup.ensureTopics(bootstrap, config.kafka().userProperties(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
        SchemaRegistryClient registry = SchemaRegistryClients.forUrl(registryUrl, config.registryClient());

        waiter = new ReportWaiter(kafka.consumer(Map.of()), Topics.REPORTS,
                valueSerde(BenchmarkReport.class, registry).deserializer(), Topics.REPORT_CHUNKS,
                valueSerde(io.capstream.schemas.avro.ReportChunk.class, registry).deserializer());
        Map<String, Object> producerProps = kafka.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.LINGER_MS_CONFIG, "5"));
        eventProducer = new KafkaProducer<>(producerProps, new StringSerializer(),
                valueSerde(RunEvent.class, registry).serializer());
        reportProducer = new KafkaProducer<>(producerProps, new StringSerializer(),
                valueSerde(BenchmarkReport.class, registry).serializer());

        if (config.inProcessAggregator() && !config.embedded() && config.aggregatorGroup() != null) {
            AggregatorChoice choice = AggregatorChoice.probe(kafka, config.aggregatorGroup(), registryUrl,
                    AggregatorChoice.PROBE_TIMEOUT);
            notices.accept(choice.line());
            if (choice.useRunning()) {
                return;
            }
        }
        if (config.inProcessAggregator()) {
            String applicationId = config.applicationId();
            if (applicationId == null) {
                throwawayId = ThrowawayApplicationId.create(ReportPipelineConfig.DEFAULT_APPLICATION_ID);
                applicationId = throwawayId.value();
            }
            ReportTopologyConfig topologyConfig = ReportTopologyConfig.defaults(registryUrl)
                    .withIncompleteDeadline(config.incompleteDeadline()).withRegistryClient(config.registryClient())
                    .withSloParser(ReportSlos::parse);
            // no state directory given: the runtime uses a temp one, deleted on close
            StreamsSettings settings = StreamsSettings.defaults(applicationId, bootstrap, config.stateDir())
                    .withExtra(config.kafka().userProperties());
            if (!config.embedded()) {
                // On a shared Kafka, aggregate only the events this command produces: without this the
                // group would start at the earliest offset (or its last commit) and publish a second
                // report for every past run, and the sweep path a curve for every past sweep (the same
                // mechanism as 'capstream run').
                try {
                    LocalStack.startAtEnd(kafka, applicationId, java.util.List.of(Topics.EVENTS, Topics.REPORTS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while preparing the report topology", e);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot move the report topology (" + applicationId
                            + ") to the end of " + Topics.EVENTS + ": " + e, e);
                }
            }
            // Closing leaves the group so that the next command with the same application id starts without
            // waiting for this member's session to time out (45 s), and so that a throwaway group is empty and
            // can be deleted; a throwaway id's local state is of no use after this pipeline, whatever the
            // state directory.
            // the sweep path too: a replayed sweep (replay --sweep-id) gets its curve on capstream.sweeps
            runtime = StreamsRuntime.create(SweepTopology.buildWithReports(topologyConfig), settings,
                    StreamsRuntime.Options.named("report aggregator").withTempStateDir()
                            .withCleanUpOnClose(config.stateDir() == null || throwawayId != null));
            waiter.failWhen(runtime::failure);
            runtime.start();
            awaitRunning();
        }
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> SpecificAvroSerde<T> valueSerde(Class<T> type,
            SchemaRegistryClient registry) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type).withClient(registry, false);
        serde.configure(Map.of(), false);
        return serde;
    }

    private void awaitRunning() {
        try {
            runtime.awaitRunning(STARTUP_TIMEOUT);
        } catch (StreamsStartException e) {
            throw new IllegalStateException(e.timedOut()
                    ? "the report topology did not start within " + DurationLabel.of(STARTUP_TIMEOUT)
                    : "the report topology stopped while starting: " + e.state(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the report topology", e);
        }
    }

    /** @return the bootstrap servers in use (the embedded broker's when embedded) */
    public String bootstrapServers() {
        return bootstrap;
    }

    /** @return the registry URL in use */
    public String schemaRegistryUrl() {
        return registryUrl;
    }

    /** @return the registry client settings (credentials, timeouts) of every registry client */
    public io.capstream.schemas.registry.RegistryClientConfig registryClient() {
        return config.registryClient();
    }

    /** @return the client settings with the bootstrap servers in use */
    public io.capstream.cli.options.KafkaClientProperties kafka() {
        return config.kafka().withBootstrapServers(bootstrap);
    }

    /**
     * Registers interest in a run's report; call before {@link #sendEvents}.
     *
     * @param runId run id
     * @return completes with the run's next report
     */
    public CompletableFuture<BenchmarkReport> expectReport(String runId) {
        return waiter.expect(runId);
    }

    /**
     * Waits for a report registered with {@link #expectReport}; the run is then {@link #forget forgotten}, whether
     * its report came within the timeout or not.
     *
     * @param runId    the run id given to {@link #expectReport}; not null
     * @param report   what {@link #expectReport} returned; not null
     * @param timeout  how long to wait (e.g. {@code --timeout}); not null
     * @param what     the run in the timeout message, e.g. {@code "run <id>"} or {@code "replay <id>"}; not null
     * @param problems gets one line when no report came: {@code "no report for <what> within <s> s"}, the
     *                 failure's message (e.g. the aggregator stopped), or {@code "interrupted"} (the thread's
     *                 interrupt flag is set again); not null
     * @return the report, or null when it did not come
     */
    public BenchmarkReport awaitReport(String runId, CompletableFuture<BenchmarkReport> report, Duration timeout,
                                       String what, Consumer<String> problems) {
        try {
            BenchmarkReport got = report.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            forget(runId);
            return got;
        } catch (TimeoutException e) {
            forget(runId);
            problems.accept("no report for " + what + " within " + DurationConverter.secondsText(timeout) + " s");
        } catch (ExecutionException e) {
            problems.accept(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.accept("interrupted");
        }
        return null;
    }

    /** @param runId run id no longer waited for (e.g. after a timeout) */
    public void forget(String runId) {
        waiter.forget(runId);
    }

    /**
     * Produces events (key = run id) in order and waits until the broker acknowledged all of them.
     *
     * @param events events; not null
     * @throws IllegalStateException when an event cannot be delivered
     */
    public void sendEvents(List<RunEvent> events) {
        List<java.util.concurrent.Future<?>> acks = new java.util.ArrayList<>(events.size());
        for (RunEvent e : events) {
            acks.add(eventProducer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(), e)));
        }
        eventProducer.flush();
        awaitAll(acks);
    }

    /**
     * Publishes a report as is (key = run id) to {@code capstream.reports}.
     *
     * @param report the report
     */
    public void publishReport(BenchmarkReport report) {
        awaitAll(List.of(reportProducer.send(new ProducerRecord<>(Topics.REPORTS, report.getRunId(), report))));
    }

    private static void awaitAll(List<? extends java.util.concurrent.Future<?>> acks) {
        for (var f : acks) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not accept a record: " + e.getCause().getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while producing", e);
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(waiter);
        closeQuietly(eventProducer);
        closeQuietly(reportProducer);
        // Streams (leaving its group), its local state and its temp state directory
        closeQuietly(runtime);
        if (throwawayId != null && !config.embedded()) {
            String problem = throwawayId.deleteLeftovers(kafka(), CLEANUP_TIMEOUT);
            if (problem != null) {
                notices.accept("warning: could not delete the Kafka topics and group of " + throwawayId + " ("
                        + problem + ")");
            }
        }
        closeQuietly(broker);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("error while closing {}", c.getClass().getSimpleName(), e);
        }
    }
}
