package io.capstream.aggregator.window;

import io.capstream.aggregator.stats.QuantileInterval;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link QuantileInterval#ranks} at the default level, remembered per sample size and percentile: the order-statistic
 * ranks of an interval depend only on n and the quantile, and working them out takes two binomial inverses (Hipparchus'
 * regularized Beta function, about 10 us), while a window close asks for 18 of them (6 quantities, 3 percentiles) and
 * the quantities of one window mostly share their n. The values are those of {@link QuantileInterval#ranks}, computed
 * once. Holds at most {@value #MAX_ENTRIES} entries (cleared when full: a long-lived aggregator with ever new window
 * sizes keeps a bounded heap). Thread-safe (the stream threads share it).
 */
final class IntervalRanks {
    /** Entries kept before the cache is emptied; an entry is a few dozen bytes. */
    static final int MAX_ENTRIES = 16_384;
    private static final ConcurrentHashMap<Long, QuantileInterval.Ranks> CACHE = new ConcurrentHashMap<>();

    private IntervalRanks() {
    }

    /**
     * @param n          sample size, &ge; 1 and &le; {@link Integer#MAX_VALUE}
     * @param percentile the percentile, 1..99 (e.g. 95)
     * @return {@code QuantileInterval.ranks(n, percentile / 100.0, QuantileInterval.DEFAULT_LEVEL)}; not null
     * @throws IllegalArgumentException as {@link QuantileInterval#ranks} (n beyond the binomial's range)
     */
    static QuantileInterval.Ranks of(long n, int percentile) {
        if (percentile < 1 || percentile > 99 || n < 1 || n > Integer.MAX_VALUE) {
            return QuantileInterval.ranks(n, percentile / 100.0, QuantileInterval.DEFAULT_LEVEL); // throws or rare
        }
        Long key = n * 100 + percentile;
        QuantileInterval.Ranks r = CACHE.get(key);
        if (r == null) {
            r = QuantileInterval.ranks(n, percentile / 100.0, QuantileInterval.DEFAULT_LEVEL);
            if (CACHE.size() >= MAX_ENTRIES) {
                CACHE.clear();
            }
            CACHE.put(key, r);
        }
        return r;
    }
}
