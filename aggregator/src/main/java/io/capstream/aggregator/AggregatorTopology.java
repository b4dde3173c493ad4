package io.capstream.aggregator;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.events.RegistryWaitingDeserializer;
import io.capstream.aggregator.report.ReportTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.change.ChangeTopology;
import io.capstream.aggregator.slo.SloTopology;
import io.capstream.aggregator.sweep.SweepTopology;
import io.capstream.aggregator.sweep.SweepTopologyConfig;
import io.capstream.aggregator.window.LateRequestListener;
import io.capstream.aggregator.window.WindowTopology;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The aggregator's one topology: the shared events source ({@link EventsSource}, with its
 * dead-letter topic) feeds both the per-run report path ({@link ReportTopology}) and the windowed
 * summaries ({@link WindowTopology}) with SLO alerts ({@link SloTopology}) and change points
 * ({@link ChangeTopology}, on {@code capstream.changes}). The reports topic is
 * also read back into the queryable store {@value #REPORTS_STORE} (key run id) for the HTTP API, and
 * the chunks of large reports ({@code capstream.reports.chunks}) into the global store
 * {@value #REPORT_CHUNKS_STORE} (key {@code <run id>|<index>}; a global table is restored from its
 * topic, so the chunks are not copied to a changelog). The updates of the reports table feed the sweep
 * path ({@link SweepTopology}: sweep steps' reports to capacity curves on {@code capstream.sweeps}).
 * Both read-back sources hold a record through a schema registry outage ({@link RegistryWaitingDeserializer},
 * reporting to the report config's {@code RegistryHealth}) instead of dead-lettering it.
 *
 * <p>Queryable stores: {@value #REPORTS_STORE}, {@value #REPORT_CHUNKS_STORE}, {@link WindowTopology#SUMMARIES_STORE},
 * {@link SloTopology#STATE_STORE}, {@link SloTopology#HISTORY_STORE}, {@link ChangeTopology#HISTORY_STORE},
 * {@link SweepTopology#STORE}.
 */
public final class AggregatorTopology {
    /** Key-value store of the latest report per run id (from capstream.reports). */
    public static final String REPORTS_STORE = "capstream-reports-store";
    /** Global key-value store of the report chunks (from capstream.reports.chunks), key {@code <run id>|<index>}. */
    public static final String REPORT_CHUNKS_STORE = "capstream-report-chunks-store";

    /**
     * The Streams settings that bound how long a stream thread may hold a record ({@link RegistryRetry#holdBound}):
     * those of {@link StreamsSettings#toProperties()} (exactly-once, its transaction timeout, the default poll interval).
     */
    private static final Map<String, Object> STREAMS_SETTINGS = Map.of(
            StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2,
            StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), StreamsSettings.TRANSACTION_TIMEOUT_MS);

    private AggregatorTopology() {
    }

    /**
     * @param config   settings; not null
     * @param onSummary called with every closed window's summary (e.g. Prometheus gauges); null for none.
     *                  Called on a stream thread; may be called again for the same window after a
     *                  failure (exactly-once covers topics and stores, not this callback).
     * @return the topology
     */
    public static Topology build(AggregatorConfig config, Consumer<WindowSummary> onSummary) {
        return build(config, onSummary, null);
    }

    /**
     * @param config    settings; not null
     * @param onSummary called with every closed window's summary, once per window (updates that only raise
     *                  {@code late_dropped} are not passed); null for none; see {@link #build(AggregatorConfig, Consumer)}
     * @param onLate    told of every request dropped because its window had closed (e.g. a Prometheus counter);
     *                  null for none; called on a stream thread
     * @return the topology
     */
    public static Topology build(AggregatorConfig config, Consumer<WindowSummary> onSummary,
                                 LateRequestListener onLate) {
        return build(config, onSummary, onLate, null);
    }

    /**
     * @param config    settings; not null
     * @param onSummary see {@link #build(AggregatorConfig, Consumer, LateRequestListener)}; null for none
     * @param onLate    see {@link #build(AggregatorConfig, Consumer, LateRequestListener)}; null for none
     * @param onChange  told of every change point published on {@code capstream.changes} (e.g. a Prometheus counter);
     *                  null for none; called on a stream thread, must not throw
     * @return the topology
     */
    public static Topology build(AggregatorConfig config, Consumer<WindowSummary> onSummary,
                                 LateRequestListener onLate, Consumer<ChangePoint> onChange) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, RunEvent> events = EventsSource.stream(builder, config.report().eventsSource());
        ReportTopology.addTo(events, builder, config.report());
        KStream<String, WindowSummary> summaries = WindowTopology.addTo(events, builder, config.window(), onLate);
        SloTopology.addTo(summaries, builder, config.slo());
        ChangeTopology.addTo(summaries, builder, config.slo().schemaRegistryUrl(), config.slo().registryClient(),
                config.slo().clock(), onChange);
        if (onSummary != null) {
            summaries.foreach((k, v) -> onSummary.accept(v), Named.as("capstream-summaries-listener"));
        }
        ReportTopologyConfig report = config.report();
        // read back: a record whose schema the registry gives no answer for is held, never dead-lettered
        Duration hold = report.registryRetry().holdBound(STREAMS_SETTINGS);
        KTable<String, BenchmarkReport> reports = builder.table(report.reportsTopic(),
                Consumed.with(Serdes.String(), RegistryWaitingDeserializer.serde(BenchmarkReport.class,
                        report.schemaRegistryUrl(), report.registryClient(), report.registryRetry(), hold,
                        report.registryHealth())).withName("capstream-reports-table-source"),
                Materialized.<String, BenchmarkReport, KeyValueStore<Bytes, byte[]>>as(REPORTS_STORE)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(SpecificAvroSerde.forValue(BenchmarkReport.class,
                                config.report().schemaRegistryUrl(), config.report().registryClient())));
        SweepTopology.addTo(reports.toStream(Named.as("capstream-reports-table-updates")),
                SweepTopologyConfig.of(config.report()));
        // the global thread cannot be replaced (Kafka Streams would shut the application down): it holds without bound
        builder.globalTable(report.chunksTopic(),
                Consumed.with(Serdes.String(), RegistryWaitingDeserializer.serde(ReportChunk.class,
                        report.schemaRegistryUrl(), report.registryClient(), report.registryRetry(), null,
                        report.registryHealth()))
                        .withName("capstream-report-chunks-source"),
                Materialized.<String, ReportChunk, KeyValueStore<Bytes, byte[]>>as(REPORT_CHUNKS_STORE)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(SpecificAvroSerde.forValue(ReportChunk.class,
                                config.report().schemaRegistryUrl(), config.report().registryClient())));
        return builder.build();
    }
}
