package io.capstream.aggregator.stats;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Cached {@link QuantileInterval#ranks} at the default 95% level, for paths that ask for the same (n, percentile)
 * again and again (every window close asks for p50, p95 and p99 of up to six quantities, and windows of a steady
 * load hold similar counts). The cache holds at most {@value #MAX_ENTRIES} entries and is emptied when full (a
 * miss costs two binomial inverses, some microseconds). Thread-safe.
 */
public final class IntervalRanks {
    static final int MAX_ENTRIES = 50_000;
    private static final ConcurrentHashMap<Key, QuantileInterval.Ranks> CACHE = new ConcurrentHashMap<>();

    private IntervalRanks() {
    }

    /**
     * @param n          sample size, &ge; 0
     * @param percentile percentile in (0, 100), e.g. 95
     * @return the ranks of the 95% interval of that percentile, or the reason there is none
     * @throws IllegalArgumentException for a percentile outside (0, 100) or a negative n
     */
    public static QuantileInterval.Ranks of(long n, int percentile) {
        Key key = new Key(n, percentile);
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

    private record Key(long n, int percentile) {
    }
}
