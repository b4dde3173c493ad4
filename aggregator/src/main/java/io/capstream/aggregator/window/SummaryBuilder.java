package io.capstream.aggregator.window;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowHistogram;
import io.capstream.schemas.avro.WindowSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a closed window's {@link WindowAggregate} into the {@link WindowSummary} record:
 * nearest-rank p50/p95/p99 estimated from the sketches ({@link SketchPercentile}), error rate =
 * failed / requests (0 when no requests), output throughput = output tokens / window length
 * (tokens/s), goodput = requests meeting every per-request SLO / requests (null without SLOs), and the exact
 * bucket counts per {@link LatencyMeasure} (issue 31; null when the window had no latency value).
 */
public final class SummaryBuilder {
    private SummaryBuilder() {
    }

    /**
     * @param key           the window's key; not null
     * @param windowStartMs window start, epoch ms (inclusive)
     * @param windowEndMs   window end, epoch ms (exclusive)
     * @param agg           the aggregate; not null
     * @param withGoodput   whether SLOs are set (goodput fields filled)
     * @return the summary
     */
    public static WindowSummary build(WindowKey key, long windowStartMs, long windowEndMs, WindowAggregate agg,
                                      boolean withGoodput) {
        long requests = agg.requests();
        double seconds = (windowEndMs - windowStartMs) / 1000.0;
        Map<String, Long> failures = new LinkedHashMap<>(agg.failuresByType());
        return WindowSummary.newBuilder()
                .setTarget(key.target())
                .setModel(key.model())
                .setContextBucket(key.bucket())
                .setWindowStartMs(windowStartMs)
                .setWindowEndMs(windowEndMs)
                .setRequests(requests)
                .setCompleted(agg.completed())
                .setFailed(agg.failed())
                .setFailuresByType(failures)
                .setErrorRate(requests == 0 ? 0.0 : (double) agg.failed() / requests)
                .setPromptTokens(agg.promptTokens())
                .setOutputTokens(agg.outputTokens())
                .setOutputThroughputTokS(seconds <= 0 ? 0.0 : agg.outputTokens() / seconds)
                .setRelativeAccuracy(agg.relativeAccuracy())
                .setTtftMs(quantiles(agg, Quantity.TTFT))
                .setTtfoMs(quantiles(agg, Quantity.TTFO))
                .setE2eMs(quantiles(agg, Quantity.E2E))
                .setItlMs(quantiles(agg, Quantity.ITL))
                .setDecodeTokS(quantiles(agg, Quantity.DECODE))
                .setPrefillTokS(quantiles(agg, Quantity.PREFILL))
                .setGoodput(withGoodput ? (requests == 0 ? null : (double) agg.goodRequests() / requests) : null)
                .setGoodputRequests(withGoodput ? agg.goodRequests() : null)
                .setCancelled(agg.cancelled() == 0 ? null : agg.cancelled())
                .setHistograms(histograms(agg))
                .build();
    }

    /** @return bucket counts per measure id, measures without values left out; null when none has any */
    private static Map<String, WindowHistogram> histograms(WindowAggregate agg) {
        Map<String, WindowHistogram> out = new LinkedHashMap<>();
        for (LatencyMeasure m : LatencyMeasure.values()) {
            BucketCounts h = agg.histogram(m);
            if (h.count() > 0) {
                out.put(m.id(), h.toRecord());
            }
        }
        return out.isEmpty() ? null : out;
    }

    private static Quantiles quantiles(WindowAggregate agg, Quantity q) {
        var sketch = agg.sketch(q);
        long n = Math.round(sketch.getCount());
        if (n == 0) {
            return null;
        }
        return new Quantiles(n, SketchPercentile.percentile(sketch, 50), SketchPercentile.percentile(sketch, 95),
                SketchPercentile.percentile(sketch, 99), null, null, null, null);
    }
}
