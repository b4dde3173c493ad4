package io.capstream.cli.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TailPrinterTest {
    static WindowSummary summary() {
        return WindowSummary.newBuilder().setTarget("http://127.0.0.1:8000/v1").setModel("m").setContextBucket("le4096")
                .setWindowStartMs(1_767_225_600_000L).setWindowEndMs(1_767_225_660_000L).setRequests(10)
                .setCompleted(9).setFailed(1).setFailuresByType(Map.of("URLError", 1L)).setErrorRate(0.1)
                .setPromptTokens(100).setOutputTokens(600).setOutputThroughputTokS(10.0).setRelativeAccuracy(0.01)
                .setTtftMs(new Quantiles(9L, 120.0, 250.5, 300.0, null, null, null, null)).setGoodput(0.8).setGoodputRequests(8L).build();
    }

    private static String render(TailKind kind, TailFormat format, Object... records) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TailPrinter p = new TailPrinter(kind, format, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        for (Object r : records) {
            p.print((org.apache.avro.specific.SpecificRecord) r);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aLargeReportPrintsItsSummaryRecordAsJson() {
        var report = io.capstream.aggregator.report.calc.ReportCalculator.compute(
                new io.capstream.aggregator.report.calc.RunData("big-run", null, java.util.List.of(),
                        java.util.List.of(), null, null));
        String inline = render(TailKind.REPORTS, TailFormat.JSONL, report);
        assertThat(inline).contains("\"capstream\":{\"complete\":false");
        assertThat(inline).doesNotContain("artifact_chunks");
        report.setArtifactJson("");
        report.setArtifactChunks(221);
        String chunked = render(TailKind.REPORTS, TailFormat.JSONL, report);
        assertThat(chunked).contains("\"run_id\":\"big-run\"", "\"artifact_chunks\":221");
    }

    @Test
    void reportsTableShowsTheTypedMetricColumnsInTheFixedLayout() {
        var report = io.capstream.schemas.avro.BenchmarkReport.newBuilder().setRunId("benchmark-1").setModel("m")
                .setBaseUrl("http://127.0.0.1:8000/v1").setRequests(60).setCompleted(58).setFailed(2).setConcurrency(4)
                .setMaxTokens(16).setMetrics(io.capstream.schemas.avro.Metrics.newBuilder().setTtftP50Ms(41.25)
                        .setTtftP95Ms(99.96).setE2eP95Ms(null).setThroughputTokS(505.64).build())
                .setProvenance(io.capstream.schemas.avro.Provenance.newBuilder()
                        .setKind(io.capstream.schemas.avro.ReportKind.REPLAY).build())
                .setArtifactJson("").build();
        String[] lines = render(TailKind.REPORTS, TailFormat.TABLE, report).split("\n");
        // issue 32: each latency percentile is followed by its 95% interval ("-" without statistics)
        String layout = "%-40s %-20s %-32s %9s %6s %9s %-18s %9s %-18s %9s %-18s %10s %-8s";
        assertEquals(String.format(java.util.Locale.ROOT, layout, "run_id", "model", "base_url", "completed", "failed",
                "ttft_p50", "95% CI", "ttft_p95", "95% CI", "e2e_p95", "95% CI", "tok/s", "kind"), lines[0]);
        assertEquals(String.format(java.util.Locale.ROOT, layout, "benchmark-1", "m", "http://127.0.0.1:8000/v1", "58/60",
                "2", "41.3", "-", "100.0", "-", "-", "-", "505.6", "replay"), lines[1]);
        var d = io.capstream.schemas.avro.Distribution.newBuilder().setCount(60).setP50(41.25).setP95(99.96)
                .setP50Ci(java.util.List.of(39.5, 44.0))
                .setCiUnavailable(Map.of("p95", "60 values are too few for a 95% interval of p95 (needs at least 72)"))
                .build();
        var empty = io.capstream.schemas.avro.Distribution.newBuilder().setCount(0).build();
        var withStats = io.capstream.schemas.avro.BenchmarkReport.newBuilder(report).setStatistics(
                io.capstream.schemas.avro.RunStatistics.newBuilder().setTtftMs(d).setTtfoMs(empty).setE2eMs(empty)
                        .setItlMs(empty).setInterChunkMs(empty).build()).build();
        assertThat(render(TailKind.REPORTS, TailFormat.TABLE, withStats).split("\n")[1]).as("row with statistics")
                .contains("      41.3 [39.5, 44.0]" + " ".repeat(11) + "100.0 [n<72]" + " ".repeat(21) + "- -");
    }

    @Test
    void tableHasHeaderAndOneLinePerSummary() {
        String text = render(TailKind.SUMMARIES, TailFormat.TABLE, summary(), summary());
        String[] lines = text.split("\n");
        assertEquals(3, lines.length);
        assertThat(lines[0]).startsWith("window_start");
        assertThat(lines[1]).startsWith("2026-01-01 00:00:00Z");
        assertThat(lines[1]).contains("le4096");
        assertThat(lines[1]).as("error rate in percent: " + lines[1]).contains(" 10.00 ");
        assertThat(lines[1]).as("p95 TTFT: " + lines[1]).contains("250.5");
        assertThat(lines[1]).as("goodput: " + lines[1]).contains("0.800");
    }

    /** Fresh-user pass: window summaries count cancelled requests (--cancel-rate); the table shows them. */
    @Test
    void summaryRowsShowTheCancelledRequestsUnderTheirHeader() {
        String[] lines = render(TailKind.SUMMARIES, TailFormat.TABLE, WindowSummary.newBuilder(summary())
                .setCancelled(7L).build(), summary()).split("\n");
        int end = lines[0].indexOf("cancel") + "cancel".length();
        assertThat(lines[0]).as("header").contains("  req  fail cancel   err%");
        assertThat(lines[1].substring(0, end)).as("row with 7 cancelled, under the header:%n%s%n%s", lines[0], lines[1])
                .endsWith("    10     1      7");
        assertThat(lines[2].substring(0, end)).as("row with none cancelled (null):%n%s%n%s", lines[0], lines[2])
                .endsWith("    10     1      0");
        assertThat(lines[1].indexOf("10.00")).as("err%% still under its header").isEqualTo(lines[0].indexOf("err%") - 1);
    }

    /** Issue 32: each window percentile is followed by its 95% interval, or the marker of too few samples. */
    @Test
    void summaryRowsShowEachPercentilesIntervalOrWhyNot() {
        WindowSummary s = WindowSummary.newBuilder(summary()).setRequests(200).setTtftMs(new Quantiles(200L, 120.0,
                250.5, 300.0, java.util.List.of(110.25, 131.0), java.util.List.of(231.0, 280.75), null,
                Map.of("p99", "200 values are too few for a 95% interval of p99 (needs at least 368)"))).build();
        String[] lines = render(TailKind.SUMMARIES, TailFormat.TABLE, s).split("\n");
        assertThat(lines[0]).as("header").contains("ttft_p50 95% CI", "ttft_p95 95% CI", "ttft_p99 95% CI",
                "e2e_p95 95% CI", "itl_p50 95% CI");
        assertThat(lines[1]).as("row").contains("     120.0 [110.3, 131.0]         250.5 [231.0, 280.8]         300.0 [n<368]        ",
                "         - -                         - -                     10.0   0.800");
        assertThat(lines[1].indexOf("[231.0")).as("p95 interval under its header: %s%n%s", lines[0], lines[1])
                .isEqualTo(lines[0].indexOf("95% CI", lines[0].indexOf("ttft_p95")));
        assertThat(render(TailKind.SUMMARIES, TailFormat.JSONL, s)).as("JSON")
                .contains("\"p95_ci\":[231.0,280.75]", "\"ci_unavailable\":{\"p99\":\"200 values are too few");
    }

    /** Issue 33 (fresh-user pass): the [n<M] markers get the run console's key line under the table. */
    @Test
    void theMarkersKeyLineComesUnderTheTableAsUnderTheRunsSummary() {
        WindowSummary s = WindowSummary.newBuilder(summary()).setRequests(200).setTtftMs(new Quantiles(200L, 120.0,
                250.5, 300.0, java.util.List.of(110.25, 131.0), java.util.List.of(231.0, 280.75), null,
                Map.of("p99", "200 values are too few for a 95% interval of p99 (needs at least 368)"))).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TailPrinter p = new TailPrinter(TailKind.SUMMARIES, TailFormat.TABLE,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.print(s);
        p.print(s);
        p.finish();
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).as("header, two rows, key").hasSize(4);
        assertThat(lines[3]).as("key line").isEqualTo("[n<M]: too few values for a 95% interval of that percentile"
                + " (368 needed for p99)");
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        TailPrinter q = new TailPrinter(TailKind.SUMMARIES, TailFormat.TABLE,
                new PrintStream(none, true, StandardCharsets.UTF_8));
        q.print(WindowSummary.newBuilder(summary()).setTtftMs(null).build());
        q.finish();
        assertThat(none.toString(StandardCharsets.UTF_8)).as("a table without markers").doesNotContain("[n<M]");
    }

    @Test
    void jsonlIsOneCompactObjectPerLine() {
        String text = render(TailKind.SUMMARIES, TailFormat.JSONL, summary());
        assertEquals(1, text.split("\n").length);
        assertThat(text).startsWith("{\"target\":\"http://127.0.0.1:8000/v1\"");
        assertThat(text).contains("\"failures_by_type\":{\"URLError\":1}");
        String alert = render(TailKind.ALERTS, TailFormat.JSONL, SloBreach.newBuilder().setTarget("t").setModel("m")
                .setContextBucket("le1024").setSlo("ttft_p95_ms<=500").setMetric("ttft_p95_ms").setComparison("<=")
                .setThreshold(500).setObserved(900.0).setState(SloState.BREACH).setWindowStartMs(0).setWindowEndMs(1)
                .setDetectedAtMs(2).build());
        assertThat(alert).contains("\"state\":\"BREACH\"");
    }

    @Test
    void anAlertsObservedRateIsNotRoundedAwayFromItsThreshold() {
        // before the fix an error rate of 0.25 printed as 0.3 against error_rate<=0.01, and 0.004 as 0.0
        Map<Double, String> expected = Map.of(0.25, "0.25", 0.004, "0.004", 0.0123456, "0.0123", 12.345, "12.3",
                900.04, "900.0");
        expected.forEach((seen, text) -> {
            String table = render(TailKind.ALERTS, TailFormat.TABLE, SloBreach.newBuilder().setTarget("t").setModel("m")
                    .setContextBucket("all").setSlo("error_rate<=0.01").setMetric("error_rate").setComparison("<=")
                    .setThreshold(0.01).setObserved(seen).setState(SloState.BREACH).setWindowStartMs(0)
                    .setWindowEndMs(1).setDetectedAtMs(2).build());
            assertThat(table.lines().toList().get(1)).as("the alert row observing " + seen).endsWith(" " + text);
        });
    }

    @Test
    void changePointsPrintAsATableAndAsJson() {
        var change = io.capstream.schemas.avro.ChangePoint.newBuilder().setTarget("http://127.0.0.1:8000/v1")
                .setModel("m").setContextBucket("all").setMetric("ttft_p95_ms").setDirection("up").setBefore(500)
                .setAfter(612.5).setRelativeChange(0.225).setConfidence(0.9993).setReferenceWindows(30)
                .setAfterWindows(4).setChangeWindowStartMs(1_767_225_600_000L)
                .setDetectedWindowEndMs(1_767_225_840_000L).setDetectedAtMs(1_767_225_845_000L).build();
        String table = render(TailKind.CHANGES, TailFormat.TABLE, change);
        assertThat(table.lines().toList()).as(table).hasSize(2);
        assertThat(table.lines().toList().get(0)).contains("change_start").contains("metric").contains("before")
                .contains("after").contains("conf");
        assertThat(table.lines().toList().get(1)).contains("2026-01-01").contains("ttft_p95_ms").contains("500")
                .contains("612.5").contains("+22.5%").contains("0.999");
        assertThat(render(TailKind.CHANGES, TailFormat.JSONL, change)).contains("\"relative_change\":0.225")
                .contains("\"direction\":\"up\"");
        assertThat(TailKind.parse("changes").topic()).isEqualTo("capstream.changes");
    }

    static io.capstream.schemas.avro.SweepCurve sweep(String axis, Double max, Integer planned) {
        var point = io.capstream.schemas.avro.SweepPoint.newBuilder().setStep(1).setRunId("sweep-1-s1").setLoad(8)
                .setRequests(10).setCompleted(10).setFailed(0).setOfferedLoad(8).setMeetsSlos(max != null).build();
        return io.capstream.schemas.avro.SweepCurve.newBuilder().setSweepId("sweep-1").setAxis(axis).setMode("grid")
                .setStepsPlanned(planned).setPoints(new java.util.ArrayList<>(java.util.List.of(point, point)))
                .setMaxLoadMeetingSlos(max).setMaxLoadRunId(max == null ? null : "sweep-1-s1")
                .setUpdatedAtMs(1_767_225_600_000L).build();
    }

    @Test
    void sweepsTableHasOneLinePerCurveUpdate() {
        String[] lines = render(TailKind.SWEEPS, TailFormat.TABLE, sweep("concurrency", 8.0, 4), sweep("rate", 12.5, null),
                sweep("rate", null, null)).split("\n");
        String layout = "%-20s %-36s %-11s %-6s %7s %9s %-40s";
        assertEquals(4, lines.length);
        assertEquals(String.format(java.util.Locale.ROOT, layout, "updated_at", "sweep_id", "axis", "mode", "steps",
                "max_load", "max_load_run_id"), lines[0]);
        assertEquals(String.format(java.util.Locale.ROOT, layout, "2026-01-01 00:00:00Z", "sweep-1", "concurrency", "grid",
                "2/4", "8", "sweep-1-s1"), lines[1]);
        assertEquals(String.format(java.util.Locale.ROOT, layout, "2026-01-01 00:00:00Z", "sweep-1", "rate", "grid",
                "2", "12.50", "sweep-1-s1"), lines[2]);
        assertEquals(String.format(java.util.Locale.ROOT, layout, "2026-01-01 00:00:00Z", "sweep-1", "rate", "grid",
                "2", "-", "-"), lines[3]);
    }

    @Test
    void sweepsJsonIsTheSweepFileForm() {
        String text = render(TailKind.SWEEPS, TailFormat.JSONL, sweep("concurrency", 8.0, 4));
        assertEquals(1, text.split("\n").length);
        assertThat(text).contains("\"max_load_meeting_slos\":{\"concurrency\":8,\"run_id\":\"sweep-1-s1\",\"step\":1}");
        assertThat(text).doesNotContain("max_load_run_id");
        assertEquals(null, TailKind.SWEEPS.target(sweep("rate", null, null)));
        assertEquals(null, TailKind.SWEEPS.model(sweep("rate", null, null)));
    }

    @Test
    void serverMetricsScrapesPrintTheQueueAndKvCache() {
        io.capstream.schemas.avro.ServerMetricsScrape m = io.capstream.schemas.avro.ServerMetricsScrape.newBuilder()
                .setRunId("run-1").setWorkerId("w").setTarget("http://127.0.0.1:8000/v1").setModel("m")
                .setUrl("http://127.0.0.1:8000/metrics").setScrapedAtEpochMs(1_780_000_000_000L).setTMs(2500.0)
                .setScrapeMs(1.2).setSamples(java.util.Map.of("requests_running", 4.0, "requests_waiting", 2.0,
                        "generation_tokens", 900.0)).build();
        String[] lines = render(TailKind.SERVER_METRICS, TailFormat.TABLE, m).split("\n");
        assertEquals(2, lines.length);
        assertThat(lines[0]).startsWith("scraped_at           run_id");
        assertEquals("2026-05-28 20:26:40Z run-1                                    http://127.0.0.1:8000/v1              "
                + "2.5      4.0      2.0        -      3", lines[1]);
        assertEquals(TailKind.SERVER_METRICS, TailKind.parse("server-metrics"));
        assertEquals("http://127.0.0.1:8000/v1", TailKind.SERVER_METRICS.target(m));
        assertThat(render(TailKind.SERVER_METRICS, TailFormat.JSONL, m)).contains("\"requests_running\":4.0");
    }

    /**
     * Fresh-user pass 3: the baseline scrape, a few ms before T0, printed {@code t_s -0.0}. A time that rounds to zero
     * prints 0.0; one at least 0.05 s before T0 keeps its sign (a scrape before T0 is legitimately negative).
     */
    @Test
    void serverMetricsTimesRoundingToZeroFromBelowPrintWithoutSign() {
        java.util.function.DoubleFunction<String> row = tMs -> render(TailKind.SERVER_METRICS, TailFormat.TABLE,
                io.capstream.schemas.avro.ServerMetricsScrape.newBuilder().setRunId("run-1").setWorkerId("w")
                        .setTarget("http://127.0.0.1:8000/v1").setModel("m").setUrl("http://127.0.0.1:8000/metrics")
                        .setScrapedAtEpochMs(1_780_000_000_000L).setTMs(tMs).setScrapeMs(1.2)
                        .setSamples(java.util.Map.of("requests_running", 0.0)).build()).split("\n")[1];
        for (double tMs : new double[] {-3.0, -49.9, -0.0, 0.0}) {
            assertThat(row.apply(tMs).split(" +")).as("row of a scrape at t_ms %s: %s", tMs, row.apply(tMs))
                    .contains("0.0").doesNotContain("-0.0");
        }
        assertThat(row.apply(-1250.0).split(" +")).as("row of a scrape 1.25 s before T0: %s", row.apply(-1250.0))
                .contains("-1.3");
        assertThat(row.apply(-50.0).split(" +")).as("row of a scrape 50 ms before T0: %s", row.apply(-50.0))
                .contains("-0.1");
        assertThat(TailPrinter.seconds(null)).as("outside a run").isEqualTo("-");
    }
}
