package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.ExactSeconds;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportCalculatorTest {

    private static JsonNode json(BenchmarkReport r) throws Exception {
        return ArtifactJson.parse(r.getArtifactJson());
    }

    @Test
    void rowFormulasInSecondsThenTimesThousand() throws Exception {
        RequestCompleted c = ok(0, 250, 1250, 4000, 101).setTtfoNs(200_000_000L).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-1", started(1, 4096).build(),
                List.of(c), List.of(), finished(2_000_000_000L), null));
        RequestTiming row = r.getRequestTimings().get(0);
        assertEquals(200.0, row.getTimeToFirstOutputMs());
        assertEquals(250.0, row.getTtftMs());
        assertEquals((1.25 - 0.2) * 1000.0, row.getGenerationMs());
        assertEquals((1.25 - 0.25) * 1000.0, row.getVisibleGenerationMs());
        assertEquals(1250.0, row.getE2eMs());
        assertEquals(4000 / 0.2, row.getEffectivePrefillTokS());
        assertEquals(100 / (1.25 - 0.2), row.getDecodeTokS());
        assertEquals((1.25 - 0.2) * 1000 / 100, row.getMeanInterTokenLatencyMs());
        assertEquals(101L, row.getOutputTokens());
        Metrics m = r.getMetrics();
        assertEquals(101L, m.getOutputTokens());
        assertEquals(101 / 2.0, m.getThroughputTokS());
        assertNull(m.getContentChunksS());
        assertEquals(4000.0, m.getPromptTokensP50());
        assertEquals(4000L, m.getPromptTokens());
        assertEquals(1, m.getPromptTokenSamples());
        assertEquals(1, m.getTtftSamples());
        assertEquals(Map.of("usage", 1), m.getOutputTokenSources());
        assertNull(m.getPrefixCacheHitAvg());
        assertEquals("capacity-v3", r.getMeasurementProtocol());
        assertEquals(2000.0, r.getWallClockMs());
        JsonNode j = json(r);
        assertTrue(j.get("metrics").get("prompt_tokens_p50").isDouble(), "prompt_tokens_p50 is written as 4000.0");
        assertThat(r.getArtifactJson()).contains("\"prompt_tokens_p50\": 4000.0,");
        assertTrue(j.get("metrics").get("output_tokens").isIntegralNumber());
        assertEquals(15, j.get("request_timings").get(0).size());
        assertThat(r.getArtifactJson()).endsWith("}\n");
    }

    @Test
    void contentChunkFallbackNullsTokensAndUsesChunksPerSecond() throws Exception {
        RequestCompleted usage = ok(0, 100, 600, 1000, 50).build();
        RequestCompleted fallback = ok(1, 100, 700, 1000, 0).setCompletionTokens(null)
                .setOutputTokenSource("content_chunks").setContentChunks(40).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-2", started(2, 4096).build(),
                List.of(usage, fallback), List.of(), finished(4_000_000_000L), null));
        RequestTiming row = r.getRequestTimings().get(1);
        assertNull(row.getOutputTokens());
        assertEquals("content_chunks", row.getOutputTokenSource());
        assertNull(row.getDecodeTokS());
        assertNull(row.getMeanInterTokenLatencyMs());
        assertEquals(600.0, row.getGenerationMs(), "time fields stay");
        Metrics m = r.getMetrics();
        assertNull(m.getOutputTokens());
        assertNull(m.getThroughputTokS());
        assertEquals(90 / 4.0, m.getContentChunksS());
        assertEquals(90L, m.getContentChunks());
        assertEquals(Map.of("usage", 1, "content_chunks", 1), m.getOutputTokenSources());
        // decode percentiles only over the non-null value
        assertEquals(49 / 0.5, m.getDecodeTokSP50());
        assertEquals(49 / 0.5, m.getDecodeTokSP95());
        JsonNode j = json(r);
        assertTrue(j.get("metrics").get("output_tokens").isNull());
        assertTrue(j.get("request_timings").get(1).get("output_tokens").isNull());
    }

    @Test
    void usageWithoutCompletionTokensFallsBackToContentChunks() {
        RequestCompleted c = ok(0, 100, 600, 1000, 0).setCompletionTokens(null).setContentChunks(7).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-2b", started(1, 4096).build(),
                List.of(c), List.of(), finished(1_000_000_000L), null));
        assertEquals("content_chunks", r.getRequestTimings().get(0).getOutputTokenSource());
        assertEquals(7.0, r.getMetrics().getContentChunksS());
    }

    @Test
    void outputTokensOneHasNoDecodeOrItl() throws Exception {
        RequestCompleted c = ok(0, 100, 300, 1000, 1).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-3", started(1, 4096).build(),
                List.of(c), List.of(), finished(1_000_000_000L), null));
        RequestTiming row = r.getRequestTimings().get(0);
        assertEquals(1L, row.getOutputTokens());
        assertNull(row.getDecodeTokS());
        assertNull(row.getMeanInterTokenLatencyMs());
        assertNull(r.getMetrics().getDecodeTokSP50());
        assertNull(r.getMetrics().getMeanInterTokenLatencyMsP95());
        assertEquals(1.0, r.getMetrics().getThroughputTokS());
        assertTrue(json(r).get("metrics").get("decode_tok_s_p50").isNull());
    }

    @Test
    void zeroGenerationTimeHasNoDecode() {
        RequestCompleted c = ok(0, 100, 100, 1000, 5).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-3b", started(1, 4096).build(),
                List.of(c), List.of(), finished(1_000_000_000L), null));
        assertNull(r.getRequestTimings().get(0).getDecodeTokS());
        assertEquals(0.0, r.getRequestTimings().get(0).getGenerationMs());
    }

    @Test
    void reasoningOnlyFailuresDoNotCountAndKeepV3() throws Exception {
        RequestCompleted good = ok(0, 100, 600, 1000, 20).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-4", started(3, 4096).build(),
                List.of(good),
                List.of(failed(2, "stream completed without visible content").setReasoningChunks(250).build(),
                        failed(1, null).setReasoningChunks(250).build()),
                finished(1_000_000_000L), null));
        assertEquals("capacity-v3", r.getMeasurementProtocol());
        assertEquals(0L, r.getMetrics().getReasoningChunks());
        assertEquals(1, r.getCompleted());
        assertEquals(2, r.getFailed());
        assertEquals(3, r.getRequests());
        assertEquals(20L, r.getMetrics().getOutputTokens());
        assertEquals(1, r.getMetrics().getTtftSamples());
        JsonNode f = json(r).get("failures");
        assertEquals(1, f.get(0).get("request_index").intValue(), "sorted by request_index");
        assertEquals(2, f.get(0).size(), "pre-2026-08-01 entry: request_index and error_type only");
        assertEquals(4, f.get(1).size());
        assertEquals("stream completed without visible content", f.get(1).get("error_message").textValue());
        assertFalse(f.get(1).get("error_message_truncated").booleanValue());
        assertNull(r.getFailures().get(0).getErrorMessage());
    }

    @Test
    void reasoningInASuccessfulRequestGivesV4AndUsesFirstOutputBoundary() {
        RequestCompleted c = ok(0, 900, 1400, 2000, 301).setTtfoNs(150_000_000L).setReasoningChunks(180).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-5", started(1, 4096).build(),
                List.of(c), List.of(), finished(2_000_000_000L), null));
        assertEquals("capacity-v4-reasoning", r.getMeasurementProtocol());
        assertEquals(180L, r.getMetrics().getReasoningChunks());
        RequestTiming row = r.getRequestTimings().get(0);
        assertEquals((1.4 - 0.15) * 1000.0, row.getGenerationMs());
        assertEquals((1.4 - 0.9) * 1000.0, row.getVisibleGenerationMs());
        assertEquals(300 / (1.4 - 0.15), row.getDecodeTokS());
        assertEquals(2000 / 0.15, row.getEffectivePrefillTokS());
        assertEquals(150.0, r.getMetrics().getTimeToFirstOutputP50Ms());
        assertEquals(900.0, r.getMetrics().getTtftP50Ms());
    }

    @Test
    void allFailedRunFollowsTheReferenceRules() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-6", started(2, 4096).build(), List.of(),
                List.of(failed(0, "<urlopen error [Errno 111] Connection refused>").setErrorType("URLError").build(),
                        failed(1, "<urlopen error [Errno 111] Connection refused>").setErrorType("URLError").build()),
                finished(500_000_000L), null));
        Metrics m = r.getMetrics();
        assertEquals(0L, m.getOutputTokens());
        assertEquals(0.0, m.getThroughputTokS());
        assertNull(m.getContentChunksS());
        assertNull(m.getTtftP50Ms());
        assertNull(m.getE2eP95Ms());
        assertNull(m.getPromptTokensP50());
        assertNull(m.getPromptTokens());
        assertEquals(0, m.getTtftSamples());
        assertEquals(0, m.getPromptTokenSamples());
        assertEquals(Map.of(), m.getOutputTokenSources());
        assertNull(m.getPrefixCacheHitAvg());
        assertEquals("capacity-v3", r.getMeasurementProtocol());
        String text = r.getArtifactJson();
        assertThat(text).contains("\"throughput_tok_s\": 0.0,");
        assertThat(text).contains("\"output_token_sources\": {},");
        assertThat(text).contains("\"request_timings\": [],");
        assertThat(text).contains("\"output_tokens\": 0,");
        assertEquals(0, r.getCompleted());
        assertEquals(2, json(r).get("failures").size());
    }

    @Test
    void cachedTokensAverageOverRequestsThatHaveAFraction() {
        RequestCompleted a = ok(0, 100, 600, 4000, 10).setCachedTokens(1000L).build();
        RequestCompleted b = ok(1, 100, 600, 4000, 10).setCachedTokens(2000L).build();
        RequestCompleted noCached = ok(2, 100, 600, 4000, 10).build();
        RequestCompleted zeroPrompt = ok(3, 100, 600, 0, 10).setCachedTokens(0L).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-7", started(4, 4096).build(),
                List.of(a, b, noCached, zeroPrompt), List.of(), finished(1_000_000_000L), null));
        assertEquals((0.25 + 0.5) / 2, r.getMetrics().getPrefixCacheHitAvg());
        assertEquals(0.0, r.getRequestTimings().get(3).getEffectivePrefillTokS(), "prompt 0 / ttfo is 0.0");
        assertEquals(12000L, r.getMetrics().getPromptTokens());
    }

    @Test
    void exactCachedFractionOverridesTokens() {
        RequestCompleted a = ok(0, 100, 600, 4000, 10).setCachedTokens(1L).setExactCachedFraction(0.625).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-7b", started(1, 4096).build(),
                List.of(a), List.of(), finished(1_000_000_000L), null));
        assertEquals(0.625, r.getMetrics().getPrefixCacheHitAvg());
    }

    @Test
    void earlyV3RowWithoutTimeToFirstOutputUsesTtft() throws Exception {
        RequestCompleted c = ok(0, 400, 900, 3000, 51).build(); // ttfo_ns null
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-8", started(1, 4096).build(),
                List.of(c), List.of(), finished(1_000_000_000L), null));
        RequestTiming row = r.getRequestTimings().get(0);
        assertEquals(row.getTtftMs(), row.getTimeToFirstOutputMs());
        assertEquals((0.9 - 0.4) * 1000.0, row.getGenerationMs());
        assertEquals(row.getGenerationMs(), row.getVisibleGenerationMs());
        assertEquals(3000 / 0.4, row.getEffectivePrefillTokS());
        assertEquals(15, json(r).get("request_timings").get(0).size(), "current 15-key row shape");
    }

    @Test
    void exactSecondsAreUsedAsIs() {
        double ttft = 0.37403459998313338;
        double e2e = 0.69207150000147521;
        RequestCompleted c = ok(0, 1, 2, 3613, 44).setExactSeconds(ExactSeconds.newBuilder()
                .setTtftS(ttft).setTtfoS(0.37403369997628033).setE2eS(e2e).build()).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-9", started(1, 4096).build(),
                List.of(c), List.of(), finished(1_000_000_000L), null));
        assertEquals(ttft * 1000.0, r.getRequestTimings().get(0).getTtftMs());
        assertEquals((e2e - 0.37403369997628033) * 1000.0, r.getRequestTimings().get(0).getGenerationMs());
    }

    @Test
    void wallClockSecondsPreferredOverNanoseconds() {
        RequestCompleted c = ok(0, 100, 600, 1000, 10).build();
        var fin = finished(3_000_000_000L);
        fin.setWallClockS(2.5);
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-10", started(1, 4096).build(),
                List.of(c), List.of(), fin, null));
        assertEquals(4.0, r.getMetrics().getThroughputTokS());
        assertEquals(2500.0, r.getWallClockMs());
    }

    @Test
    void incompleteRunStillReportsWhatArrived() throws Exception {
        RequestCompleted c0 = ok(0, 100, 600, 1000, 10).build();
        RequestCompleted c1 = ok(1, 120, 700, 1000, 12).build();
        Provenance given = Provenance.newBuilder().setKind(ReportKind.LIVE).setGeneratedAtMs(42L)
                .setDuplicateEvents(3).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-11", started(4, 4096).build(),
                List.of(c1, c0), List.of(failed(3, "timed out").setErrorType("TimeoutError").build()), null, given));
        assertFalse(r.getProvenance().getComplete());
        assertEquals(List.of(2), r.getProvenance().getMissingRequestIndices());
        assertFalse(r.getProvenance().getRunFinishedSeen());
        assertEquals(42L, r.getProvenance().getGeneratedAtMs());
        assertEquals(3, r.getProvenance().getDuplicateEvents());
        assertNull(r.getMetrics().getThroughputTokS());
        assertNull(r.getWallClockMs());
        assertNull(r.getFinishedAt());
        assertEquals("2026-08-21T14:49:04Z", r.getStartedAt());
        assertEquals(2, r.getMetrics().getTtftSamples());
        assertEquals(4, r.getRequests());
        assertEquals(0, r.getRequestTimings().get(0).getRequestIndex(), "rows sorted");
        JsonNode cs = json(r).get("capstream");
        assertFalse(cs.get("complete").booleanValue());
        assertEquals(2, cs.get("missing_request_indices").get(0).intValue());
        assertFalse(cs.get("run_finished_seen").booleanValue());
        assertEquals("LIVE", cs.get("kind").textValue());
        assertTrue(json(r).get("finished_at").isNull());
    }

    @Test
    void incompleteRunWithFinishedButMissingIndexHasThroughput() {
        RequestCompleted c0 = ok(0, 100, 600, 1000, 10).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-12", started(2, 4096).build(),
                List.of(c0), List.of(), finished(2_000_000_000L), null));
        assertFalse(r.getProvenance().getComplete());
        assertEquals(List.of(1), r.getProvenance().getMissingRequestIndices());
        assertEquals(5.0, r.getMetrics().getThroughputTokS());
    }

    @Test
    void completeRunProvenanceAndCapstreamKey() throws Exception {
        RunStarted st = started(1, 4096).setOrigin("replay:benchmark-1").setKeepAlive(true).build();
        Provenance given = Provenance.newBuilder().setKind(ReportKind.REPLAY).setReplayOf("benchmark-1").build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("benchmark-1-replay", st,
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), given));
        assertTrue(r.getProvenance().getComplete());
        JsonNode j = json(r);
        JsonNode cs = j.get("capstream");
        assertEquals("REPLAY", cs.get("kind").textValue());
        assertEquals("benchmark-1", cs.get("replay_of").textValue());
        assertTrue(cs.get("run").get("keep_alive").booleanValue());
        assertEquals(28, j.size(), "27 reference keys + capstream");
    }

    @Test
    void theDatasetAndLengthSettingsAreInCapstreamRun() throws Exception {
        RunStarted st = started(1, 4096).setDatasetName("chat.jsonl").setDatasetSha256("ab12").setDatasetEntries(3)
                .setTokenizer("tokenizer.json").setOutputTokensMean(128.0).setOutputTokensStddev(32.0).build();
        JsonNode run = json(ReportCalculator.compute(new RunData("benchmark-1", st,
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), null)))
                .get("capstream").get("run");
        assertEquals("chat.jsonl", run.get("dataset_name").textValue());
        assertEquals("ab12", run.get("dataset_sha256").textValue());
        assertEquals(3, run.get("dataset_entries").intValue());
        assertEquals("tokenizer.json", run.get("tokenizer").textValue());
        assertTrue(run.get("input_tokens_mean").isNull());
        assertTrue(run.get("input_tokens_stddev").isNull());
        assertEquals(128.0, run.get("output_tokens_mean").doubleValue());
        assertEquals(32.0, run.get("output_tokens_stddev").doubleValue());
        JsonNode synthetic = json(ReportCalculator.compute(new RunData("benchmark-2", started(1, 4096).build(),
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), null)))
                .get("capstream").get("run");
        assertTrue(synthetic.get("dataset_name").isNull());
        assertTrue(synthetic.get("dataset_sha256").isNull());
    }

    @Test
    void theGeneratorsSelfCheckIsTheCapstreamClientObject() throws Exception {
        ClientCheck cc = ClientCheck.newBuilder().setDelaySamples(5000).setDelayP50Ms(0.1).setDelayP99Ms(7.5)
                .setDelayMaxMs(12.0).setCpuProcessMs(840.0).setCpuCores(2).setGcPauses(3).setGcPauseMs(1.5)
                .setGcPauseMaxMs(0.75).setInFlightMax(4).setInFlightMean(3.9).setEventDelivery("deferred")
                .setDistorted(true).setWarnings(List.of("event-loop delay p99 7.5 ms > 5 ms")).build();
        RunFinished fin = RunFinished.newBuilder(finished(1_000_000_000L)).setClientCheck(cc).build();
        JsonNode j = json(ReportCalculator.compute(new RunData("r", started(1, 4096).build(),
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), fin, null)));
        JsonNode c = j.get("capstream").get("client");
        assertEquals(cc.getSchema().getFields().size() - 2, c.size(),
                "one key per ClientCheck field but the generator's raw delay_histogram and target_local: " + c);
        assertThat(c.has("delay_histogram") || c.has("target_local")).as("raw inputs in capstream.client: %s", c)
                .isFalse();
        assertEquals(7.5, c.get("delay_p99_ms").doubleValue());
        assertEquals(5000, c.get("delay_samples").longValue());
        assertEquals(840.0, c.get("cpu_process_ms").doubleValue());
        assertEquals(3, c.get("gc_pauses").intValue());
        assertEquals(0.75, c.get("gc_pause_max_ms").doubleValue());
        assertEquals(3.9, c.get("in_flight_mean").doubleValue());
        assertEquals("deferred", c.get("event_delivery").textValue());
        assertTrue(c.get("distorted").booleanValue());
        assertEquals("event-loop delay p99 7.5 ms > 5 ms", c.get("warnings").get(0).textValue());
        assertTrue(c.get("queue_p99_ms").isNull(), "an unset measurement is null");
        JsonNode without = json(ReportCalculator.compute(new RunData("r", started(1, 4096).build(),
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), null)));
        assertFalse(without.get("capstream").has("client"), "no self-check (imports, replays of old runs): no key");
        assertEquals(j.get("metrics"), without.get("metrics"), "the self-check never changes a metric");
    }

    @Test
    void serveFlagsPresenceAndReasoningEffortKey() throws Exception {
        RequestCompleted c = ok(0, 100, 600, 1000, 10).build();
        BenchmarkReport full = ReportCalculator.compute(new RunData("a", started(1, 4096)
                .setReasoningEffort("low").setThinkingMode("default").build(), List.of(c), List.of(),
                finished(1_000_000_000L), null));
        JsonNode sf = json(full).get("serve_flags");
        assertEquals(4, sf.size());
        assertEquals("low", sf.get("reasoning_effort").textValue());
        assertEquals("low", full.getServeFlags().getReasoningEffort());

        BenchmarkReport old = ReportCalculator.compute(new RunData("b", started(1, 4096)
                .setServeFlagsHasReasoningEffort(false).build(), List.of(c), List.of(), finished(1_000_000_000L), null));
        assertEquals(3, json(old).get("serve_flags").size());
        assertFalse(json(old).get("serve_flags").has("reasoning_effort"));

        BenchmarkReport none = ReportCalculator.compute(new RunData("c", started(1, 4096)
                .setServeFlagsPresent(false).build(), List.of(c), List.of(), finished(1_000_000_000L), null));
        assertFalse(json(none).has("serve_flags"));
        assertNull(none.getServeFlags());
    }

    @Test
    void timingMethodologyDefaultsToTheSeedWording() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("d", started(1, 4096).build(),
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), null));
        JsonNode seed = ArtifactJson.read(Fixtures.shared()
                .resolve("corpus/seed-example.json"));
        assertEquals(seed.get("timing_methodology"), json(r).get("timing_methodology"));
        BenchmarkReport custom = ReportCalculator.compute(new RunData("e", started(1, 4096)
                .setTimingMethodology(Map.of("clock", "java System.nanoTime")).build(),
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(), finished(1_000_000_000L), null));
        assertEquals("java System.nanoTime", json(custom).get("timing_methodology").get("clock").textValue());
    }

    @Test
    void invalidTimesGetNoRowButCountAsCompleted() throws Exception {
        RequestCompleted bad = ok(1, 500, 400, 1000, 10).build(); // e2e < ttft
        RequestCompleted good = ok(0, 100, 600, 1000, 10).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("f", started(2, 4096).build(),
                List.of(bad, good), List.of(), finished(1_000_000_000L), null));
        assertEquals(1, r.getRequestTimings().size());
        assertEquals(1, r.getMetrics().getTtftSamples());
        assertEquals(2, r.getCompleted());
        assertEquals(1, json(r).get("capstream").get("invalid_timing_request_indices").get(0).intValue());
    }

    @Test
    void contextDistributionCountsThePlanWithSortedStringKeys() throws Exception {
        RunStarted st = started(3, 4096).setPlannedContextTokens(List.of(65536, 129792, 65536)).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("g", st,
                List.of(ok(0, 100, 600, 1000, 10).build()), List.of(failed(1, "x").build(), failed(2, "y").build()),
                finished(1_000_000_000L), null));
        assertEquals(Map.of("65536", 2, "129792", 1), r.getContextDistribution());
        assertThat(r.getArtifactJson()).contains("\"context_distribution\": {\n    \"129792\": 1,\n    \"65536\": 2\n  },");
    }

    @Test
    void missingRunStartedStillGivesAReport() {
        BenchmarkReport r = ReportCalculator.compute(new RunData("h", null,
                List.of(ok(2, 100, 600, 1000, 10).build()), List.of(), null, null));
        assertEquals(3, r.getRequests());
        assertEquals(List.of(0, 1), r.getProvenance().getMissingRequestIndices());
        assertFalse(r.getProvenance().getComplete());
        assertEquals(Map.of("4096", 1), r.getContextDistribution());
    }

    @Test
    void reportSerialisesWithAvro() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("avro", started(3, 4096).build(),
                List.of(ok(0, 100, 600, 1000, 10).setCachedTokens(10L).build(),
                        ok(1, 100, 600, 1000, 0).setCompletionTokens(null).setOutputTokenSource("content_chunks").build()),
                List.of(failed(2, null).build()), null, null));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.specific.SpecificDatumWriter<>(BenchmarkReport.class).write(r, enc);
        enc.flush();
        BenchmarkReport back = new org.apache.avro.specific.SpecificDatumReader<>(BenchmarkReport.class)
                .read(null, org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        assertEquals(r, back);
    }

    @Test
    void timeBoundedRunCountsOnlyTheRequestsThatRan() throws Exception {
        // --duration: RunStarted.requests is an upper bound (the plan); 3 of 10 planned requests ran.
        RunStarted st = started(10, 4096).setDurationS(5.0).build();
        RunFinished fin = RunFinished.newBuilder(finished(1_000_000_000L)).setRequestsSent(3).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-dur", st,
                List.of(ok(0, 100, 600, 4000, 10).build(), ok(1, 100, 600, 4000, 10).build()),
                List.of(failed(2, "boom").build()), fin, null));
        assertEquals(3, r.getRequests(), "requests = completed + failed for a time-bounded run");
        assertEquals(2, r.getCompleted());
        assertEquals(1, r.getFailed());
        assertEquals(java.util.Map.of("4096", 3), r.getContextDistribution(), "distribution sums to requests");
        assertTrue(r.getProvenance().getComplete(), "nothing is missing: unplanned tail indices never ran");
        assertEquals(List.of(), r.getProvenance().getMissingRequestIndices());
    }

    @Test
    void interruptedRunCountsOnlyTheRequestsThatRan() {
        RunFinished fin = RunFinished.newBuilder(finished(1_000_000_000L)).setRequestsSent(1).setInterrupted(true).build();
        BenchmarkReport r = ReportCalculator.compute(new RunData("run-int", started(20, 4096).build(),
                List.of(ok(0, 100, 600, 4000, 10).build()), List.of(), fin, null));
        assertEquals(1, r.getRequests());
        assertEquals(java.util.Map.of("4096", 1), r.getContextDistribution());
    }
}
