package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.slo.SloParser;
import io.capstream.aggregator.stats.RepeatInterval;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sweep --repeat N}: a load's SLO verdict comes from the interval over its runs (issue 32). */
class RepeatSummaryTest {
    private static final List<String> SLOS = List.of("ttft_p95_ms<=300");

    /** A step's report whose TTFT p95 (and the SLO's observed value) is {@code p95}, met when it is <= 300. */
    private static BenchmarkReport report(double p95) {
        SloAttainment a = SloAttainment.newBuilder().setSlo("ttft_p95_ms<=300").setMetric("ttft_p95_ms")
                .setThreshold(300).setObserved(p95).setMet(p95 <= 300).build();
        SloReport slo = SloReport.newBuilder().setSlos(List.of(a)).setRequests(32).setGoodRequests(30)
                .setGoodput(30 / 32.0).setMetAll(p95 <= 300).build();
        Distribution ttft = Distribution.newBuilder().setCount(32).setP50(p95 / 2).setP95(p95).build();
        RunStatistics statistics = new RunStatistics(); // only what the summary reads
        statistics.setTtftMs(ttft);
        statistics.setRequestThroughputRps(3.2);
        return BenchmarkReport.newBuilder().setRunId("s").setBaseUrl("http://127.0.0.1:8000/v1").setModel("m")
                .setRequests(32).setCompleted(32).setFailed(0).setFailures(List.of()).setConcurrency(4)
                .setMaxTokens(32).setRequestTimings(List.of()).setWallClockMs(10_000.0)
                .setMetrics(Metrics.newBuilder().setTtftP95Ms(p95).build())
                .setStatistics(statistics)
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build()).setArtifactJson("")
                .setSlo(slo).build();
    }

    private static RepeatSummary summary(double load, double... p95s) {
        List<BenchmarkReport> runs = new ArrayList<>();
        for (double p : p95s) {
            runs.add(report(p));
        }
        return new RepeatSummary(load, runs, SloParser.parseAll(SLOS));
    }

    @Test
    void aLoadMeetsAnSloOnlyWhenTheWholeIntervalOfItsRunsIsOnTheGoodSide() {
        RepeatSummary clear = summary(4, 200, 210, 205);
        assertThat(clear.side(0)).as("p95 200/210/205 against <= 300").isEqualTo(RepeatInterval.SloSide.MET);
        assertThat(clear.met()).as("met").isTrue();
        // every run met the SLO on its own (mean 283), but three runs cannot rule out a typical p95 above 300
        RepeatSummary edge = summary(8, 250, 290, 299);
        assertThat(edge.side(0)).as("p95 250/290/299: interval %s", edge.observed(0).text())
                .isEqualTo(RepeatInterval.SloSide.STRADDLES);
        assertThat(edge.met()).as("a straddling interval is not a pass").isFalse();
        assertThat(edge.line(LoadAxis.CONCURRENCY)).as("line").startsWith("concurrency 8 over 3 runs: req/s 3.2")
                .contains("TTFT p95 279.7 [214.9, 344.5] CV 9.3%")
                .endsWith("; ttft_p95_ms<=300 UNDECIDED (interval contains the threshold)");
        RepeatSummary over = summary(16, 600, 640, 620);
        assertThat(over.side(0)).as("p95 600/640/620").isEqualTo(RepeatInterval.SloSide.MISSED);
        assertThat(RepeatSummary.maxLoadMet(List.of(clear, edge, over))).as("max load by the intervals").isEqualTo(4.0);
        assertThat(RepeatSummary.render(List.of(clear, edge, over), LoadAxis.CONCURRENCY)).as("section")
                .contains("repeats: mean over each load's 3 runs [95% t-interval] and coefficient of variation\n")
                .endsWith("largest load meeting the SLOs by the intervals of its runs: concurrency 4\n");
    }
}
