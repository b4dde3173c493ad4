package io.capstream.aggregator.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class WindowAggregateSerdeTest {
    /**
     * {@link #populated()} in the version-1 layout, captured from the hand-written encoder of
     * capstream before {@link WindowAggregateSerde} (state already in changelogs and data dirs).
     */
    private static final String V1_POPULATED = "AT+EeuFHrhR7AAAAAAAAAAMAAAAAAAAABAAAAAAAAA+gAAAAAAAAAHAAAAAAAAAAAgAAAAMACUhUVFBFcnJvcgAAAAAAAAAB"
            + "AAhVUkxFcnJvcgAAAAAAAAACAAd1bmtub3duAAAAAAAAAAEAAAAGAARUVEZUAAAAGwL9SoFav1LwPwAAAAAAAAAABQPMAwJE"
            + "ArYBAgAEVFRGTwAAABsC/UqBWr9S8D8AAAAAAAAAAAUDwAMCTAK4AQIAA0UyRQAAABsC/UqBWr9S8D8AAAAAAAAAAAUD7AQC"
            + "IgKIAgIAA0lUTAAAABgC/UqBWr9S8D8AAAAAAAAAAAUC5gECFgIABkRFQ09ERQAAABgC/UqBWr9S8D8AAAAAAAAAAAUCtgMC"
            + "FgIAB1BSRUZJTEwAAAAYAv1KgVq/UvA/AAAAAAAAAAAFArwGAhYC";
    /** {@code new WindowAggregate(0.02)} in the version-1 layout, captured like {@link #V1_POPULATED}. */
    private static final String V1_EMPTY = "AT+UeuFHrhR7AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGAARUVEZUAAAAEQIqeDkF"
            + "L6fwPwAAAAAAAAAAAARUVEZPAAAAEQIqeDkFL6fwPwAAAAAAAAAAAANFMkUAAAARAip4OQUvp/A/AAAAAAAAAAAAA0lUTAAA"
            + "ABECKng5BS+n8D8AAAAAAAAAAAAGREVDT0RFAAAAEQIqeDkFL6fwPwAAAAAAAAAAAAdQUkVGSUxMAAAAEQIqeDkFL6fwPwAA"
            + "AAAAAAAA";

    private final WindowAggregateSerde serde = new WindowAggregateSerde();

    /** The aggregate of the version-1 fixture (same calls as the program that captured it). */
    private static WindowAggregate populated() {
        WindowAggregate w = new WindowAggregate(0.01);
        w.addCompleted(new RequestSample(100, 90, 500, 10.0, 100.0, 5000.0, 1000L, 41), true);
        w.addCompleted(new RequestSample(200, 190, 700, null, null, null, null, 7), false);
        w.addCompleted(new RequestSample(1234.5, 1200.25, 9876.0, 12.5, 80.0, 4000.0, 3000L, 64), true);
        w.addFailed("URLError");
        w.addFailed(null);
        w.addFailed("HTTPError");
        w.addFailed("URLError");
        return w;
    }

    @Test
    void versionOneStateOfEarlierReleasesDecodesToTheSameAggregate() {
        WindowAggregate old = serde.decode(Base64.getDecoder().decode(V1_POPULATED));
        assertSameAggregate(populated(), old);
        assertEquals(3, old.completed());
        assertEquals(4, old.failed());
        assertEquals(2, old.goodRequests());
        assertEquals(4000, old.promptTokens());
        assertEquals(112, old.outputTokens());
        assertEquals(Map.of("HTTPError", 1L, "URLError", 2L, "unknown", 1L), old.failuresByType());
        assertEquals(3.0, old.sketch(Quantity.TTFT).getCount());
        assertEquals(2.0, old.sketch(Quantity.ITL).getCount());
        // rewritten in the current version, it is the same as a fresh aggregate's encoding, without bucket counts
        // (state written before issue 31 has none)
        assertArrayEquals(beforeBucketCounts().toBytes(), old.toBytes());

        WindowAggregate empty = WindowAggregate.fromBytes(Base64.getDecoder().decode(V1_EMPTY));
        assertSameAggregate(new WindowAggregate(0.02), empty);
        assertEquals(0.02, empty.relativeAccuracy());
    }

    @Test
    void currentVersionStartsWithItsVersionByteAndRoundTrips() {
        byte[] bytes = populated().toBytes();
        assertEquals(WindowAggregateSerde.VERSION, bytes[0]);
        assertEquals(4, bytes[0]);
        assertSameAggregate(populated(), WindowAggregate.fromBytes(bytes));
        assertArrayEquals(bytes, WindowAggregate.fromBytes(bytes).toBytes());
    }

    @Test
    void currentVersionMatchesItsCapturedBytes() {
        byte[] current = populated().toBytes();
        byte[] captured = io.capstream.aggregator.serde.SerdeFixtures.captured("window-aggregate-v4.bin", current);
        assertSameAggregate(populated(), WindowAggregate.fromBytes(captured));
        org.assertj.core.api.Assertions.assertThat(current)
                .as("today's encoding of version %d (a changelog of the previous version must restore)",
                        WindowAggregateSerde.VERSION)
                .isEqualTo(captured);
    }

    @Test
    void versionTwoStateDecodesWithNoCancelledRequests() {
        byte[] v2 = io.capstream.aggregator.serde.SerdeFixtures.captured("window-aggregate-v2.bin", new byte[0]);
        org.assertj.core.api.Assertions.assertThat(v2[0]).as("the fixture's version byte").isEqualTo((byte) 2);
        WindowAggregate old = WindowAggregate.fromBytes(v2);
        assertSameAggregate(populated(), old);
        org.assertj.core.api.Assertions.assertThat(old.cancelled()).as("cancelled of a version-2 state").isZero();
        org.assertj.core.api.Assertions.assertThat(old.toBytes()).as("rewritten in version 4, without bucket counts")
                .isEqualTo(beforeBucketCounts().toBytes());
    }

    /** {@link #populated()} as a state written before issue 31 restores: the same, without bucket counts. */
    private static WindowAggregate beforeBucketCounts() {
        return WindowAggregate.fromBytes(
                io.capstream.aggregator.serde.SerdeFixtures.captured("window-aggregate-v3.bin", new byte[0]));
    }

    @Test
    void versionThreeStateDecodesWithEmptyBucketCounts() {
        WindowAggregate old = beforeBucketCounts();
        assertSameAggregate(populated(), old);
        for (LatencyMeasure m : LatencyMeasure.values()) {
            org.assertj.core.api.Assertions.assertThat(old.histogram(m).count())
                    .as("bucket counts of %s in a version-3 state", m).isZero();
        }
    }

    @Test
    void bucketCountsRoundTripAndMerge() {
        WindowAggregate w = populated();
        w.addCompleted(new RequestSample(50, 40, 900, 10.0, null, null, 10L, 3, true, java.util.List.of(15_000, 25_000)),
                true);
        w.addCompleted(new RequestSample(Double.NaN, Double.NaN, 30, null, null, null, 8L, 0, false, null), true);
        WindowAggregate back = WindowAggregate.fromBytes(w.toBytes());
        for (LatencyMeasure m : LatencyMeasure.values()) {
            org.assertj.core.api.Assertions.assertThat(back.histogram(m).counts()).as("%s counts after a round trip", m)
                    .containsExactly(w.histogram(m).counts());
            org.assertj.core.api.Assertions.assertThat(back.histogram(m).sumNs()).as("%s sum after a round trip", m)
                    .isEqualTo(w.histogram(m).sumNs());
        }
        org.assertj.core.api.Assertions.assertThat(back.histogram(LatencyMeasure.INTER_CHUNK).count())
                .as("chunk gaps").isEqualTo(2);
        org.assertj.core.api.Assertions.assertThat(back.histogram(LatencyMeasure.REQUEST_LATENCY).count())
                .as("requests that are not streamed").isEqualTo(1);
        back.merge(w);
        org.assertj.core.api.Assertions.assertThat(back.histogram(LatencyMeasure.TTFT).count()).as("TTFT after a merge")
                .isEqualTo(8);
    }

    @Test
    void cancelledRequestsRoundTripAndMergeApartFromFailures() {
        WindowAggregate w = populated();
        w.addCancelled();
        w.addCancelled();
        WindowAggregate back = WindowAggregate.fromBytes(w.toBytes());
        org.assertj.core.api.Assertions.assertThat(back.cancelled()).as("cancelled after a round trip").isEqualTo(2);
        org.assertj.core.api.Assertions.assertThat(back.failed()).as("failed (cancels are not failures)").isEqualTo(4);
        org.assertj.core.api.Assertions.assertThat(back.requests()).as("requests = completed + failed").isEqualTo(7);
        back.merge(w);
        org.assertj.core.api.Assertions.assertThat(back.cancelled()).as("cancelled after a merge").isEqualTo(4);
    }

    @Test
    void emptyAggregateRoundTrips() {
        WindowAggregate empty = new WindowAggregate(0.005);
        WindowAggregate back = serde.deserializer().deserialize("t", serde.serializer().serialize("t", empty));
        assertSameAggregate(empty, back);
        assertEquals(0, back.requests());
        assertEquals(Map.of(), back.failuresByType());
        assertEquals(0.0, back.sketch(Quantity.E2E).getCount());
        assertEquals(0.005, back.relativeAccuracy());
    }

    @Test
    void largeAggregateRoundTripsAndMergesLikeTheOriginal() {
        Random random = new Random(7);
        WindowAggregate big = new WindowAggregate(0.01);
        for (int i = 0; i < 100_000; i++) {
            double ttft = 1 + random.nextDouble() * 60_000;
            big.addCompleted(new RequestSample(ttft, ttft * 0.9, ttft + random.nextDouble() * 120_000,
                    i % 3 == 0 ? null : random.nextDouble() * 200, i % 5 == 0 ? null : random.nextDouble() * 1e4,
                    random.nextDouble() * 1e6, i % 2 == 0 ? null : (long) random.nextInt(200_000), i % 4096), i % 7 != 0);
        }
        for (int i = 0; i < 500; i++) {
            big.addFailed("Error-" + i + "-ошибка-" + "x".repeat(i % 50));
        }
        big.addFailed("");
        byte[] bytes = big.toBytes();
        WindowAggregate back = WindowAggregate.fromBytes(bytes);
        assertSameAggregate(big, back);
        assertEquals(100_000, back.completed());
        assertEquals(501, back.failed());
        assertEquals(1L, back.failuresByType().get("unknown"));
        assertEquals(501, back.failuresByType().size());
        for (double q : new double[] {0.5, 0.95, 0.99}) {
            assertEquals(big.sketch(Quantity.TTFT).getValueAtQuantile(q), back.sketch(Quantity.TTFT).getValueAtQuantile(q));
        }
        WindowAggregate merged = WindowAggregate.fromBytes(bytes);
        merged.merge(back);
        assertEquals(200_000, merged.completed());
        assertEquals(2 * big.promptTokens(), merged.promptTokens());
        assertEquals(200_000.0, merged.sketch(Quantity.E2E).getCount());
    }

    @Test
    void nullIsNullBothWays() {
        assertNull(serde.serializer().serialize("t", null));
        assertNull(serde.deserializer().deserialize("t", null));
    }

    @Test
    void unknownVersionTruncatedTrailingOrEmptyBytesAreRejected() {
        byte[] good = populated().toBytes();
        byte[] unknown = good.clone();
        unknown[0] = 5;
        assertEquals("unknown WindowAggregate version 5",
                assertThrows(SerializationException.class, () -> serde.decode(unknown)).getMessage());
        assertThrows(SerializationException.class, () -> serde.decode(Arrays.copyOf(good, good.length - 5)));
        assertThrows(SerializationException.class, () -> serde.decode(Arrays.copyOf(good, good.length + 1)));
        assertThrows(SerializationException.class, () -> serde.decode(new byte[0]));
        byte[] v1 = Base64.getDecoder().decode(V1_POPULATED);
        assertThrows(SerializationException.class, () -> serde.decode(Arrays.copyOf(v1, v1.length - 5)));
    }

    /** Every counter, the failure map and every sketch's encoding are equal. */
    static void assertSameAggregate(WindowAggregate expected, WindowAggregate actual) {
        assertEquals(expected.relativeAccuracy(), actual.relativeAccuracy());
        assertEquals(expected.completed(), actual.completed());
        assertEquals(expected.failed(), actual.failed());
        assertEquals(expected.promptTokens(), actual.promptTokens());
        assertEquals(expected.cancelled(), actual.cancelled(), "cancelled");
        assertEquals(expected.outputTokens(), actual.outputTokens());
        assertEquals(expected.goodRequests(), actual.goodRequests());
        assertEquals(new TreeMap<>(expected.failuresByType()), new TreeMap<>(actual.failuresByType()));
        for (Quantity q : Quantity.values()) {
            assertEquals(expected.sketch(q).getCount(), actual.sketch(q).getCount(), q.name());
            assertArrayEquals(Sketches.encode(expected.sketch(q)), Sketches.encode(actual.sketch(q)), q.name());
        }
    }
}
