package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import java.util.List;

/**
 * The token usage of a series, input (prompt) and output tokens of completed requests. Current names: the monotonic
 * counters {@value #INPUT} and {@value #OUTPUT}. v1.41: the histogram {@value #LEGACY} by {@code gen_ai.token.type};
 * a window keeps token totals, not each request's count, so that histogram has a single bucket (no bounds) whose
 * count is the completed requests and whose sum is the tokens: exact, but without a distribution.
 */
final class TokenMetrics {
    /** Current name of the input-token counter. */
    static final String INPUT = "gen_ai.client.inference.usage.input_tokens";
    /** Current name of the output-token counter. */
    static final String OUTPUT = "gen_ai.client.inference.usage.output_tokens";
    /** v1.41 name of the token histogram. */
    static final String LEGACY = "gen_ai.client.token.usage";
    /** UCUM annotation of token counts. */
    static final String UNIT = "{token}";

    private TokenMetrics() {
    }

    /**
     * @param s        the series
     * @param names    which names
     * @param provider {@code gen_ai.provider.name}
     * @param nowNanos collection time, epoch ns
     * @param out      where the points go
     */
    static void add(WindowTotals.Snapshot s, OtlpNames names, String provider, long nowNanos, MetricBatch out) {
        long start = s.startEpochMs() * 1_000_000L;
        long now = Math.max(start, nowNanos);
        Attributes attributes = GenAiAttributes.of(s.key(), provider, GenAiAttributes.operation(s)).build();
        if (names.current()) {
            out.counter(INPUT, "Input (prompt) tokens of completed requests", UNIT,
                    LongPointData.create(start, now, attributes, s.inputTokens()));
            out.counter(OUTPUT, "Output tokens of completed requests", UNIT,
                    LongPointData.create(start, now, attributes, s.outputTokens()));
        }
        if (names.legacy()) {
            String description = "Tokens per completed request by gen_ai.token.type (totals only: one bucket)";
            out.histogram(LEGACY, description, UNIT, usage(start, now, attributes, "input", s.inputTokens(),
                    s.completed()));
            out.histogram(LEGACY, description, UNIT, usage(start, now, attributes, "output", s.outputTokens(),
                    s.completed()));
        }
    }

    private static HistogramPointData usage(long start, long now, Attributes series, String type, long tokens,
                                            long requests) {
        Attributes a = series.toBuilder().put(GenAiAttributes.TOKEN_TYPE, type).build();
        return HistogramPointData.create(start, now, a, tokens, false, 0, false, 0, List.of(), List.of(requests));
    }
}
