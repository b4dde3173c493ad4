package io.capstream.aggregator.window;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The windowed-summaries topology: tumbling event-time windows (size and grace from the config,
 * default 1 min / 10 s) over request completion time ({@code completed_at_epoch_ms}), keyed by
 * target, model and context bucket ({@link ContextBuckets}), emitting one {@link WindowSummary}
 * per window to {@code capstream.summaries} when the window closes.
 *
 * <p>Shape: run-id-keyed events → {@link RekeyProcessor} (key {@code target|model|bucket}; the requests combined
 * in memory into one partial aggregate per key and window, {@link WindowInput.Partial}, forwarded once per commit
 * of its task, before it, with the input offsets in the same transaction, timestamp = the partial's largest event
 * time; heartbeats as they come, with a marker key; its store {@value #PARTIALS_STORE} is only the commit hook; the
 * events of replays, which were counted when they first ran, are left out: {@link ReplayedRuns}, store
 * {@value #REPLAYS_STORE})
 * → repartition topic
 * {@code <app>-capstream-window-events-repartition} with {@link HeartbeatBroadcastPartitioner}
 * (heartbeats to every partition) → {@link TumblingWindowProcessor} (merges each partial into its window's
 * aggregate, which gives what adding its requests one by one gives; per-request records left in the topic by a
 * version before are still added one by one; stores
 * {@value #AGGREGATES_STORE} and, for the scrapes of the endpoints' metrics, {@value #SERVER_STORE}) → {@link SummaryMaterializer} (window store {@value #SUMMARIES_STORE})
 * → the summaries topic, key {@code target|model|bucket|windowStartMs}.
 *
 * <p>Complete on a backlog as on a live feed: a window closes when every input partition's event time has
 * passed its end plus the grace ({@link InputProgress}), not when the largest event time seen has (input
 * partitions read at different speeds are minutes apart in the repartition topic). Requests that still arrive
 * after their window closed are counted ({@link LateRequests}: the summary emitted again with
 * {@code late_dropped}, a Prometheus counter, a WARN line).
 *
 * <p>Percentiles are nearest-rank estimates from DDSketch with the config's relative accuracy
 * (default 1%), stated in each summary's {@code relative_accuracy}.
 */
public final class WindowTopology {
    /** Key-value store of open window aggregates and the observed stream time. */
    public static final String AGGREGATES_STORE = "capstream-window-aggregates";
    /**
     * Key-value store of the open windows' scrapes of the endpoints' metrics (key {@code <start>|target|model},
     * value {@link io.capstream.schemas.avro.ServerWindowState}); changelog {@code <app>-capstream-window-server-changelog}.
     */
    public static final String SERVER_STORE = "capstream-window-server";
    /** Window store of closed summaries (key target|model|bucket, time = window start), for queries. */
    public static final String SUMMARIES_STORE = "capstream-summaries-store";
    /**
     * The re-keying step's {@link CommitHookStore} (in memory, no changelog): before every commit of its task it
     * forwards the partial aggregates buffered since the last one.
     */
    public static final String PARTIALS_STORE = "capstream-window-partials";
    /** The re-keying step's store of the replays in flight ({@link ReplayedRuns}: the windows leave replays out). */
    public static final String REPLAYS_STORE = "capstream-window-replays";
    /** Name of the repartition step (topic {@code <app>-capstream-window-events-repartition}). */
    public static final String REPARTITION_NAME = "capstream-window-events";

    private WindowTopology() {
    }

    /**
     * Adds the windowed summaries to {@code builder}.
     *
     * @param events  decoded events keyed by run id (from {@code EventsSource}); not null
     * @param builder the builder the events stream belongs to; not null
     * @param config  window settings; not null
     * @return the closed windows' summaries (key {@code target|model|bucket|windowStartMs}), already
     *         written to the summaries topic; downstream steps (SLO alerts, metrics) attach here
     */
    public static KStream<String, WindowSummary> addTo(KStream<String, RunEvent> events, StreamsBuilder builder,
                                                       WindowTopologyConfig config) {
        return addTo(events, builder, config, LateRequestListener.NONE);
    }

    /**
     * Adds the windowed summaries to {@code builder}.
     *
     * @param events   decoded events keyed by run id (from {@code EventsSource}); not null
     * @param builder  the builder the events stream belongs to; not null
     * @param config   window settings; not null
     * @param onLate   told of every request dropped because its window had closed; null for none
     * @return the closed windows' summaries, each once, when the window closes (key
     *         {@code target|model|bucket|windowStartMs}), already written to the summaries topic; downstream
     *         steps (SLO alerts, metrics) attach here. Updates of closed windows (late requests merged, or counted
     *         in {@code late_dropped}) go to the topic and the summaries store but not here: an SLO is judged once
     *         per window.
     */
    public static KStream<String, WindowSummary> addTo(KStream<String, RunEvent> events, StreamsBuilder builder,
                                                       WindowTopologyConfig config, LateRequestListener onLate) {
        LateRequestListener listener = onLate == null ? LateRequestListener.NONE : onLate;
        SpecificAvroSerde<RunEvent> eventSerde = SpecificAvroSerde.forValue(RunEvent.class, config.schemaRegistryUrl(),
                config.registryClient());
        SpecificAvroSerde<WindowSummary> summarySerde =
                SpecificAvroSerde.forValue(WindowSummary.class, config.schemaRegistryUrl(), config.registryClient());
        // an open window's aggregate (a few KB of sketches) changes with every request: kept decoded in memory
        // and written once per key and commit (WindowAggregateStore), on a record-cached store
        builder.addStateStore(WindowAggregateStore.builder(AGGREGATES_STORE));
        // cached too: an open window's server state is rewritten on every scrape (about once a second)
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SERVER_STORE),
                Serdes.String(), new ServerWindowStateSerde()).withCachingEnabled());
        builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(SUMMARIES_STORE,
                config.retention(), config.windowSize(), false), Serdes.String(), summarySerde));

        builder.addStateStore(CommitHookStore.builder(PARTIALS_STORE));
        builder.addStateStore(ReplayedRuns.storeBuilder(REPLAYS_STORE));

        // only what the window step needs crosses the repartition topic (WindowInput), not the whole event, and the
        // requests combined per key, window and commit (WindowInput.Partial), not one record per request
        KStream<String, WindowInput> rekeyed = events
                .process(() -> new RekeyProcessor(config, PARTIALS_STORE, REPLAYS_STORE),
                        Named.as("capstream-window-rekey"), PARTIALS_STORE, REPLAYS_STORE)
                .repartition(Repartitioned.<String, WindowInput>as(REPARTITION_NAME)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(new WindowInputSerde(eventSerde.deserializer()))
                        .withStreamPartitioner(new HeartbeatBroadcastPartitioner<>()));
        KStream<String, WindowSummary> summaries = rekeyed
                .process(() -> new TumblingWindowProcessor(config, listener), Named.as("capstream-window-aggregate"),
                        AGGREGATES_STORE, SERVER_STORE, SUMMARIES_STORE)
                .process(SummaryMaterializer::new, Named.as("capstream-window-materialize"), SUMMARIES_STORE);
        summaries.to(config.summariesTopic(), Produced.with(Serdes.String(), summarySerde)
                .withName("capstream-summaries-sink"));
        // updates (late requests merged or dropped) carry a header: SLOs and gauges judge a window once
        return summaries.processValues(FirstEmissions::new, Named.as("capstream-summaries-first"));
    }
}
