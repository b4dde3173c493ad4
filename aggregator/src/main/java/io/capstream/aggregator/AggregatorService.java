package io.capstream.aggregator;

import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.api.ApiServer;
import io.capstream.aggregator.api.MonitoringMetrics;
import io.capstream.aggregator.api.StreamsQueryService;
import io.capstream.aggregator.events.RegistryOutageThreadHandler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-running aggregator: one Kafka Streams application running {@link AggregatorTopology}
 * (reports, windowed summaries, SLO alerts) plus the HTTP API and Prometheus metrics
 * ({@link ApiServer}). {@link #close()} stops the API, then Streams (committing its state).
 *
 * <p>A stream thread stopped by a schema registry outage is replaced and reads on from the last
 * commit ({@link RegistryOutageThreadHandler}); any other stream-thread failure shuts the application
 * down. {@code /ready} is false while the events decoder waits for the registry (the
 * {@code RegistryHealth} of {@code config.report()}).
 */
public final class AggregatorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AggregatorService.class);

    private final KafkaStreams streams;
    private final MonitoringMetrics metrics;
    private final ApiServer api;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private AggregatorService(KafkaStreams streams, MonitoringMetrics metrics, ApiServer api) {
        this.streams = streams;
        this.metrics = metrics;
        this.api = api;
    }

    /**
     * Starts Streams and, when {@code apiConfig} is not null, the HTTP API.
     *
     * @param config    topology settings; not null
     * @param settings  Streams settings (application id, bootstrap servers, ...); not null
     * @param apiConfig HTTP bind address and port, or null for no API
     * @return the running service
     * @throws IllegalStateException when the API port cannot be bound (Streams is closed again)
     */
    public static AggregatorService start(AggregatorConfig config, StreamsSettings settings, ApiConfig apiConfig) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(settings, "settings");
        MonitoringMetrics metrics = new MonitoringMetrics();
        Topology topology = AggregatorTopology.build(config, metrics);
        KafkaStreams streams = new KafkaStreams(topology, settings.toProperties());
        metrics.bindStreams(streams);
        ApiServer api = null;
        if (apiConfig != null) {
            try {
                api = ApiServer.start(apiConfig, new StreamsQueryService(streams, config.report().registryHealth()), metrics);
            } catch (RuntimeException e) {
                streams.close(Duration.ofSeconds(5));
                metrics.close();
                throw e;
            }
        }
        AggregatorService service = new AggregatorService(streams, metrics, api);
        // a registry outage replaces the thread (it reads on from the last commit); anything else stops the application
        streams.setUncaughtExceptionHandler(RegistryOutageThreadHandler.elseShutdownClient());
        streams.setStateListener((now, before) -> {
            LOG.info("aggregator streams state {} -> {}", before, now);
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                service.stopped.countDown();
            }
        });
        streams.start();
        return service;
    }

    /** @return the HTTP port, or -1 without API */
    public int httpPort() {
        return api == null ? -1 : api.port();
    }

    /** @return the Streams state */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /** @return the Kafka Streams instance (for queries in tests) */
    public KafkaStreams streams() {
        return streams;
    }

    /**
     * Waits until Streams stops by itself (error) or the timeout passes.
     *
     * @param timeout how long to wait
     * @return true when Streams stopped
     * @throws InterruptedException when interrupted
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the API, then Streams: it commits and leaves its consumer group at once, so that another
     * instance takes over its partitions without waiting for the session timeout (45 s), and
     * {@code capstream run} on the same Kafka no longer sees a running aggregator.
     */
    @Override
    public void close() {
        if (api != null) {
            api.close();
        }
        streams.close(CloseOptions
                .groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        metrics.close();
        stopped.countDown();
    }
}
