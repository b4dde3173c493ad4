package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TTFT histogram and the request and token counters on {@code /metrics} add up the windows' own bucket counts,
 * sums and totals ({@link WindowTotals}), in seconds with the GenAI bounds, cumulative over the windows.
 */
class WindowHistogramCollectorTest {
    private static final String LABELS = "context_bucket=\"le4096\",model=\"m\",target=\"http://t/v1\"";

    private static String twoWindows() {
        long[] a = new long[15];
        a[3] = 2;   // le 0.08
        a[14] = 1;  // above 81.92
        long[] b = new long[15];
        b[3] = 1;
        b[6] = 4;   // le 0.64
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.accept(WindowTotalsTest.summary(0, 3, Map.of("HTTPError", 1L), a, 100.25));
            metrics.accept(WindowTotalsTest.summary(60_000, 5, Collections.emptyMap(), b, 2.0));
            return metrics.scrape();
        }
    }

    @Test
    void ttftIsAClassicHistogramInSecondsWithCumulativeBucketsOverTheWindows() {
        String prom = twoWindows();
        assertThat(prom).as("TYPE").contains("# TYPE capstream_ttft_seconds histogram\n");
        assertThat(prom).as("HELP from LatencyMeasure.description()")
                .contains("# HELP capstream_ttft_seconds Time from sending a request to its first visible content token");
        assertThat(prom).as("below the first non-empty bucket")
                .contains("capstream_ttft_seconds_bucket{" + LABELS + ",le=\"0.04\"} 0\n");
        assertThat(prom).as("3 values <= 0.08 s over both windows")
                .contains("capstream_ttft_seconds_bucket{" + LABELS + ",le=\"0.08\"} 3\n");
        assertThat(prom).as("buckets are cumulative: 3 + 4 <= 0.64 s")
                .contains("capstream_ttft_seconds_bucket{" + LABELS + ",le=\"0.64\"} 7\n");
        assertThat(prom).as("last finite bound").contains("capstream_ttft_seconds_bucket{" + LABELS + ",le=\"81.92\"} 7\n");
        assertThat(prom).as("+Inf").contains("capstream_ttft_seconds_bucket{" + LABELS + ",le=\"+Inf\"} 8\n");
        assertThat(prom).as("count").contains("capstream_ttft_seconds_count{" + LABELS + "} 8\n");
        assertThat(prom).as("sum, seconds").contains("capstream_ttft_seconds_sum{" + LABELS + "} 102.25\n");
        assertThat(prom).as("no histogram of a measure without values").doesNotContain("capstream_e2e_seconds");
    }

    @Test
    void requestsByOutcomeAndErrorTypeAndTokensAreCountersOverTheWindows() {
        String prom = twoWindows();
        assertThat(prom).contains("# TYPE capstream_requests_total counter\n");
        assertThat(prom).as("completed over both windows")
                .contains("capstream_requests_total{" + requestLabels(null, "completed") + "} 8.0\n");
        assertThat(prom).as("failed, by error type")
                .contains("capstream_requests_total{" + requestLabels("HTTPError", "failed") + "} 1.0\n");
        assertThat(prom).as("cancelled (2 per window)")
                .contains("capstream_requests_total{" + requestLabels(null, "cancelled") + "} 4.0\n");
        assertThat(prom).as("input tokens").contains("capstream_input_tokens_total{" + LABELS + "} 80.0\n");
        assertThat(prom).as("output tokens").contains("capstream_output_tokens_total{" + LABELS + "} 160.0\n");
        assertThat(prom).as("the old per-target counters are retired")
                .doesNotContain("capstream_window_requests_total").doesNotContain("capstream_window_failures_total");
    }

    /** Labels in exposition order (sorted by name). */
    private static String requestLabels(String errorType, String outcome) {
        return "context_bucket=\"le4096\"," + (errorType == null ? "" : "error_type=\"" + errorType + "\",")
                + "model=\"m\",outcome=\"" + outcome + "\",target=\"http://t/v1\"";
    }

    @Test
    void nothingBeforeTheFirstWindow() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            assertThat(metrics.scrape()).doesNotContain("capstream_ttft_seconds").doesNotContain("capstream_requests_total");
        }
    }
}
