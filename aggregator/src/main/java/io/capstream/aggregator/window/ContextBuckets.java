package io.capstream.aggregator.window;

import java.util.List;
import java.util.Objects;

/**
 * Context buckets of windowed summaries: a request falls in the first bucket whose upper bound is
 * at least its planned context (tokens, spec §3.1). Labels are {@code le<bound>} (planned context
 * &le; bound) and {@code gt<last bound>} above the last bound. The default bounds are powers of
 * two: 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072 tokens, so labels are {@code le1024},
 * {@code le2048}, ..., {@code le131072}, {@code gt131072}.
 *
 * @param upperBounds strictly increasing upper bounds, tokens; not null, not empty
 */
public record ContextBuckets(List<Integer> upperBounds) {
    /** The default power-of-two bounds (1 Ki .. 128 Ki tokens). */
    public static final ContextBuckets DEFAULT =
            new ContextBuckets(List.of(1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072));

    /** Validates and copies. */
    public ContextBuckets {
        Objects.requireNonNull(upperBounds, "upperBounds");
        if (upperBounds.isEmpty()) {
            throw new IllegalArgumentException("at least one context bucket bound is required");
        }
        upperBounds = List.copyOf(upperBounds);
        for (int i = 1; i < upperBounds.size(); i++) {
            if (upperBounds.get(i) <= upperBounds.get(i - 1)) {
                throw new IllegalArgumentException("context bucket bounds must increase strictly: " + upperBounds);
            }
        }
    }

    /**
     * @param plannedContextTokens planned (clamped) context of a request, tokens
     * @return the bucket label, e.g. {@code le4096}
     */
    public String label(int plannedContextTokens) {
        for (int bound : upperBounds) {
            if (plannedContextTokens <= bound) {
                return "le" + bound;
            }
        }
        return "gt" + upperBounds.get(upperBounds.size() - 1);
    }
}
