package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.aggregator.importer.ArtifactImporter;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.LoadStage;
import io.capstream.schemas.avro.SteadyState;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.WorkerSummary;
import io.capstream.schemas.report.ReportView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTableTest {
    private static Path shared() {
        return SharedDir.get();
    }

    /** A report with the given failures and metrics, every other metric null. */
    static BenchmarkReport report(List<FailureEntry> failures, Metrics metrics) {
        return BenchmarkReport.newBuilder().setRunId("r").setBaseUrl("http://127.0.0.1:8000/v1").setModel("m")
                .setRequests(2).setCompleted(0).setFailed(failures.size()).setFailures(failures).setConcurrency(1)
                .setMaxTokens(16).setRequestTimings(List.of()).setMetrics(metrics)
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build()).setArtifactJson("").build();
    }

    private static ClientCheck client(boolean distorted, List<String> warnings) {
        return ClientCheck.newBuilder().setDelayP50Ms(0.08).setDelayP99Ms(7.25).setDelayMaxMs(31.0)
                .setCpuProcessMs(812.4).setCpuEventLoopsMs(103.2).setCpuMsPer1000Chunks(6.3).setGcPauses(2)
                .setGcPauseMaxMs(0.4).setInFlightMean(15.9).setInFlightMax(16).setQueueP99Ms(0.0)
                .setWarmupLoopbackRequests(2300).setWarmupTargetRequests(4).setEventDelivery("deferred")
                .setDistorted(distorted).setWarnings(warnings).build();
    }

    @Test
    void rendersTheSeedArtifactExactly() throws Exception {
        BenchmarkReport seed = ReportCalculator.compute(
                ArtifactImporter.plan(shared().resolve("corpus/seed-example.json")).toRunData(0L));
        String expected = String.join("\n",
                "run               " + seed.getRunId(),
                "target            " + seed.getBaseUrl() + "  model " + seed.getModel() + "  engine "
                        + (seed.getEngine() == null ? "-" : seed.getEngine()),
                "protocol          " + seed.getMeasurementProtocol(),
                "requests          " + seed.getRequests() + "  completed " + seed.getCompleted() + "  failed "
                        + seed.getFailed() + "  concurrency " + seed.getConcurrency(),
                String.format(Locale.ROOT, "wall clock        %.1f ms", seed.getWallClockMs()),
                "",
                // issue 32: each percentile with its 95% interval; 10 rows are too few for p95 and p99 intervals
                "metric                                p50                           p95                   p99");
        String t = SummaryTable.render(seed, null);
        assertThat(t).startsWith(expected + "\n");
        // seed (spec §8.1): e2e p50 664.3758000573143, p95 747.0614000922069
        assertThat(t).contains(String.format(Locale.ROOT, "\nE2E (ms)                            664.4 [641.6, 706.3]"
                + "          747.1 [n<72] %14.1f [n<368]\n", seed.getStatistics().getE2eMs().getP99()));
        assertThat(t).as("the marker's key under the table").contains("\n[n<M]: too few values for a 95% interval of"
                + " that percentile (72 needed for p95, 368 for p99)\n\nthroughput");
        assertThat(t).as("imports carry no chunk gaps: " + t)
                .contains("\ninter-chunk latency (ms)                -                             -                     -\n");
        assertThat(t).contains(String.format(Locale.ROOT, "\nrequests/s        %.1f req/s  (total tokens %.1f tok/s)\n",
                seed.getStatistics().getRequestThroughputRps(), seed.getStatistics().getTotalTokenThroughputTokS()));
        assertThat(t).as("imports have no load health and no SLOs").doesNotContain("\nload ", "\nslo ");
        for (ReportView.PercentileLine p : ReportView.SUMMARY_PERCENTILES) {
            assertThat(t).as(p.label() + ": " + t).contains("\n" + String.format(Locale.ROOT, "%-26s ", p.label()));
        }
        assertThat(t).as("imports have no self-check").doesNotContain("client check");
    }

    @Test
    void rendersAKnownReportToTheExpectedText() {
        Metrics m = Metrics.newBuilder().setTtftP50Ms(872.14).setTtftP95Ms(2431.7).setTimeToFirstOutputP50Ms(872.14)
                .setTimeToFirstOutputP95Ms(2431.7).setE2eP50Ms(1922.6).setE2eP95Ms(3515.9)
                .setMeanInterTokenLatencyMsP50(16.7).setMeanInterTokenLatencyMsP95(20.1).setDecodeTokSP50(59.8)
                .setDecodeTokSP95(63.8).setEffectivePrefillTokSP50(30583.9).setEffectivePrefillTokSP95(41958.8)
                .setPromptTokensP50(27953.0).setPromptTokensP95(27953.0).setThroughputTokS(505.6)
                .setOutputTokens(3840L).setPrefixCacheHitAvg(0.271).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), m)).setRunId("benchmark-20261130T102644Z")
                .setBaseUrl("http://127.0.0.1:37707/v1").setModel("capstream-sim").setEngine("capstream-sim")
                .setMeasurementProtocol("capacity-v3").setRequests(60).setCompleted(60).setFailed(0).setConcurrency(20)
                .setWallClockMs(7594.6).build();
        String expected = """
                run               benchmark-20261130T102644Z
                target            http://127.0.0.1:37707/v1  model capstream-sim  engine capstream-sim
                protocol          capacity-v3
                requests          60  completed 60  failed 0  concurrency 20
                wall clock        7594.6 ms

                metric                                p50            p95            p99
                TTFT (ms)                           872.1         2431.7              -
                time to first output (ms)           872.1         2431.7              -
                E2E (ms)                           1922.6         3515.9              -
                inter-token latency (ms)             16.7           20.1              -
                inter-chunk latency (ms)                -              -              -
                decode (tok/s)                       59.8           63.8              -
                effective prefill (tok/s)         30583.9        41958.8              -
                prompt tokens                     27953.0        27953.0              -

                throughput        505.6 tok/s  (output tokens 3840)
                prefix cache hit  27.1 %
                client check      loop delay p50 0.1 / p99 7.3 / max 31.0 ms, CPU process 812 ms, event loops 103 ms (6.3 per 1,000 chunks), GC pauses 2 (max 0.4 ms)
                                  achieved concurrency 15.9 (max 16), client queue before t0 p99 0.0 ms, warm-up 2,300 loopback + 4 target requests, events deferred
                """;
        assertEquals(expected, SummaryTable.render(r, client(false, List.of())));
    }

    /** Issue 33 (fresh-user pass): requests without a usage chunk leave throughput, decode and ITL empty: say why. */
    @Test
    void aRunWithoutUsageChunksSaysWhyThroughputDecodeAndItlAreEmpty() {
        Metrics none = Metrics.newBuilder().setOutputTokenSources(Map.of("content_chunks", 5)).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), none)).setCompleted(5).setFailed(0).build();
        assertThat(SummaryTable.render(r, null)).as("summary of a run without usage chunks")
                .contains("\nwarning: throughput, decode and ITL are empty: the endpoint sent no usage chunk (it does"
                        + " not honour stream_options.include_usage; spec 4.3 and 7 count tokens from usage only; TTFT"
                        + " and E2E are measured): 'capstream check' shows what the endpoint sends\n");
        Metrics some = Metrics.newBuilder().setOutputTokenSources(Map.of("usage", 3, "content_chunks", 2)).build();
        BenchmarkReport partial = BenchmarkReport.newBuilder(report(List.of(), some)).setCompleted(5).setFailed(0)
                .build();
        assertThat(SummaryTable.render(partial, null)).as("summary of a run with some usage chunks")
                .contains("\nwarning: 2 of 5 completed requests came without a usage chunk and have no throughput,"
                        + " decode or ITL (");
        Metrics all = Metrics.newBuilder().setOutputTokenSources(Map.of("usage", 5)).build();
        assertThat(SummaryTable.render(BenchmarkReport.newBuilder(report(List.of(), all)).setCompleted(5).setFailed(0)
                .build(), null)).as("summary of a run with usage everywhere").doesNotContain("usage chunk");
    }

    /**
     * Issue 32: each percentile with a Distribution gets its 95% interval beside it ({@code [low, high]}), or
     * {@code [n<M]} when the run had too few values; rows without a Distribution stay as they were.
     */
    @Test
    void percentilesShowTheirIntervalsOrWhyNot() {
        Distribution ttft = Distribution.newBuilder().setCount(200).setP50(827.6).setP95(1464.3).setP99(2264.9)
                .setP50Ci(List.of(850.0, 901.34)).setP95Ci(List.of(2100.5, 2800.25))
                .setCiUnavailable(Map.of("p99", "200 values are too few for a 95% interval of p99 (needs at least 368)"))
                .build();
        Distribution empty = Distribution.newBuilder().setCount(0).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), knownMetrics())).setStatistics(
                RunStatistics.newBuilder().setTtftMs(ttft).setTtfoMs(empty).setE2eMs(empty).setItlMs(empty)
                        .setInterChunkMs(empty).build()).build();
        String t = SummaryTable.render(r, null);
        assertThat(t).as("summary").contains(
                "\nmetric                                p50                           p95                             p99\n",
                "\nTTFT (ms)                           872.1 [850.0, 901.3]         2431.7 [2100.5, 2800.3]         2264.9"
                        + " [n<368]\n",
                "\ndecode (tok/s)                       59.8                          63.8                               -\n");
        assertThat(t).as("only p99 is marked: its key names p99 alone").contains(
                "\nprompt tokens                     27953.0                       27953.0                               -\n"
                        + "[n<M]: too few values for a 95% interval of that percentile (368 needed for p99)\n");
    }

    @Test
    void aScrapedEndpointGetsAServerMetricsLine() {
        io.capstream.schemas.avro.ServerSeries running = io.capstream.schemas.avro.ServerSeries.newBuilder()
                .setSource("vllm:num_requests_running").setSamples(3).setMin(0).setP50(4).setMax(4).setLast(0).build();
        io.capstream.schemas.avro.ServerSeries kv = io.capstream.schemas.avro.ServerSeries.newBuilder()
                .setSource("vllm:kv_cache_usage_perc").setSamples(3).setMin(0).setP50(0.2).setMax(0.4375).setLast(0)
                .build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), Metrics.newBuilder().build()))
                .setServerMetrics(io.capstream.schemas.avro.ServerMetrics.newBuilder().setUrl("http://h/metrics")
                        .setScrapes(3).setFailedScrapes(1).setFirstError("GET http://h/metrics answered 503")
                        .setIntervalMs(1000).setSeries(Map.of("requests_running", running, "kv_cache_usage", kv)).build())
                .build();
        assertThat(SummaryTable.render(r, null)).contains("server metrics    3 scrapes (1 failed: GET http://h/metrics"
                + " answered 503): requests_running max 4, kv_cache_usage max 0.44\n");
        assertThat(SummaryTable.render(report(List.of(), Metrics.newBuilder().build()), null)).doesNotContain("server metrics");
    }

    /** Issue 30: the requests the client cancelled get their own line, under the requests line. */
    @Test
    void cancelledRequestsGetTheirOwnLine() {
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), Metrics.newBuilder().build()))
                .setCancelled(io.capstream.schemas.avro.CancelledStats.newBuilder().setRequests(29)
                        .setWithFirstToken(25).setContentChunks(100).setCancelAfterP50Ms(100.0)
                        .setRequestIndices(List.of(1, 2)).build()).build();
        assertThat(SummaryTable.render(r, null)).as("summary").contains("\ncancelled         29 (not completed, not"
                + " failed, in no percentile)  with first token 25  cancel at p50 100.0 ms\nwall clock");
        assertThat(SummaryTable.render(report(List.of(), Metrics.newBuilder().build()), null))
                .as("summary without cancels").doesNotContain("cancelled");
    }

    /**
     * Events the aggregator ignored as duplicates get a line that names the likely cause (two runs under one derived
     * run id: a fresh user's two generators started in the same second on one Kafka); none without duplicates.
     */
    @Test
    void duplicateEventsGetALineNamingARunIdCollision() {
        BenchmarkReport base = report(List.of(), Metrics.newBuilder().build());
        BenchmarkReport r = BenchmarkReport.newBuilder(base).setProvenance(
                io.capstream.schemas.avro.Provenance.newBuilder(base.getProvenance()).setDuplicateEvents(1201).build())
                .build();
        assertThat(SummaryTable.render(r, null)).as("summary").contains("\nduplicates        1,201 event(s) ignored (the"
                + " same event or request index twice: a redelivery, or another run with this run id, e.g. started in"
                + " the same second; give each run --run-id-suffix)\nwall clock");
        assertThat(SummaryTable.render(base, null)).as("summary without duplicates").doesNotContain("duplicates");
    }

    /** Issue 33: the server's own TTFT and the client's lead over it get one line; none without a server TTFT. */
    @Test
    void theServersTtftAndTheDifferenceGetALine() {
        Distribution empty = Distribution.newBuilder().setCount(0).build();
        RunStatistics.Builder stats = RunStatistics.newBuilder().setTtftMs(empty).setTtfoMs(empty).setE2eMs(empty)
                .setItlMs(empty).setInterChunkMs(empty);
        BenchmarkReport without = BenchmarkReport.newBuilder(report(List.of(), knownMetrics()))
                .setStatistics(stats.build()).build();
        assertThat(SummaryTable.render(without, null)).as("summary without a server TTFT")
                .doesNotContain("server TTFT");
        BenchmarkReport r = BenchmarkReport.newBuilder(without).setStatistics(stats
                .setServerTtftMs(Distribution.newBuilder().setCount(20).setP50(18.25).setP95(100.2).build())
                .setClientMinusServerTtftMs(Distribution.newBuilder().setCount(20).setP50(29.04).setP95(377.2).build())
                .build()).build();
        assertThat(SummaryTable.render(r, null)).as("summary").contains("\nserver TTFT       p50 18.3 / p95 100.2 ms"
                + " (20 requests); client's first output minus server p50 29.0 / p95 377.2 ms\n");
    }

    private static FailureEntry failure(int index, String type, String message) {
        return FailureEntry.newBuilder().setRequestIndex(index).setErrorType(type).setErrorMessage(message).build();
    }

    /** Issue 30: a run with --images says so in one line; a run without has none. */
    @Test
    void aRunWithImagesGetsAnImagesLine() {
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), Metrics.newBuilder().build()))
                .setRun(io.capstream.schemas.avro.RunSettings.newBuilder().setImages(4).setImageSizes("1024x1024")
                        .setImageFormat("png").build()).build();
        assertThat(SummaryTable.render(r, null)).as("summary")
                .contains("images            4 per user message, 1024x1024, png\n");
        assertThat(SummaryTable.render(report(List.of(), Metrics.newBuilder().build()), null)).as("without images")
                .doesNotContain("images ");
    }

    @Test
    void countsFailuresAndShowsDashesForNulls() {
        BenchmarkReport a = report(List.of(
                failure(0, "URLError", "<urlopen error [Errno 111] Connection refused>"),
                failure(1, "HTTPError", "HTTP Error 500: Internal Server Error")),
                Metrics.newBuilder().setThroughputTokS(0.0).build());
        String t = SummaryTable.render(a, null);
        assertThat(t).contains("TTFT (ms)                               -              -              -\n");
        // issue 26 items 8 and 10: counts per error type and status; the examples in capstream's words (the report
        // keeps the reference's error_message)
        assertThat(t).endsWith("\nfailures          2 of 2 (100.0 %): URLError x1, HTTPError 500 x1\n"
                + "  e.g. #0     URLError        connection refused: nothing listened at the endpoint\n"
                + "  e.g. #1     HTTPError       HTTP 500 Internal Server Error\n");
        assertThat(t).doesNotContain("urlopen");
        assertThat(t).contains("throughput        0.0 tok/s  (output tokens -)");
        assertThat(t).contains("engine -");
    }

    /** Found by a fresh-user pass: a reasoning-only answer failed with no hint towards --max-tokens or --no-thinking. */
    @Test
    void aStreamWithoutVisibleContentHintsAtReasoningUnlessThinkingWasTurnedOff() {
        List<FailureEntry> noContent = List.of(failure(0, "ValueError", "stream completed without visible content"));
        for (String mode : List.of("default", "enabled", "unsupported")) {
            BenchmarkReport r = BenchmarkReport.newBuilder(report(noContent, Metrics.newBuilder().build()))
                    .setMaxTokens(8).setServeFlags(io.capstream.schemas.avro.ServeFlags.newBuilder()
                            .setSharedPrefixBurst(false).setNoThinking(false).setThinkingMode(mode).build()).build();
            assertThat(SummaryTable.render(r, null)).as("thinking mode %s", mode).endsWith(
                    "  e.g. #0     ValueError      the stream ended without visible content (no non-empty content delta)\n"
                    + "  hint: a reasoning model can spend all of max_tokens (8) on reasoning and send no content:"
                    + " raise --max-tokens, or pass --no-thinking; or the stream's data lines are not JSON chunks of"
                    + " this API ('capstream check' shows where reasoning arrives and what the stream holds)\n");
        }
        BenchmarkReport off = BenchmarkReport.newBuilder(report(noContent, Metrics.newBuilder().build()))
                .setServeFlags(io.capstream.schemas.avro.ServeFlags.newBuilder().setSharedPrefixBurst(false)
                        .setNoThinking(true).setThinkingMode("disabled").build()).build();
        assertThat(SummaryTable.render(off, null)).as("thinking turned off").doesNotContain("hint:");
        BenchmarkReport toolCall = BenchmarkReport.newBuilder(report(List.of(failure(0, "ValueError",
                "stream completed without visible content: the model answered with a tool call (1 tool call, no"
                        + " text); send --tools to measure tool calls")), Metrics.newBuilder().build()))
                .setServeFlags(io.capstream.schemas.avro.ServeFlags.newBuilder().setSharedPrefixBurst(false)
                        .setNoThinking(false).setThinkingMode("default").build()).build();
        assertThat(SummaryTable.render(toolCall, null)).as("a tool-call answer has its own advice").doesNotContain("hint:");
    }

    @Test
    void manyFailuresAreCountedPerErrorTypeAndHttpStatusWithTheErrorRateAndAFewExamples() {
        List<FailureEntry> failures = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            failures.add(i % 4 == 3 ? failure(10 * i, "TimeoutError", "timed out")
                    : failure(10 * i, "HTTPError", "HTTP Error 503: Service Unavailable: overloaded"));
        }
        failures.add(failure(200, "HTTPError", "HTTP Error 429: Too Many Requests"));
        BenchmarkReport r = BenchmarkReport.newBuilder(report(failures, knownMetrics())).setRequests(300)
                .setCompleted(287).setFailed(13).build();
        String t = SummaryTable.render(r, null);
        String expected = "\nfailures          13 of 300 (4.3 %): HTTPError 503 x9, TimeoutError x3, HTTPError 429 x1\n"
                + "  e.g. #0     HTTPError       HTTP 503 Service Unavailable: overloaded\n"
                + "  e.g. #30    TimeoutError    no data within --timeout (read timed out)\n"
                + "  e.g. #200   HTTPError       HTTP 429 Too Many Requests\n"
                + "  all 13 are listed in the report file (failures)\n";
        assertThat(t).as("expected the summary to end with:" + expected + "but it was:\n" + t).endsWith(expected);
    }

    @Test
    void aChunkedReportCountsTheFailuresOfItsAssembledArtifact() {
        BenchmarkReport full = report(List.of(failure(4, "HTTPError", "HTTP Error 503: Service Unavailable"),
                failure(7, "HTTPError", "HTTP Error 503: Service Unavailable")), knownMetrics());
        String artifact = io.capstream.schemas.artifact.ArtifactJson.write(
                io.capstream.schemas.report.ReportArtifact.toArtifact(full, false, null));
        BenchmarkReport chunked = BenchmarkReport.newBuilder(full).setFailures(List.of()).setCompleted(8)
                .setArtifactChunks(3).setArtifactJson(artifact).build();
        String t = SummaryTable.render(chunked, null);
        assertThat(t).endsWith("\nfailures          2 of 10 (20.0 %): HTTPError 503 x2\n"
                + "  e.g. #4     HTTPError       HTTP 503 Service Unavailable\n"
                + "  all 2 are listed in the report file (failures)\n");
    }

    @Test
    void aChunkedReportWithoutItsArtifactPointsToTheFileForItsFailures() {
        BenchmarkReport a = BenchmarkReport.newBuilder(report(List.of(), Metrics.newBuilder().build()))
                .setFailed(3).setCompleted(9).setArtifactChunks(12).build();
        String t = SummaryTable.render(a, null);
        assertThat(t).endsWith("\nfailures          3 of 12 (25.0 %), listed in the report file\n");
    }

    @Test
    void showsTheClientSelfCheckAndSaysWhenTheClientMayHaveDistortedTheNumbers() {
        BenchmarkReport r = report(List.of(), Metrics.newBuilder().build());
        String t = SummaryTable.render(r, client(true, List.of("event-loop delay p99 7.2 ms > 5 ms: chunks may have been"
                + " timestamped up to that late", "GC paused the client for up to 6.0 ms")));
        assertThat(t).contains("client check      loop delay p50 0.1 / p99 7.3 / max 31.0 ms, CPU process 812 ms, event"
                + " loops 103 ms (6.3 per 1,000 chunks), GC pauses 2 (max 0.4 ms)");
        assertThat(t).contains("achieved concurrency 15.9 (max 16), client queue before t0 p99 0.0 ms, warm-up 2,300"
                + " loopback + 4 target requests, events deferred");
        assertThat(t).contains("warning: the client may have distorted these numbers: event-loop delay p99 7.2 ms > 5 ms:"
                + " chunks may have been timestamped up to that late; GC paused the client for up to 6.0 ms\n");
        String good = SummaryTable.render(r, client(false, List.of()));
        assertThat(good).contains("client check");
        assertThat(good).as("no warning line for a clean self-check").doesNotContain("warning:");
        assertThat(SummaryTable.render(r, null)).as("imports have no self-check").doesNotContain("client check");
    }

    private static Distribution dist(double p50, double p95, double p99) {
        return Distribution.newBuilder().setCount(30).setMean(p50).setStddev(1.0).setMin(p50).setMax(p99).setP50(p50)
                .setP90(p95).setP95(p95).setP99(p99).build();
    }

    static Metrics knownMetrics() {
        return Metrics.newBuilder().setTtftP50Ms(872.14).setTtftP95Ms(2431.7).setTimeToFirstOutputP50Ms(872.14)
                .setTimeToFirstOutputP95Ms(2431.7).setE2eP50Ms(1922.6).setE2eP95Ms(3515.9)
                .setMeanInterTokenLatencyMsP50(16.7).setMeanInterTokenLatencyMsP95(20.1).setDecodeTokSP50(59.8)
                .setDecodeTokSP95(63.8).setEffectivePrefillTokSP50(30583.9).setEffectivePrefillTokSP95(41958.8)
                .setPromptTokensP50(27953.0).setPromptTokensP95(27953.0).setThroughputTokS(505.6)
                .setOutputTokens(3840L).setPrefixCacheHitAvg(0.271).build();
    }

    /** A 32-request open-loop run with statistics, two SLOs and load health, 2 failures (listed last). */
    private static BenchmarkReport fullReport(LoadHealth load) {
        RunStatistics stats = RunStatistics.newBuilder().setTtftMs(dist(872.14, 2431.7, 2950.4))
                .setTtfoMs(dist(872.14, 2431.7, 2950.4)).setE2eMs(dist(1922.6, 3515.9, 4100.0))
                .setItlMs(dist(16.7, 20.1, 25.3)).setInterChunkMs(dist(15.2, 40.1, 88.8))
                .setRequestThroughputRps(3.1).setOutputThroughputTokS(505.6).setTotalTokenThroughputTokS(12345.6).build();
        SloReport slo = SloReport.newBuilder().setSlos(List.of(
                SloAttainment.newBuilder().setSlo("ttft_p95_ms<=300").setMetric("ttft_p95_ms").setThreshold(300.0)
                        .setObserved(212.4).setMet(true).setRequestsMeeting(31).setAttainment(0.97).build(),
                SloAttainment.newBuilder().setSlo("error_rate<=0.01").setMetric("error_rate").setThreshold(0.01)
                        .setObserved(0.0612).setMet(false).build()))
                .setRequests(32).setGoodRequests(30).setGoodput(0.9375).setGoodputRps(3.1).setMetAll(false).build();
        return BenchmarkReport.newBuilder(report(List.of(), knownMetrics())).setRunId("benchmark-20261201T120000Z")
                .setBaseUrl("http://127.0.0.1:37707/v1").setModel("capstream-sim").setEngine("capstream-sim")
                .setMeasurementProtocol("capacity-v3").setRequests(32).setCompleted(30).setFailed(2).setConcurrency(8)
                .setWallClockMs(9677.4).setStatistics(stats).setSlo(slo).setLoad(load).build();
    }

    @Test
    void rendersP99SlosGoodputAndAnOpenLoopThatFellBehindItsSchedule() {
        LoadHealth load = LoadHealth.newBuilder().setArrival("poisson").setOfferedRateRps(20.0).setScheduledRateRps(19.6)
                .setAchievedRateRps(1.7).setBehindSchedule(true).setQueueP50Ms(2999.0).setQueueP99Ms(5900.0)
                .setQueueMaxMs(6012.4).setOfferedConcurrency(8).setAchievedConcurrency(7.9).build();
        String expected = """
                run               benchmark-20261201T120000Z
                target            http://127.0.0.1:37707/v1  model capstream-sim  engine capstream-sim
                protocol          capacity-v3
                requests          32  completed 30  failed 2  max in flight 8
                wall clock        9677.4 ms

                metric                                p50            p95            p99
                TTFT (ms)                           872.1         2431.7         2950.4
                time to first output (ms)           872.1         2431.7         2950.4
                E2E (ms)                           1922.6         3515.9         4100.0
                inter-token latency (ms)             16.7           20.1           25.3
                inter-chunk latency (ms)             15.2           40.1           88.8
                decode (tok/s)                       59.8           63.8              -
                effective prefill (tok/s)         30583.9        41958.8              -
                prompt tokens                     27953.0        27953.0              -

                throughput        505.6 tok/s  (output tokens 3840)
                requests/s        3.1 req/s  (total tokens 12345.6 tok/s)
                prefix cache hit  27.1 %
                slo               ttft_p95_ms<=300  observed 212.4  met  (attainment 97.0 %)
                slo               error_rate<=0.01  observed 0.061  MISSED
                goodput           0.94 (30 of 32 requests), 3.1 req/s
                load              offered 20.0 req/s, scheduled 19.6, achieved 1.7 req/s; client queue p50/p99/max 2999.0/5900.0/6012.4 ms
                warning: the run fell behind its arrival schedule (achieved 1.7 of 19.6 req/s, client queue up to 6012 ms): latencies understate the load; the in-flight cap of 8 was reached (--max-in-flight): raise it to offer more

                failures          2 of 32 (6.3 %)
                """;
        assertEquals(expected, SummaryTable.render(fullReport(load), null));
    }

    /** Fresh-user pass: an open loop's in-flight cap is no concurrency; a closed loop's slots are. */
    @Test
    void theRequestsLineNamesTheInFlightCapOfAnOpenLoopAndTheConcurrencyOfAClosedOne() {
        LoadHealth open = LoadHealth.newBuilder().setArrival("constant").setOfferedRateRps(10.0).build();
        LoadHealth closed = LoadHealth.newBuilder().setArrival("closed").setOfferedConcurrency(8).build();
        assertThat(SummaryTable.render(fullReport(open), null)).as("open loop")
                .contains("\nrequests          32  completed 30  failed 2  max in flight 8\n");
        assertThat(SummaryTable.render(fullReport(closed), null)).as("closed loop")
                .contains("\nrequests          32  completed 30  failed 2  concurrency 8\n");
        assertThat(SummaryTable.render(fullReport(null), null)).as("no load health (imports)")
                .contains("\nrequests          32  completed 30  failed 2  concurrency 8\n");
    }

    @Test
    void aRunBehindItsScheduleWithRoomUnderTheCapIsHeldByTheEndpointNotTheCap() {
        LoadHealth load = LoadHealth.newBuilder().setArrival("poisson").setOfferedRateRps(20.0).setScheduledRateRps(19.6)
                .setAchievedRateRps(12.0).setBehindSchedule(true).setQueueMaxMs(900.0).setOfferedConcurrency(64)
                .setAchievedConcurrency(20.0).build();
        String text = SummaryTable.render(fullReport(load), null);
        assertThat(text).contains("client queue up to 900 ms): latencies understate the load\n");
        assertThat(text).doesNotContain("in-flight cap");
    }

    @Test
    void aHealthyOpenLoopHasNoWarningAndAClosedLoopShowsItsConcurrency() {
        LoadHealth healthy = LoadHealth.newBuilder().setArrival("constant").setOfferedRateRps(20.0)
                .setScheduledRateRps(20.0).setAchievedRateRps(19.9).setBehindSchedule(false).setQueueP50Ms(0.1)
                .setQueueP99Ms(0.4).setQueueMaxMs(1.2).build();
        String open = SummaryTable.render(fullReport(healthy), null);
        assertThat(open).contains("\nload              offered 20.0 req/s, scheduled 20.0, achieved 19.9 req/s; client queue"
                + " p50/p99/max 0.1/0.4/1.2 ms\n");
        assertThat(open).doesNotContain("warning:");

        LoadHealth closed = LoadHealth.newBuilder().setArrival("closed").setAchievedRateRps(4.2).setQueueP50Ms(0.0)
                .setQueueP99Ms(0.0).setQueueMaxMs(0.0).setOfferedConcurrency(8).setAchievedConcurrency(7.9).build();
        String c = SummaryTable.render(fullReport(closed), null);
        assertThat(c).contains("\nload              achieved concurrency 7.9 of 8\n");
        assertThat(c).doesNotContain("warning:");

        // fewer requests than slots: the request count, not the client, bounds the achieved concurrency
        LoadHealth few = LoadHealth.newBuilder(closed).setOfferedConcurrency(64).setAchievedConcurrency(4.3).build();
        String f = SummaryTable.render(BenchmarkReport.newBuilder(fullReport(few)).setRequests(5).setCompleted(5)
                .setFailed(0).build(), null);
        assertThat(f).contains("\nload              achieved concurrency 4.3 of 64 (at most 5: the run has 5 requests)\n");
    }

    /** Issue 30: the achieved vs configured inter-arrival CV, the stages and the steady state, when present. */
    @Test
    void theLoadShapeLinesShowCvStagesAndSteadyState() {
        LoadHealth gamma = LoadHealth.newBuilder().setArrival("gamma").setOfferedRateRps(40.0).setScheduledRateRps(39.0)
                .setAchievedRateRps(38.5).setBehindSchedule(false).setQueueP50Ms(0.1).setQueueP99Ms(0.4)
                .setQueueMaxMs(1.2).setInterarrivalCv(1.87).setConfiguredInterarrivalCv(2.0)
                .setStages(List.of(LoadStage.newBuilder().setStartS(0).setEndS(60).setOfferedRateRps(11.0)
                                .setAchievedRateRps(10.9).setRequests(654).build(),
                        LoadStage.newBuilder().setStartS(60).setEndS(90.4).setOfferedRateRps(20.0)
                                .setAchievedRateRps(19.5).setRequests(593).build())).build();
        String g = SummaryTable.render(fullReport(gamma), null);
        assertThat(g).as("open loop with gamma arrivals and a schedule")
                .contains("\narrivals          inter-arrival CV 1.87 (configured 2.00)\n")
                .contains("\nstages            offered/achieved req/s: 0-60 s 11.0/10.9; 60-90 s 20.0/19.5\n")
                .doesNotContain("steady state");

        LoadHealth closed = LoadHealth.newBuilder().setArrival("closed").setAchievedRateRps(4.2).setQueueP50Ms(0.0)
                .setQueueP99Ms(0.0).setQueueMaxMs(0.0).setOfferedConcurrency(8).setAchievedConcurrency(5.1)
                .setInterarrivalCv(0.4).setSteadyState(SteadyState.newBuilder().setStartS(0.003).setEndS(9.003)
                        .setRule("all-slots-busy-to-last-start").setRequests(36).setRequestThroughputRps(4.0)
                        .setOutputThroughputTokS(40.0).setAchievedConcurrency(8.0).setTtftP50Ms(102.0)
                        .setTtftP95Ms(103.0).build()).build();
        String c = SummaryTable.render(fullReport(closed), null);
        assertThat(c).as("closed loop: steady state, no CV line (nothing configured to compare with)")
                .contains("\nsteady state      4.0 req/s, output 40.0 tok/s, concurrency 8.0, TTFT p50/p95 102.0/103.0 ms;"
                        + " 0.0-9.0 s, 36 requests (all-slots-busy-to-last-start)\n")
                .doesNotContain("inter-arrival CV");
    }

    /** Before (issue 29, a fresh user): "offered 4.0 req/s ... achieved 8.0 req/s" for 4 conversations/s of 2 turns. */
    @Test
    void aRunOfConversationsSaysItsOfferedRateAndSlotsAreConversations() {
        LoadHealth open = LoadHealth.newBuilder().setArrival("poisson").setOfferedRateRps(4.0).setScheduledRateRps(7.8)
                .setAchievedRateRps(8.0).setBehindSchedule(false).setQueueP50Ms(0.1).setQueueP99Ms(0.4)
                .setQueueMaxMs(1.2).build();
        String o = SummaryTable.render(BenchmarkReport.newBuilder(fullReport(open))
                .setSessions(SessionsSummaryTest.sessions()).build(), null);
        assertThat(o).as("open loop").contains("\nload              offered 4.0 conversations/s (requests: scheduled 7.8,"
                + " achieved 8.0 req/s); client queue p50/p99/max 0.1/0.4/1.2 ms\n");

        LoadHealth closed = LoadHealth.newBuilder().setArrival("closed").setAchievedRateRps(4.2).setQueueP50Ms(0.0)
                .setQueueP99Ms(0.0).setQueueMaxMs(0.0).setOfferedConcurrency(20).setAchievedConcurrency(2.4).build();
        String c = SummaryTable.render(BenchmarkReport.newBuilder(fullReport(closed))
                .setSessions(SessionsSummaryTest.sessions()).build(), null);
        assertThat(c).as("closed loop").contains("\nload              achieved concurrency 2.4 of 20 (requests in flight; a"
                + " slot holds a conversation through its think times) (at most 3: the run has 3 conversations)\n");
    }

    @Test
    void withoutStatisticsSlosOrLoadThoseLinesAreLeftOut() {
        String t = SummaryTable.render(report(List.of(), knownMetrics()), null);
        assertThat(t).doesNotContain("requests/s", "\nslo ", "\ngoodput ", "\nload ");
        SloReport noRequests = SloReport.newBuilder().setSlos(List.of(SloAttainment.newBuilder().setSlo("latency<=5")
                .setMetric("invalid").setThreshold(0.0).setMet(false).build())).setRequests(0).setGoodRequests(0)
                .setMetAll(false).build();
        String s = SummaryTable.render(BenchmarkReport.newBuilder(report(List.of(), knownMetrics())).setSlo(noRequests)
                .build(), null);
        assertThat(s).contains("\nslo               latency<=5  observed -  MISSED\n");
        assertThat(s).contains("\ngoodput           - (0 of 0 requests), -\n");
    }

    @Test
    void outputPathChecks(@TempDir Path tmp) throws Exception {
        assertNull(OutputPath.check(tmp.resolve("r.json").toString()));
        assertNull(OutputPath.check(tmp.resolve("nope/r.json").toString()), "a missing directory is created");
        assertNotNull(OutputPath.check(tmp.toString()));
        Path link = tmp.resolve("link.json");
        Files.createSymbolicLink(link, tmp.resolve("target.json"));
        assertThat(OutputPath.check(link.toString())).contains("symlink");
        assertEquals(Path.of("capstream-report-benchmark-x.json"), OutputPath.resolve(null, "benchmark-x"));
        assertEquals(Path.of("out.json"), OutputPath.resolve("out.json", "benchmark-x"));
    }

    private static WorkerSummary worker(int requests, boolean finished) {
        return WorkerSummary.newBuilder().setRequests(requests).setCompleted(requests).setFailed(0)
                .setRunFinished(finished).build();
    }

    @Test
    void aRunOfSeveralWorkersHasOneWorkersLine() {
        Map<String, WorkerSummary> three = new LinkedHashMap<>();
        three.put("w3", worker(100, true));
        three.put("w1", worker(100, true));
        three.put("w2", worker(100, true));
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), knownMetrics())).setWallClockMs(1000.0)
                .setWorkers(three).setClockOffsetSpreadMs(1.84).build();
        String t = SummaryTable.render(r, null);
        assertThat(t).contains("\nwall clock        1000.0 ms\n"
                + "workers           3 (w1 100, w2 100, w3 100 requests; clock offsets within 1.8 ms)\n");

        Map<String, WorkerSummary> killed = new LinkedHashMap<>(three);
        killed.put("w3", worker(37, false));
        String k = SummaryTable.render(BenchmarkReport.newBuilder(r).setWorkers(killed).setClockOffsetSpreadMs(null)
                .build(), null);
        assertThat(k).contains("\nworkers           3 (w1 100, w2 100, w3 37 requests; no RunFinished from w3)\n");

        Map<String, WorkerSummary> many = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            many.put("w" + i, worker(5, true));
        }
        String m = SummaryTable.render(BenchmarkReport.newBuilder(r).setWorkers(many).build(), null);
        assertThat(m).contains("\nworkers           10 (w0 5, w1 5, w2 5, w3 5, w4 5, w5 5, w6 5, w7 5, 2 more requests;"
                + " clock offsets within 1.8 ms)\n");
    }

    @Test
    void oneWorkerOrNoneHasNoWorkersLine() {
        BenchmarkReport one = BenchmarkReport.newBuilder(report(List.of(), knownMetrics()))
                .setWorkers(Map.of("host-1", worker(2, true))).build();
        assertThat(SummaryTable.render(one, null)).as("a one-process run").doesNotContain("\nworkers ");
        assertThat(SummaryTable.render(report(List.of(), knownMetrics()), null)).as("an import")
                .doesNotContain("\nworkers ");
    }

    @Test
    void theWorkersLineComesBackFromAnArtifactFile() throws Exception {
        Map<String, WorkerSummary> two = new LinkedHashMap<>();
        two.put("host-b", WorkerSummary.newBuilder(worker(1, true)).setClockOffsetMs(0.25).build());
        two.put("host-a", WorkerSummary.newBuilder(worker(1, true)).setClockOffsetMs(-0.5).build());
        BenchmarkReport r = BenchmarkReport.newBuilder(report(List.of(), knownMetrics())).setWorkers(two)
                .setClockOffsetSpreadMs(0.75).build();
        String artifact = io.capstream.schemas.artifact.ArtifactJson.write(
                io.capstream.schemas.report.ReportArtifact.toArtifact(r, false, null));
        BenchmarkReport back = ArtifactRecords.report(io.capstream.schemas.artifact.ArtifactJson.parse(artifact));
        assertEquals(two.get("host-a"), back.getWorkers().get("host-a"));
        assertThat(SummaryTable.render(back, null)).contains("\nworkers           2 (host-a 1, host-b 1 requests; clock offsets within 0.8 ms)\n");
    }
}
