package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** The repartition topic's compact values (issue 31): every kind round-trips; the whole events of before are read. */
class WindowInputSerdeTest {
    private static final String REGISTRY = "mock://window-input-serde-test";
    private static final String TOPIC = "app-capstream-window-events-repartition";
    private final SpecificAvroSerde<RunEvent> avro = SpecificAvroSerde.forValue(RunEvent.class, REGISTRY);
    private final WindowInputSerde serde = new WindowInputSerde(avro.deserializer());

    private WindowInput roundTrip(WindowInput in) {
        return serde.deserializer().deserialize(TOPIC, serde.serializer().serialize(TOPIC, in));
    }

    private static List<Integer> gaps(int n) {
        List<Integer> g = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            g.add(i * 7919 % 250_000);
        }
        return g;
    }

    @Test
    void everyKindRoundTrips() {
        List<WindowInput> values = List.of(
                new WindowInput.Completed(new RequestSample(12.5, 11.25, 987.0, 14.1, 70.9, 33_000.0, 4096L, 64, true,
                        gaps(63))),
                new WindowInput.Completed(new RequestSample(Double.NaN, Double.NaN, 5.5, null, null, null, null, 0,
                        false, null)),
                new WindowInput.Completed(new RequestSample(1, 2, 3, null, 4.0, null, Long.MAX_VALUE, Long.MIN_VALUE,
                        true, List.of(0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE))),
                new WindowInput.NoRow(),
                new WindowInput.Failed("HttpStatus503", false),
                new WindowInput.Failed(null, true),
                new WindowInput.Failed("Zeitüberschreitung", false),
                new WindowInput.Beat("http://127.0.0.1:8000/v1", "m", Map.of("vllm:num_requests_running", 3.0,
                        "vllm:kv_cache_usage_perc", 0.25)),
                new WindowInput.Beat(null, null, Map.of()));
        for (WindowInput v : values) {
            assertThat(roundTrip(v)).as("round trip of %s", v).isEqualTo(v);
        }
        assertThat(serde.serializer().serialize(TOPIC, null)).as("a progress record's null value").isNull();
        assertThat(serde.deserializer().deserialize(TOPIC, null)).as("null read back").isNull();
    }

    @Test
    void aPartialAggregateRoundTripsWithEveryField() {
        WindowAggregate agg = new WindowAggregate(0.01);
        agg.addCompleted(new RequestSample(12.5, 11.25, 987.0, 14.1, 70.9, 33_000.0, 4096L, 64, true, gaps(63)), true);
        agg.addCompleted(new RequestSample(Double.NaN, Double.NaN, 5.5, null, null, null, null, 0, false, null), false);
        agg.addFailed("HttpStatus503");
        agg.addFailed(null);
        agg.addCancelled();
        WindowInput.Partial in = new WindowInput.Partial(1_767_225_600_000L, agg);

        WindowInput out = roundTrip(in);

        assertThat(out).as("kind read back").isInstanceOf(WindowInput.Partial.class);
        WindowInput.Partial p = (WindowInput.Partial) out;
        assertThat(p.windowStart()).as("window start").isEqualTo(in.windowStart());
        assertThat(p.counted()).as("requests counted for late_dropped: 2 completed, 2 failed, 1 cancelled")
                .isEqualTo(5);
        assertThat(p.aggregate().toBytes()).as("the aggregate, every field (its state-store form)")
                .isEqualTo(agg.toBytes());
        assertThat(SummaryBuilder.build(new WindowKey("t", "m", "le4096"), 0, 60_000, p.aggregate(), true))
                .as("its summary").isEqualTo(SummaryBuilder.build(new WindowKey("t", "m", "le4096"), 0, 60_000, agg,
                        true));
    }

    private static WindowAggregate partialAggregate() {
        WindowAggregate agg = new WindowAggregate(0.01);
        for (int i = 0; i < 40; i++) {
            agg.addCompleted(new RequestSample(10 + i, 9 + i, 900 + 13 * i, 14.1 + i, 70.9 - i, 33_000.0 + i, 4096L + i,
                    64 + i, true, gaps(i)), i % 3 == 0);
        }
        agg.addCompleted(new RequestSample(Double.NaN, Double.NaN, 5.5, null, null, null, null, 0, false, null), false);
        agg.addFailed("HttpStatus503");
        agg.addFailed("Zeitüberschreitung");
        agg.addCancelled();
        return agg;
    }

    @Test
    void aPartialIsItsWindowStartAndItsAggregatesStateStoreFormAsBefore() {
        WindowAggregate agg = partialAggregate();
        byte[] state = agg.toBytes();
        // kind 5: the window start (zig-zag varlong) and the aggregate's state-store form, as the version before wrote
        // it (through Avro's generic writer; now by hand, AggregateBinary: the same bytes)
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(2 + 10 + state.length);
        b.put(WindowInputSerde.MAGIC).put((byte) 5);
        long u = (1_767_225_600_000L << 1) ^ (1_767_225_600_000L >> 63);
        while ((u & ~0x7FL) != 0) {
            b.put((byte) ((u & 0x7F) | 0x80));
            u >>>= 7;
        }
        b.put((byte) u).put(state);
        byte[] old = java.util.Arrays.copyOf(b.array(), b.position());

        WindowInput.Partial p = (WindowInput.Partial) serde.deserializer().deserialize(TOPIC, old);

        assertThat(serde.serializer().serialize(TOPIC, new WindowInput.Partial(1_767_225_600_000L, agg)))
                .as("the partial as written now").isEqualTo(old);
        assertThat(p.windowStart()).as("window start read back").isEqualTo(1_767_225_600_000L);
        assertThat(p.aggregate().toBytes()).as("the aggregate read back, every field").isEqualTo(state);
    }

    @Test
    void aTruncatedOrTrailingPartialIsRefused() {
        byte[] ok = serde.serializer().serialize(TOPIC, new WindowInput.Partial(60_000L, partialAggregate()));
        for (int cut : new int[] {3, 12, ok.length / 2, ok.length - 1}) {
            byte[] truncated = java.util.Arrays.copyOf(ok, cut);
            assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, truncated))
                    .as("cut to %d of %d bytes", cut, ok.length)
                    .isInstanceOf(SerializationException.class);
        }
        byte[] trailing = java.util.Arrays.copyOf(ok, ok.length + 1);
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, trailing)).as("one byte trailing")
                .isInstanceOf(SerializationException.class).hasMessageContaining("trailing");
    }

    @Test
    void theWholeEventsThatVersionsBeforeWroteAreStillRead() {
        RunEvent completed = WindowTestEvents.completed("run-a", 3, 1_000_000L, 100, 200, 5);
        RunEvent failed = WindowTestEvents.failed("run-a", 4, 1_000_000L, "HttpStatus500");
        RunEvent heartbeat = WindowTestEvents.heartbeat(1_000_000L);
        for (RunEvent e : List.of(completed, failed, heartbeat)) {
            byte[] legacy = avro.serializer().serialize(TOPIC, e);
            assertThat(serde.deserializer().deserialize(TOPIC, legacy)).as("legacy %s", e.getPayload().getClass())
                    .isEqualTo(WindowInput.of(e).orElseThrow());
        }
        assertThat(WindowInput.of(completed).orElseThrow()).as("a completed request with a §7 row")
                .isEqualTo(new WindowInput.Completed(RequestSamples.from((RequestCompleted) completed.getPayload())
                        .orElseThrow()));
    }

    @Test
    void aRequestIsAFewDozenBytesInsteadOfTheWholeEvent() {
        RunEvent plain = WindowTestEvents.completed("run-a", 3, 1_000_000L, 100, 900, 64);
        int avroBytes = avro.serializer().serialize(TOPIC, plain).length;
        int compactBytes = serde.serializer().serialize(TOPIC, WindowInput.of(plain).orElseThrow()).length;
        assertThat(compactBytes).as("compact %d bytes against Avro's %d", compactBytes, avroBytes)
                .isLessThan(avroBytes / 2);
        // chunk gaps take about as much room in either (varints), the rest is left out
        RunEvent withGaps = WindowTestEvents.envelopeOf("run-a", 1_000_000L, RequestCompleted.newBuilder(
                (RequestCompleted) plain.getPayload()).setOutputChunkGapsUs(gaps(63)).build());
        int avroGaps = avro.serializer().serialize(TOPIC, withGaps).length;
        int compactGaps = serde.serializer().serialize(TOPIC, WindowInput.of(withGaps).orElseThrow()).length;
        assertThat(compactGaps).as("with 63 chunk gaps: compact %d bytes against Avro's %d", compactGaps, avroGaps)
                .isLessThan(avroGaps - (avroBytes - compactBytes) / 2);
    }

    @Test
    void bytesInNeitherFormatAreRefusedWithWhatTheyWere() {
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, new byte[] {'X', 1}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("not a window input");
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, new byte[] {WindowInputSerde.MAGIC, 1, 0}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("truncated or malformed");
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, new byte[] {WindowInputSerde.MAGIC, 9}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unknown window input kind 9");
    }
}
