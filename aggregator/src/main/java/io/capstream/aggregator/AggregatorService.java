package io.capstream.aggregator;

import io.capstream.aggregator.api.AdvertisedUrl;
import io.capstream.aggregator.api.AlertStateCollector;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.api.ApiServer;
import io.capstream.aggregator.api.MonitoringMetrics;
import io.capstream.aggregator.api.StreamsInstanceLocator;
import io.capstream.aggregator.api.StreamsQueryService;
import io.capstream.aggregator.events.EventPartitions;
import io.capstream.aggregator.events.RegistryOutageThreadHandler;
import io.capstream.aggregator.events.RegistryProbe;
import io.capstream.aggregator.otlp.OtlpConfig;
import io.capstream.aggregator.otlp.OtlpConfigException;
import io.capstream.aggregator.otlp.OtlpExport;
import io.capstream.aggregator.runtime.StreamsRuntime;
import io.capstream.aggregator.runtime.StreamsSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
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
 * down. {@code /ready} is false while the schema registry gives no answer: to a record waiting for it
 * (the events decoder, the reports read back) or to the {@link RegistryProbe} that asks it every 5 s
 * (both report to the {@code RegistryHealth} of {@code config.report()}). The Streams application's lifecycle is owned by a
 * {@link StreamsRuntime}.
 *
 * <p>With an {@link OtlpConfig}, the closed windows' totals are also exported over OTLP/HTTP ({@link OtlpExport},
 * started after Streams; its last export runs on {@link #close()}, after Streams has closed).
 *
 * <p>Several instances with the same application id share the partitions (Kafka Streams' group
 * protocol); each advertises its API as {@code application.server} and the API answers for every run
 * and window from any instance ({@link ApiServer}: keyed lookups forwarded to the owner, range queries
 * merged). {@code /metrics} stays per instance.
 */
public final class AggregatorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AggregatorService.class);
    /**
     * Bound of Kafka Streams' close, 8 s: a healthy broker commits and leaves the group well within it; a broker that
     * has gone no longer holds a stop for Streams' default 30 s.
     */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(8);

    private final StreamsRuntime runtime;
    private final MonitoringMetrics metrics;
    private final ApiServer api;
    private final AdvertisedUrl advertised;
    private final RegistryProbe probe;
    private final OtlpExport otlp;
    private volatile Step closing = Step.NOT_CLOSING;

    private AggregatorService(StreamsRuntime runtime, MonitoringMetrics metrics, ApiServer api, AdvertisedUrl advertised,
                              RegistryProbe probe, OtlpExport otlp) {
        this.probe = probe;
        this.otlp = otlp;
        this.runtime = runtime;
        this.metrics = metrics;
        this.api = api;
        this.advertised = advertised;
    }

    /**
     * Starts the HTTP API when {@code apiConfig} is not null, then Streams. The API's advertised address
     * ({@link ApiConfig#advertisedOr}: the configured one, else the bind address and the actual port) becomes
     * Streams' {@code application.server}, so that instances sharing the application id forward queries to each
     * other ({@link StreamsInstanceLocator}); it replaces an {@code application.server} in the settings' extras.
     *
     * @param config    topology settings; not null
     * @param settings  Streams settings (application id, bootstrap servers, ...); not null
     * @param apiConfig HTTP bind address, port and advertised address, or null for no API
     * @return the running service
     * @throws IllegalStateException when the API port cannot be bound
     * @throws org.apache.kafka.common.KafkaException when the Streams settings are invalid (the API is closed again)
     */
    public static AggregatorService start(AggregatorConfig config, StreamsSettings settings, ApiConfig apiConfig) {
        return start(config, settings, apiConfig, null);
    }

    /**
     * Like {@link #start(AggregatorConfig, StreamsSettings, ApiConfig)}, and with {@code otlpConfig} the OTLP metrics
     * export, started once Streams is.
     *
     * @param config     topology settings; not null
     * @param settings   Streams settings; not null
     * @param apiConfig  HTTP API settings, or null for no API
     * @param otlpConfig OTLP export settings, or null for no export
     * @return the running service
     * @throws OtlpConfigException when the OpenTelemetry settings ({@code OTEL_*}) are unusable (everything started is
     *                             closed again)
     * @throws IllegalStateException when the API port cannot be bound
     * @throws org.apache.kafka.common.KafkaException when the Streams settings are invalid
     */
    public static AggregatorService start(AggregatorConfig config, StreamsSettings settings, ApiConfig apiConfig,
                                          OtlpConfig otlpConfig) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(settings, "settings");
        MonitoringMetrics metrics = new MonitoringMetrics(config.slo().slos(), Clock.systemUTC());
        // issue 32: firing alerts as the capstream_alerts state gauge on /metrics
        AlertStateCollector alertStates = new AlertStateCollector();
        metrics.registry().getPrometheusRegistry().register(alertStates);
        AggregatorConfig withAlertStates = config.withSlo(config.slo().withListener(
                config.slo().listener().andThen(alertStates)));
        ApiServer api = null;
        AdvertisedUrl advertised = null;
        StreamsSettings effective = settings;
        StreamsRuntime runtime = null;
        RegistryProbe probe = null;
        OtlpExport otlp = null;
        try {
            // /ready follows the registry even while no record waits for it
            probe = RegistryProbe.forUrl(config.report().schemaRegistryUrl(), config.report().registryClient(),
                    config.report().registryHealth());
            if (probe != null) {
                probe.start(RegistryProbe.DEFAULT_PERIOD);
            }
            if (apiConfig != null) {
                // listen first: application.server must name the actual port (the configured one may be 0)
                api = ApiServer.listen(apiConfig, metrics, config.slo().slos());
                advertised = apiConfig.advertisedOr(api.port());
                Map<String, String> extra = new HashMap<>(settings.extra());
                extra.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertised.endpoint());
                effective = settings.withExtra(extra);
            }
            Topology topology = AggregatorTopology.build(withInputPartitions(withAlertStates, effective), metrics,
                    metrics, metrics::changePoint);
            // the runtime installs the handler: a registry outage replaces the thread, anything else stops the application
            runtime = StreamsRuntime.create(topology, effective, StreamsRuntime.Options.named("aggregator")
                    .withCloseTimeout(CLOSE_TIMEOUT)
                    .withListener((now, before) -> LOG.info("aggregator streams state {} -> {}", before, now)));
            metrics.bindStreams(runtime.streams());
            if (api != null) {
                api.serve(new StreamsQueryService(runtime.streams(), config.report().registryHealth()),
                        new StreamsInstanceLocator(runtime.streams(), advertised));
            }
            runtime.start();
            if (otlpConfig != null) {
                otlp = OtlpExport.start(otlpConfig, metrics.totals()::snapshot, Clock.systemUTC());
            }
        } catch (RuntimeException e) {
            if (probe != null) {
                probe.close();
            }
            if (api != null) {
                api.close();
            }
            if (runtime != null) {
                runtime.close();
            }
            metrics.close();
            throw e;
        }
        return new AggregatorService(runtime, metrics, api, advertised, probe, otlp);
    }

    /**
     * The window step closes a window only when every partition of the events topic has reported its progress;
     * it needs to know how many there are (without, a backlog may lose requests in its first seconds).
     */
    private static AggregatorConfig withInputPartitions(AggregatorConfig config, StreamsSettings settings) {
        if (config.window().inputPartitions() > 0) {
            return config;
        }
        String topic = config.report().eventsSource().eventsTopic();
        int partitions;
        try {
            partitions = EventPartitions.count(settings.toProperties(), topic, Duration.ofSeconds(15));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            partitions = 0;
        }
        if (partitions == 0) {
            LOG.warn("could not tell how many partitions {} has: windows close once the partitions that reported "
                    + "have passed them (a backlog may lose requests in its first seconds, counted in late_dropped)",
                    topic);
            return config;
        }
        return new AggregatorConfig(config.report(), config.window().withInput(partitions, config.window().sourceIdle()),
                config.slo());
    }

    /** @return the HTTP port, or -1 without API */
    public int httpPort() {
        return api == null ? -1 : api.port();
    }

    /**
     * @return the address other instances reach this one's API under (its {@code application.server}), or null
     *         without API
     */
    public AdvertisedUrl advertisedUrl() {
        return advertised;
    }

    /** @return the OTLP export, or null without one */
    public OtlpExport otlpExport() {
        return otlp;
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
     * {@code capstream run} on the same Kafka no longer sees a running aggregator. Then the OTLP export sends the
     * totals one last time (the windows closed since its last export) and stops.
     */
    @Override
    public void close() {
        closing = Step.API;
        if (api != null) {
            api.close();
        }
        closing = Step.STREAMS;
        runtime.close();
        closing = Step.OTLP;
        if (otlp != null) {
            otlp.close();
        }
        closing = Step.REST;
        if (probe != null) {
            probe.close();
        }
        metrics.close();
        closing = Step.DONE;
    }

    /**
     * What a {@link #close()} still in progress (e.g. cut short by a shutdown bound while the broker has gone) has not
     * yet flushed or committed, or what a finished one left uncommitted (Kafka Streams' close ran out of
     * {@link #CLOSE_TIMEOUT}).
     *
     * @return one clause for a console line, or null when the close has finished cleanly (or has not begun)
     */
    public String unfinishedClose() {
        String lastExport = otlp == null ? "" : "; the last OTLP export was not sent";
        return switch (closing) {
            case API, STREAMS -> "Kafka Streams did not finish closing: the input offsets and state since its last"
                    + " commit were not committed (they are processed again at the next start)" + lastExport;
            case OTLP -> lastExport.isEmpty() ? null : lastExport.substring(2);
            case REST, DONE -> runtime.closeCompleted() ? null : "Kafka Streams did not close within "
                    + CLOSE_TIMEOUT.toSeconds() + " s: the input offsets and state since its last commit may not be"
                    + " committed (they are processed again at the next start)";
            case NOT_CLOSING -> null;
        };
    }

    /** The step {@link #close()} is at. */
    private enum Step { NOT_CLOSING, API, STREAMS, OTLP, REST, DONE }
}
