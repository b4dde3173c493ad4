package io.capstream.aggregator.window;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowAggregateTest {
    @Test
    void roundTripsAndMerges() {
        WindowAggregate a = new WindowAggregate(0.01);
        a.addCompleted(new RequestSample(100, 90, 500, 10.0, 100.0, 5000.0, 1000L, 41), true);
        a.addCompleted(new RequestSample(200, 190, 700, null, null, null, null, 7), false);
        a.addFailed("URLError");
        WindowAggregate b = new WindowAggregate(0.01);
        b.addFailed("URLError");
        b.addFailed("HTTPError");

        WindowAggregate back = WindowAggregate.fromBytes(a.toBytes());
        back.merge(WindowAggregate.fromBytes(b.toBytes()));

        assertEquals(5, back.requests());
        assertEquals(2, back.completed());
        assertEquals(3, back.failed());
        assertEquals(1, back.goodRequests());
        assertEquals(1000, back.promptTokens());
        assertEquals(48, back.outputTokens());
        assertEquals(Map.of("HTTPError", 1L, "URLError", 2L), back.failuresByType());
        assertEquals(2.0, back.sketch(Quantity.TTFT).getCount());
        assertEquals(1.0, back.sketch(Quantity.ITL).getCount());
        assertEquals(0.01, back.relativeAccuracy());
    }

    /**
     * Issue 31: a partial aggregate made with another relative accuracy (the setting changed while partials were in
     * the repartition topic) is converted and merged; DDSketch's own merge threw, which would have failed the stream
     * thread on the same record at every restart.
     */
    @Test
    void anAggregateOfAnotherAccuracyIsMergedInsteadOfFailing() {
        WindowAggregate a = new WindowAggregate(0.01);
        a.addCompleted(new RequestSample(100, 90, 500, 10.0, 100.0, 5000.0, 1000L, 41), true);
        WindowAggregate b = new WindowAggregate(0.02);
        b.addCompleted(new RequestSample(200, 190, 700, null, null, null, null, 7), false);

        a.merge(b);

        org.assertj.core.api.Assertions.assertThat(a.completed()).as("completed").isEqualTo(2);
        org.assertj.core.api.Assertions.assertThat(a.sketch(Quantity.TTFT).getCount()).as("TTFT values")
                .isEqualTo(2.0);
        org.assertj.core.api.Assertions.assertThat(a.sketch(Quantity.TTFT).getMaxValue())
                .as("largest TTFT, within the two accuracies and a bin (4%%)")
                .isCloseTo(200, org.assertj.core.api.Assertions.within(8.0));
        org.assertj.core.api.Assertions.assertThat(a.relativeAccuracy()).as("accuracy kept").isEqualTo(0.01);
    }

    @Test
    void heartbeatsGoToEveryPartitionRequestsToTheirOwn() {
        HeartbeatBroadcastPartitioner p = new HeartbeatBroadcastPartitioner();
        assertEquals(java.util.Optional.of(java.util.Set.of(0, 1, 2)),
                p.partitions("t", RekeyProcessor.HEARTBEAT_KEY, WindowTestEvents.heartbeat(1000), 3));
        assertEquals(java.util.Optional.empty(),
                p.partitions("t", "a|b|le1024", WindowTestEvents.completed("r", 0, 1000, 10, 20, 5), 3));
    }

    @Test
    void contextBucketsAndKeys() {
        assertEquals("le1024", ContextBuckets.DEFAULT.label(0));
        assertEquals("le1024", ContextBuckets.DEFAULT.label(1024));
        assertEquals("le2048", ContextBuckets.DEFAULT.label(1025));
        assertEquals("gt131072", ContextBuckets.DEFAULT.label(200000));
        WindowKey k = new WindowKey("http://h:1/v1", "m", "le4096");
        assertEquals(k, WindowKey.decode(k.encode()));
        assertEquals("http://h:1/v1|m|le4096|60000", k.summaryKey(60000));
    }
}
