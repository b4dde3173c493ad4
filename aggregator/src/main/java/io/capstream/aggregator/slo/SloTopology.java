package io.capstream.aggregator.slo;

import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * SLO alerting on closed windows: {@link SloAlertProcessor} (and, with a burn-rate policy,
 * {@link BurnRateProcessor}) after the window summaries (same partitioning, no repartition), publishing {@code SloBreach} records to {@code capstream.alerts}
 * (key {@code target|model}).
 */
public final class SloTopology {
    /** Key-value store: last alert per target|model|bucket|slo (state BREACH = active). */
    public static final String STATE_STORE = "capstream-slo-state";
    /** Window store: every alert, key target|model|bucket|slo, time = window start. */
    public static final String HISTORY_STORE = "capstream-alerts-store";
    /** Window store (only with a burn-rate policy): requests and bad requests per target|model|bucket and window. */
    public static final String BURN_STORE = "capstream-burn-windows";

    private SloTopology() {
    }

    /**
     * Adds SLO evaluation to {@code builder}. With no SLO configured the stores still exist (empty)
     * and nothing is published.
     *
     * @param summaries closed-window summaries from {@code WindowTopology.addTo}; not null
     * @param builder   the builder; not null
     * @param config    SLOs and output topic; not null
     * @return the alerts stream (also written to the alerts topic)
     */
    public static KStream<String, SloBreach> addTo(KStream<String, WindowSummary> summaries, StreamsBuilder builder,
                                                   SloTopologyConfig config) {
        SpecificAvroSerde<SloBreach> serde = SpecificAvroSerde.forValue(SloBreach.class, config.schemaRegistryUrl(),
                config.registryClient());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE_STORE),
                Serdes.String(), serde));
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(HISTORY_STORE,
                config.retention(), Duration.ofMillis(1), false), Serdes.String(), serde));
        KStream<String, SloBreach> alerts = summaries.process(() -> new SloAlertProcessor(config),
                Named.as("capstream-slo-evaluate"), STATE_STORE, HISTORY_STORE);
        if (config.burnRate() != null) {
            Duration keep = config.burnRate().longest().plus(Duration.ofHours(1));
            builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(BURN_STORE, keep,
                    Duration.ofMillis(1), false), Serdes.String(), Serdes.ByteArray()));
            KStream<String, SloBreach> burn = summaries.process(() -> new BurnRateProcessor(config),
                    Named.as("capstream-burn-rate-evaluate"), BURN_STORE, STATE_STORE, HISTORY_STORE);
            alerts = alerts.merge(burn, Named.as("capstream-alerts-merge"));
        }
        alerts.to(config.alertsTopic(), Produced.with(Serdes.String(), serde).withName("capstream-alerts-sink"));
        return alerts;
    }
}
