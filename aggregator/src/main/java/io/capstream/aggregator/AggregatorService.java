package io.capstream.aggregator;

import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.api.ApiServer;
import io.capstream.aggregator.api.MonitoringMetrics;
import io.capstream.aggregator.api.StreamsQueryService;
import io.capstream.aggregator.events.RegistryOutageThreadHandler;
import io.capstream.aggregator.runtime.StreamsRuntime;
import java.time.Duration;
import java.util.Objects;
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
 * {@code RegistryHealth} of {@code config.report()}). The Streams application's lifecycle is owned by a
 * {@link StreamsRuntime}.
 */
public final class AggregatorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AggregatorService.class);

    private final StreamsRuntime runtime;
    private final MonitoringMetrics metrics;
    private final ApiServer api;

    private AggregatorService(StreamsRuntime runtime, MonitoringMetrics metrics, ApiServer api) {
        this.runtime = runtime;
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
        // the runtime installs the handler: a registry outage replaces the thread, anything else stops the application
        StreamsRuntime runtime = StreamsRuntime.create(topology, settings, StreamsRuntime.Options.named("aggregator")
                .withListener((now, before) -> LOG.info("aggregator streams state {} -> {}", before, now)));
        metrics.bindStreams(runtime.streams());
        ApiServer api = null;
        if (apiConfig != null) {
            try {
                api = ApiServer.start(apiConfig, new StreamsQueryService(runtime.streams(),
                        config.report().registryHealth()), metrics);
            } catch (RuntimeException e) {
                runtime.close();
                metrics.close();
                throw e;
            }
        }
        runtime.start();
        return new AggregatorService(runtime, metrics, api);
    }

    /** @return the HTTP port, or -1 without API */
    public int httpPort() {
        return api == null ? -1 : api.port();
    }

    /** @return the Streams state */
    public KafkaStreams.State state() {
        return runtime.state();
    }

    /** @return the Kafka Streams instance (for queries in tests) */
    public KafkaStreams streams() {
        return runtime.streams();
    }

    /**
     * Waits until Streams stops by itself (error) or the timeout passes.
     *
     * @param timeout how long to wait
     * @return true when Streams stopped
     * @throws InterruptedException when interrupted
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return runtime.awaitStopped(timeout);
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
        runtime.close();
        metrics.close();
    }
}
