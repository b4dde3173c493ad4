package io.capstream.aggregator.change;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * Change points on the summary stream (issue 32): {@link ChangePointProcessor} after the window summaries (same
 * partitioning, no repartition), publishing {@code ChangePoint} records to {@link Topics#CHANGES} and keeping each in
 * the queryable window store {@link #HISTORY_STORE} (for {@code /api/changes} and the dashboard's marks).
 */
public final class ChangeTopology {
    /** Key-value store: detector state per target|model|bucket|metric. */
    public static final String STATE_STORE = "capstream-change-state";
    /** Window store: every published change point, key target|model|bucket|metric, time = change_window_start_ms. */
    public static final String HISTORY_STORE = "capstream-changes-store";
    /** How long change points stay queryable in {@link #HISTORY_STORE}, as the alerts' default. */
    public static final Duration RETENTION = Duration.ofDays(7);

    private ChangeTopology() {
    }

    /**
     * @param summaries         closed-window summaries; not null
     * @param builder           the builder; not null
     * @param schemaRegistryUrl registry URL of the output serde; not null
     * @param registryClient    registry client settings; null for the defaults
     * @param clock             clock for {@code detected_at_ms}; not null
     * @return the change points (also written to {@link Topics#CHANGES})
     */
    public static KStream<String, ChangePoint> addTo(KStream<String, WindowSummary> summaries, StreamsBuilder builder,
                                                     String schemaRegistryUrl, RegistryClientConfig registryClient,
                                                     Clock clock) {
        return addTo(summaries, builder, schemaRegistryUrl, registryClient, clock, null);
    }

    /**
     * @param summaries         closed-window summaries; not null
     * @param builder           the builder; not null
     * @param schemaRegistryUrl registry URL of the output serde; not null
     * @param registryClient    registry client settings; null for the defaults
     * @param clock             clock for {@code detected_at_ms}; not null
     * @param listener          hears every published change point on the stream thread (e.g. a Prometheus counter);
     *                          must not throw; null for none
     * @return the change points (also written to {@link Topics#CHANGES})
     */
    public static KStream<String, ChangePoint> addTo(KStream<String, WindowSummary> summaries, StreamsBuilder builder,
                                                     String schemaRegistryUrl, RegistryClientConfig registryClient,
                                                     Clock clock, Consumer<ChangePoint> listener) {
        SpecificAvroSerde<ChangePoint> serde = SpecificAvroSerde.forValue(ChangePoint.class, schemaRegistryUrl,
                registryClient == null ? RegistryClientConfig.defaults() : registryClient);
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE_STORE), Serdes.String(),
                Serdes.ByteArray()));
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(HISTORY_STORE, RETENTION,
                Duration.ofMillis(1), false), Serdes.String(), serde));
        Consumer<ChangePoint> hear = listener == null ? c -> { } : listener;
        KStream<String, ChangePoint> changes = summaries.process(
                () -> new ChangePointProcessor(new ChangePointDetector(), clock, hear),
                Named.as("capstream-change-points"), STATE_STORE, HISTORY_STORE);
        changes.to(Topics.CHANGES, Produced.with(Serdes.String(), serde).withName("capstream-changes-sink"));
        return changes;
    }
}
