package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.WindowHistogram;
import org.junit.jupiter.api.Test;

class BucketCountsTest {
    @Test
    void aValueOnABoundGoesToThatBucketLikePrometheusLe() {
        BucketCounts h = new BucketCounts();
        h.add(0.01); // first bound: bucket 0
        h.add(0.0100001); // just above: bucket 1
        h.add(0.0); // bucket 0
        h.add(81.92); // last finite bound: bucket 13
        h.add(100); // +Inf: bucket 14
        h.add(Double.NaN); // ignored
        h.add(-1); // ignored
        assertThat(h.counts()).as("counts per bucket").containsExactly(2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1);
        assertThat(h.count()).as("count").isEqualTo(5);
        assertThat(h.sumS()).as("sum, s").isCloseTo(0.01 + 0.0100001 + 81.92 + 100, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void recordSpellsOutTheGenAiBounds() {
        BucketCounts h = new BucketCounts();
        h.add(0.9);
        WindowHistogram r = h.toRecord();
        assertThat(r.getBoundsS()).as("bounds").containsExactly(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56,
                5.12, 10.24, 20.48, 40.96, 81.92);
        assertThat(r.getCounts()).as("0.9 s is in (0.64, 1.28]").containsExactly(0L, 0L, 0L, 0L, 0L, 0L, 0L, 1L, 0L,
                0L, 0L, 0L, 0L, 0L, 0L);
        assertThat(r.getCount()).isEqualTo(1);
        assertThat(r.getSumS()).isEqualTo(0.9);
    }

    @Test
    void restoringTakesExactlyOneCountPerBucket() {
        assertThatThrownBy(() -> new BucketCounts(new long[3], 0L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 15 bucket counts, got 3");
        BucketCounts h = new BucketCounts(new long[] {1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, 2_000_000_000L);
        assertThat(h.count()).as("count is the sum of counts").isEqualTo(3);
    }
}
