package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.LongPointData;

/**
 * The requests of a series by outcome: the monotonic counter {@value #NAME} with {@code capstream.outcome} completed,
 * failed (one point per {@code error.type}) or cancelled (cancelled on purpose by the client; only once there are
 * any). The GenAI conventions have no request counter: their histograms' counts play that part.
 */
final class RequestMetrics {
    /** Name of the requests counter (capstream's own). */
    static final String NAME = "capstream.client.requests";
    /** UCUM annotation. */
    static final String UNIT = "{request}";
    private static final String DESCRIPTION =
            "Requests that ended in the closed windows, by capstream.outcome (completed, failed by error.type, cancelled)";

    private RequestMetrics() {
    }

    /**
     * @param s        the series
     * @param provider {@code gen_ai.provider.name}
     * @param nowNanos collection time, epoch ns
     * @param out      where the points go
     */
    static void add(WindowTotals.Snapshot s, String provider, long nowNanos, MetricBatch out) {
        long start = s.startEpochMs() * 1_000_000L;
        long now = Math.max(start, nowNanos);
        Attributes series = GenAiAttributes.of(s.key(), provider, GenAiAttributes.operation(s)).build();
        out.counter(NAME, DESCRIPTION, UNIT, LongPointData.create(start, now,
                with(series, "completed").build(), s.completed()));
        s.failuresByType().forEach((type, n) -> out.counter(NAME, DESCRIPTION, UNIT, LongPointData.create(start, now,
                with(series, "failed").put(GenAiAttributes.ERROR_TYPE, type).build(), n)));
        if (s.cancelled() > 0) {
            out.counter(NAME, DESCRIPTION, UNIT, LongPointData.create(start, now,
                    with(series, "cancelled").build(), s.cancelled()));
        }
    }

    private static io.opentelemetry.api.common.AttributesBuilder with(Attributes series, String outcome) {
        return series.toBuilder().put(GenAiAttributes.OUTCOME, outcome);
    }
}
