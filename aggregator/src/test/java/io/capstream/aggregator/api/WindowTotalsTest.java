package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.schemas.avro.WindowHistogram;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowTotalsTest {
    static WindowSummary summary(long start, long completed, Map<String, Long> failures, long[] ttftCounts, double ttftSum) {
        List<Long> counts = new ArrayList<>();
        long n = 0;
        for (long c : ttftCounts) {
            counts.add(c);
            n += c;
        }
        WindowHistogram h = new WindowHistogram(LatencyMeasure.BOUNDS_S, counts, ttftSum, n);
        long failed = failures.values().stream().mapToLong(Long::longValue).sum();
        return WindowSummary.newBuilder().setTarget("http://t/v1").setModel("m").setContextBucket("le4096")
                .setWindowStartMs(start).setWindowEndMs(start + 60_000).setRequests(completed + failed)
                .setCompleted(completed).setFailed(failed).setFailuresByType(failures).setErrorRate(0)
                .setPromptTokens(10 * completed).setOutputTokens(20 * completed).setOutputThroughputTokS(0)
                .setRelativeAccuracy(0.01).setLateDropped(0).setCancelled(2L)
                .setHistograms(Map.of("ttft", h)).build();
    }

    @Test
    void addsWindowsBucketByBucket() {
        WindowTotals totals = new WindowTotals(Clock.fixed(Instant.ofEpochMilli(5_000), ZoneOffset.UTC));
        long[] a = new long[15];
        a[3] = 2;
        a[14] = 1;
        long[] b = new long[15];
        b[3] = 1;
        b[6] = 4;
        totals.add(summary(0, 3, Map.of("HTTPError", 1L), a, 100.25));
        totals.add(summary(60_000, 5, Collections.emptyMap(), b, 2.0));

        List<WindowTotals.Snapshot> snaps = totals.snapshot();
        assertThat(snaps).as("one series").hasSize(1);
        WindowTotals.Snapshot s = snaps.get(0);
        WindowTotals.Histogram ttft = s.histograms().get(LatencyMeasure.TTFT);
        assertThat(ttft.counts()).as("bucket counts added").containsExactly(0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(ttft.count()).as("count").isEqualTo(8);
        assertThat(ttft.sumS()).as("sum, s").isEqualTo(102.25);
        assertThat(s.histograms()).as("only measures with values").containsOnlyKeys(LatencyMeasure.TTFT);
        assertThat(s.completed()).isEqualTo(8);
        assertThat(s.failuresByType()).containsExactly(Map.entry("HTTPError", 1L));
        assertThat(s.failed()).isEqualTo(1);
        assertThat(s.cancelled()).isEqualTo(4);
        assertThat(s.inputTokens()).isEqualTo(80);
        assertThat(s.outputTokens()).isEqualTo(160);
        assertThat(s.windows()).isEqualTo(2);
        assertThat(s.startEpochMs()).as("start stamped by the injected clock").isEqualTo(5_000);
        assertThat(s.lastWindowEndMs()).isEqualTo(120_000);
    }
}
