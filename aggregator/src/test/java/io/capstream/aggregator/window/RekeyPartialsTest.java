package io.capstream.aggregator.window;

import static io.capstream.aggregator.window.WindowTestEvents.completed;
import static io.capstream.aggregator.window.WindowTestEvents.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedForward;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: the re-keying step combines requests into partial aggregates and forwards them at a flush (before a
 * commit, from the punctuator, or when its buffer is full); the progress it claims for its input partition never
 * covers a request that is still buffered, so that no window closes before its requests arrive.
 */
class RekeyPartialsTest {
    private static final String REGISTRY = "mock://rekey-partials-test";
    private static final long T0 = 1_767_225_600_000L;

    @TempDir
    Path stateDir;

    private MockProcessorContext<String, WindowInput> context;
    private CommitHookStore hook;
    private RekeyProcessor rekey;
    /** Event times of the requests processed, in order. */
    private final List<Long> processed = new ArrayList<>();

    @BeforeEach
    void setUp() {
        context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(T0);
        hook = CommitHookStore.builder(WindowTopology.PARTIALS_STORE).build();
        context.addStateStore(hook);
        org.apache.kafka.streams.state.KeyValueStore<String, Long> replays =
                ReplayedRuns.storeBuilder(WindowTopology.REPLAYS_STORE).withLoggingDisabled().build();
        replays.init(context.getStateStoreContext(), replays);
        context.addStateStore(replays);
        rekey = new RekeyProcessor(WindowTopologyConfig.defaults(REGISTRY), WindowTopology.PARTIALS_STORE,
                WindowTopology.REPLAYS_STORE);
        rekey.init(context);
    }

    private void request(long t) {
        RunEvent e = completed("run-a", processed.size(), t, 100, 200, 5);
        processed.add(t);
        rekey.process(new Record<>(e.getRunId(), e, t));
    }

    private void punctuate() {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(context.currentSystemTimeMs());
    }

    @Test
    void theProgressNeverCoversABufferedRequest() {
        request(T0 + 1000);
        request(T0 + 2000);
        request(T0 + 1500);
        assertThat(context.forwarded()).as("requests are buffered, not forwarded one by one").isEmpty();

        punctuate();
        List<CapturedForward<? extends String, ? extends WindowInput>> first = List.copyOf(context.forwarded());
        assertThat(first).as("the punctuator's flush: one partial, then the progress").hasSize(2);
        assertThat(first.get(0).record().value()).as("a partial of the 3 requests")
                .isInstanceOfSatisfying(WindowInput.Partial.class, p -> assertThat(p.counted()).isEqualTo(3));
        assertThat(first.get(1).record().key()).as("then the progress").isEqualTo(RekeyProcessor.PROGRESS_KEY);
        assertThat(progress(first.get(1))).as("progress claimed").isEqualTo(T0 + 2000);

        request(T0 + 70_000);
        request(T0 + 65_000);
        RunEvent beat = heartbeat(T0 + 71_000);
        rekey.process(new Record<>(beat.getRunId(), beat, T0 + 71_000));
        CapturedForward<? extends String, ? extends WindowInput> beatOut = context.forwarded().get(2);
        assertThat(beatOut.record().value()).as("the heartbeat, as it comes").isInstanceOf(WindowInput.Beat.class);
        assertThat(progress(beatOut)).as("the heartbeat carries the progress as of the last flush, not its own time")
                .isEqualTo(T0 + 2000);

        hook.flushCache(); // what Kafka Streams calls before every commit
        request(T0 + 80_000);
        for (int i = 0; i <= RekeyProcessor.MAX_PARTIALS; i++) {
            request(T0 + 100_000 + i * 60_000L); // one window each: the buffer fills up and is flushed
        }
        long flushedAtFull = context.forwarded().stream().filter(f -> f.record().value() instanceof WindowInput.Partial)
                .count();
        assertThat(flushedAtFull).as("partials forwarded once the buffer passed %d", RekeyProcessor.MAX_PARTIALS)
                .isGreaterThan(RekeyProcessor.MAX_PARTIALS);
        punctuate();

        assertProgressNeverAheadOfRequests();
        assertThat(context.forwarded().stream().mapToLong(f -> f.record().value() instanceof WindowInput.Partial p
                ? p.counted() : 0).sum()).as("requests forwarded in partials").isEqualTo(processed.size());
    }

    @Test
    void aTaskInitialisedAgainDropsWhatItHadBuffered() {
        request(T0 + 1000);
        request(T0 + 2000);
        rekey.init(context); // revived after an aborted transaction: the input is read again from the last commit
        hook.flushCache();
        punctuate();
        assertThat(context.forwarded()).as("nothing of the rolled-back input is forwarded, no progress claimed")
                .isEmpty();
    }

    /**
     * Walks the forwarded records in order, as a window partition would read them: every progress claimed (a progress
     * record's, or any record's header) covers only requests already forwarded in partials (the record's own
     * included: the window step adds it before it takes the progress).
     */
    private void assertProgressNeverAheadOfRequests() {
        long forwarded = 0;
        for (CapturedForward<? extends String, ? extends WindowInput> f : context.forwarded()) {
            if (f.record().value() instanceof WindowInput.Partial p) {
                forwarded += p.counted();
            }
            long claimed = progress(f);
            long covered = processed.stream().filter(t -> t <= claimed).count();
            assertThat(forwarded).as("requests forwarded when the progress %s is claimed (record %s): the %d "
                    + "requests at or before it must be", claimed, f.record().key(), covered)
                    .isGreaterThanOrEqualTo(covered);
        }
    }

    private static long progress(CapturedForward<? extends String, ? extends WindowInput> f) {
        return SourceProgress.of(f.record().headers()).orElseThrow().eventTime();
    }

    /**
     * In a running task, requests reach the window step before the commit that commits their offsets, with no
     * punctuation: Kafka Streams calls the hook store's flushCache before every commit (TopologyTestDriver commits
     * after every record and runs wall-clock punctuators only when its clock is advanced).
     */
    @Test
    void kafkaStreamsFlushesThePartialsBeforeEveryCommit() {
        StreamsBuilder builder = new StreamsBuilder();
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
        WindowTopology.addTo(builder.stream(Topics.EVENTS, Consumed.with(Serdes.String(), serde)), builder,
                WindowTopologyConfig.defaults(REGISTRY).withWindow(Duration.ofSeconds(10), Duration.ofSeconds(2)));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rekey-partials-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, RunEvent> in = driver.createInputTopic(Topics.EVENTS, Serdes.String().serializer(),
                    serde.serializer());
            for (int i = 0; i < 3; i++) {
                RunEvent e = completed("run-a", i, T0 + 1000L * i, 100, 200, 5);
                in.pipeInput(e.getRunId(), e, e.getEmittedAtMs());
            }
            WindowAggregateStore store = (WindowAggregateStore) driver.getStateStore(WindowTopology.AGGREGATES_STORE);
            WindowAggregate open = store.get(TumblingWindowProcessor.storeKey(T0,
                    WindowTestEvents.TARGET + "|" + WindowTestEvents.MODEL + "|le4096"));
            assertThat(open).as("the open window's aggregate in the window step").isNotNull();
            assertThat(open.requests()).as("requests in it after three commits").isEqualTo(3);
        }
    }
}
