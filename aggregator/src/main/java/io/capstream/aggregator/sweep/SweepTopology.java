package io.capstream.aggregator.sweep;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.events.RegistryWaitingDeserializer;
import io.capstream.aggregator.report.ReportTopology;
import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The sweep path: step reports ({@code BenchmarkReport}s whose {@code sweep} is set, from
 * {@code capstream.reports}) to capacity curves on {@code capstream.sweeps} ({@link SweepCurve}, key
 * sweep id, one record per change). Each report becomes a one-point curve ({@link SweepCurves#of}),
 * is re-keyed by sweep id through the repartition topic {@value #REPARTITION} and merged into the
 * sweep's curve ({@link SweepCurves#merge}, so a republished step replaces its point) in the
 * queryable store {@value #STORE}. Tombstones and reports of single runs are dropped. A replay of the
 * same reports gives the same curve ({@code updated_at_ms} comes from the reports, not the clock).
 *
 * <p>Serdes: reports are read and curves written with {@link SpecificAvroSerde} (Confluent format,
 * registry); the repartition topic and the store's changelog hold plain Avro binary
 * ({@link SweepCurveBinarySerde}), as the report topology's state does, so no subject is registered
 * for internal topics. Run with {@code exactly_once_v2} like the rest of the aggregator
 * ({@code io.capstream.aggregator.runtime.StreamsSettings}).
 */
public final class SweepTopology {
    /** Queryable key-value store of the latest curve per sweep id. */
    public static final String STORE = "capstream-sweeps-store";
    /** Name of the repartition by sweep id (the internal topic is {@code <application id>-<this>-repartition}). */
    public static final String REPARTITION = "capstream-sweeps-by-id";

    private SweepTopology() {
    }

    /**
     * Adds the sweep path to the builder of {@code reports}.
     *
     * @param reports reports keyed by run id (null values, i.e. tombstones, are allowed and dropped); not null
     * @param config  settings (the sweeps topic and registry; {@code reportsTopic} is not read here); not null
     * @return the curve updates as written to {@code config.sweepsTopic()}, key sweep id
     */
    public static KStream<String, SweepCurve> addTo(KStream<String, BenchmarkReport> reports, SweepTopologyConfig config) {
        SweepCurveBinarySerde internal = new SweepCurveBinarySerde();
        KStream<String, SweepCurve> curves = reports
                .filter((runId, r) -> r != null && r.getSweep() != null, Named.as("capstream-sweeps-steps"))
                .map((runId, r) -> KeyValue.pair(r.getSweep().getSweepId(), SweepCurves.of(r)),
                        Named.as("capstream-sweeps-step-curves"))
                .groupByKey(Grouped.with(REPARTITION, Serdes.String(), internal))
                .reduce(SweepCurves::merge, Named.as("capstream-sweeps-merge"),
                        Materialized.<String, SweepCurve, KeyValueStore<Bytes, byte[]>>as(STORE)
                                .withKeySerde(Serdes.String()).withValueSerde(internal))
                .toStream(Named.as("capstream-sweeps-updates"));
        curves.to(config.sweepsTopic(), Produced.with(Serdes.String(),
                SpecificAvroSerde.forValue(SweepCurve.class, config.schemaRegistryUrl(), config.registryClient()))
                .withName("capstream-sweeps-sink"));
        return curves;
    }

    /**
     * Adds the sweep path with its own source: {@code config.reportsTopic()} read as a stream.
     *
     * @param builder a builder that does not read {@code config.reportsTopic()} yet (a topic can be a
     *                source only once per topology); not null
     * @param config  settings; not null
     * @return the curve updates, key sweep id
     */
    public static KStream<String, SweepCurve> addTo(StreamsBuilder builder, SweepTopologyConfig config) {
        KStream<String, BenchmarkReport> reports = builder.stream(config.reportsTopic(),
                Consumed.with(Serdes.String(), RegistryWaitingDeserializer.serde(BenchmarkReport.class,
                        config.schemaRegistryUrl(), config.registryClient(), RegistryRetry.defaults(),
                        RegistryRetry.defaults().holdBound(Map.of()), new RegistryHealth()))
                        .withName("capstream-sweeps-reports-source"));
        return addTo(reports, config);
    }

    /**
     * The topology of the in-process aggregator of {@code capstream run}: the report path
     * ({@link ReportTopology#addTo}) and the sweep path reading the reports topic back
     * ({@link SweepTopologyConfig#of}: same registry, {@code capstream.sweeps}).
     *
     * @param report the report path's settings; not null
     * @return the topology
     */
    public static Topology buildWithReports(ReportTopologyConfig report) {
        StreamsBuilder builder = new StreamsBuilder();
        ReportTopology.addTo(EventsSource.stream(builder, report.eventsSource()), builder, report);
        addTo(builder, SweepTopologyConfig.of(report));
        return builder.build();
    }
}
