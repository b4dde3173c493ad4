package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.stats.QuantileInterval;
import org.junit.jupiter.api.Test;

/** The remembered interval ranks are those {@link QuantileInterval#ranks} works out, for every n and percentile. */
class IntervalRanksTest {
    @Test
    void rememberedRanksEqualTheComputedOnesForManySampleSizes() {
        int[] percentiles = {50, 95, 99};
        for (int round = 0; round < 2; round++) { // the second round reads what the first remembered
            for (long n = 1; n <= 3000; n++) {
                check(n, percentiles);
            }
            for (long n = 3000; n <= 2_000_000; n = n * 5 / 4 + 7) {
                check(n, percentiles);
            }
        }
    }

    @Test
    void aFullCacheIsEmptiedAndStillAnswersRight() {
        for (long n = 1; n <= IntervalRanks.MAX_ENTRIES + 10L; n++) {
            QuantileInterval.Ranks r = IntervalRanks.of(n, 50);
            assertThat(r.n()).as("n of the ranks for n=%d", n).isEqualTo(n);
        }
        check(7, new int[] {50, 95, 99});
    }

    private static void check(long n, int[] percentiles) {
        for (int pct : percentiles) {
            assertThat(IntervalRanks.of(n, pct)).as("ranks of p%d for n=%d", pct, n)
                    .isEqualTo(QuantileInterval.ranks(n, pct / 100.0, QuantileInterval.DEFAULT_LEVEL));
        }
    }
}
