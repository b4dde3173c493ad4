package io.capstream.aggregator.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ArtifactImporterTest {
    private static Path withTimings(String prefix) throws Exception {
        try (Stream<Path> s = Files.list(CorpusRecomputeTest.shared().resolve("corpus/anvil/with-timings"))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().findFirst().orElseThrow();
        }
    }

    @Test
    void seedBecomesRunStartedTenCompletedAndRunFinished() throws Exception {
        Path seed = CorpusRecomputeTest.shared().resolve("corpus/seed-example.json");
        ImportPlan plan = ArtifactImporter.plan(seed);
        assertEquals(ArtifactGeneration.CAPACITY_V3, plan.generation());
        assertEquals("benchmark-20260821T144904Z", plan.runId());
        List<RunEvent> ev = plan.events();
        assertEquals(12, ev.size());
        RunStarted st = (RunStarted) ev.get(0).getPayload();
        assertEquals("import", st.getOrigin());
        assertEquals("seed-example.json", st.getSourceFile());
        assertEquals(10, st.getPlannedContextTokens().size());
        assertEquals(4096, st.getContextTokens());
        assertEquals("sglang", st.getEngine());
        assertEquals("disabled", st.getThinkingMode());
        assertTrue(st.getServeFlagsHasReasoningEffort());
        assertEquals(7, st.getTimingMethodology().size());
        RequestCompleted c0 = (RequestCompleted) ev.get(1).getPayload();
        assertEquals(0, c0.getRequestIndex());
        // reconstructed seconds reproduce the row's milliseconds exactly
        assertEquals(374.0345999831334, c0.getExactSeconds().getTtftS() * 1000.0);
        assertEquals(374.03369997628033, c0.getExactSeconds().getTtfoS() * 1000.0);
        assertEquals(692.0715000014752, c0.getExactSeconds().getE2eS() * 1000.0);
        assertEquals(Math.round(c0.getExactSeconds().getTtftS() * 1e9), c0.getTtftNs());
        assertEquals(44L, c0.getCompletionTokens());
        assertEquals(16, c0.getContentChunks());
        assertNull(c0.getCachedTokens());
        RunFinished fin = (RunFinished) ev.get(11).getPayload();
        assertEquals(6790.586900082417, fin.getWallClockS() * 1000.0);
        assertEquals(461 / fin.getWallClockS(), 67.88809373669967);
        assertEquals("2026-08-21T14:49:10Z", fin.getFinishedAt());
        assertEquals(10, fin.getRequestsSent());
        // the same file gives the same event ids (idempotent import)
        assertEquals(ev.get(5).getEventId(), ArtifactImporter.plan(seed).events().get(5).getEventId());
        assertEquals(12, ev.stream().map(RunEvent::getEventId).distinct().count());
        assertThat(ev).allMatch(e -> e.getRunId().equals(plan.runId()) && e.getWorkerId().equals("import"));
    }

    @Test
    void earlyV3RowsGetDistributedContentChunksAndNoTimeToFirstOutput() throws Exception {
        Path f = withTimings("2026-07-28-agents-a1-multimodal-qualification__fp8-moe-ab-default-v3-primary-r1");
        JsonNode a = ArtifactJson.read(f);
        ImportPlan plan = ArtifactImporter.plan(f);
        assertEquals(ArtifactGeneration.CAPACITY_V3_EARLY, plan.generation());
        long total = a.get("metrics").get("content_chunks").longValue();
        List<RequestCompleted> done = plan.events().stream().map(RunEvent::getPayload)
                .filter(p -> p instanceof RequestCompleted).map(p -> (RequestCompleted) p).toList();
        assertEquals(32, done.size());
        assertEquals(total, done.stream().mapToLong(RequestCompleted::getContentChunks).sum());
        int max = done.stream().mapToInt(RequestCompleted::getContentChunks).max().orElseThrow();
        int min = done.stream().mapToInt(RequestCompleted::getContentChunks).min().orElseThrow();
        assertTrue(max - min <= 1, "split evenly");
        assertThat(done).allMatch(c -> c.getTtfoNs() == null && c.getExactSeconds().getTtfoS() == null
                && c.getReasoningChunks() == 0);
        BenchmarkReport r = ReportCalculator.compute(plan.toRunData(0));
        assertEquals(List.of(), MetricComparison.compare(a, r));
        // current shape: 15-key rows, TTFO metrics present and equal to TTFT metrics
        JsonNode ours = ArtifactJson.parse(r.getArtifactJson());
        assertEquals(15, ours.get("request_timings").get(0).size());
        assertEquals(ours.get("metrics").get("ttft_p50_ms"), ours.get("metrics").get("time_to_first_output_p50_ms"));
        assertEquals(a.get("timing_methodology"), ours.get("timing_methodology"), "early wording kept");
    }

    @Test
    void distributeContentChunks() {
        ObjectNode m = ArtifactJson.nodes().objectNode().put("content_chunks", 11);
        assertEquals(List.of(3, 3, 3, 2), java.util.Arrays.stream(ArtifactImporter.distributeContentChunks(m, 4)).boxed().toList());
        assertEquals(0, ArtifactImporter.distributeContentChunks(m, 0).length);
    }

    @Test
    void failedRequestsTakeTheLeftOverPlannedContexts() throws Exception {
        ObjectNode a = (ObjectNode) ArtifactJson.parse("{\"context_distribution\": {\"65536\": 2, \"129792\": 1, \"32768\": 1},"
                + " \"context_tokens\": null}");
        List<JsonNode> rows = List.of(ArtifactJson.parse("{\"request_index\": 1, \"planned_context_tokens\": 65536}"),
                ArtifactJson.parse("{\"request_index\": 2, \"planned_context_tokens\": 129792}"));
        List<JsonNode> failures = List.of(ArtifactJson.parse("{\"request_index\": 0}"),
                ArtifactJson.parse("{\"request_index\": 3}"));
        int[] planned = ArtifactImporter.plannedContexts(a, rows, failures, 4);
        assertEquals(List.of(32768, 65536, 129792, 65536), java.util.Arrays.stream(planned).boxed().toList());
    }

    @Test
    void failuresKeepTheirMessageFieldsAndPlan() throws Exception {
        Path f = withTimings("2026-08-02-deepseek-0731-native-kv-offload__eviction-sequence");
        ImportPlan plan = ArtifactImporter.plan(f);
        List<RequestFailed> failed = plan.events().stream().map(RunEvent::getPayload)
                .filter(p -> p instanceof RequestFailed).map(p -> (RequestFailed) p).toList();
        assertEquals(2, failed.size());
        assertEquals("stream completed without visible content", failed.get(0).getErrorMessage());
        assertFalse(failed.get(0).getErrorMessageTruncated());
        RunStarted st = (RunStarted) plan.events().get(0).getPayload();
        assertEquals(st.getRequests(), st.getPlannedContextTokens().size());
        BenchmarkReport r = ReportCalculator.compute(plan.toRunData(0));
        assertEquals(List.of(), MetricComparison.compare(plan.artifact(), r));
        assertEquals(plan.artifact().get("context_distribution"),
                ArtifactJson.parse(r.getArtifactJson()).get("context_distribution"));
    }

    @Test
    void cachedTokensReproduceThePrefixCacheAverage() throws Exception {
        int files = 0;
        int withIntegers = 0;
        try (Stream<Path> s = Files.list(CorpusRecomputeTest.shared().resolve("corpus/anvil/with-timings"))) {
            for (Path f : s.sorted().toList()) {
                ImportPlan plan = ArtifactImporter.plan(f);
                JsonNode avg = plan.artifact().get("metrics").get("prefix_cache_hit_avg");
                if (avg.isNull()) {
                    continue;
                }
                files++;
                List<RequestCompleted> done = plan.events().stream().map(RunEvent::getPayload)
                        .filter(p -> p instanceof RequestCompleted).map(p -> (RequestCompleted) p).toList();
                assertThat(done).allMatch(c -> c.getCachedTokens() != null);
                if (done.stream().allMatch(c -> c.getExactCachedFraction() == null)) {
                    withIntegers++;
                }
                BenchmarkReport r = ReportCalculator.compute(plan.toRunData(0));
                assertEquals(avg.doubleValue(), r.getMetrics().getPrefixCacheHitAvg(), 0.0, f.toString());
            }
        }
        System.out.printf("prefix_cache_hit_avg: %d files, %d reproduced with integer cached_tokens%n", files, withIntegers);
        assertEquals(19, files);
        assertEquals(18, withIntegers, "one file has differing prompt sizes: exact_cached_fraction");
    }

    @Test
    void solverCandidatesAllMapOntoTheMillisecondValue() {
        double ms = 374.0345999831334;
        double[] c = ExactSecondsSolver.candidates(ms);
        assertTrue(c.length >= 1 && c.length <= 2, "one or two doubles share one ms value: " + c.length);
        for (double s : c) {
            assertEquals(ms, s * 1000.0);
        }
        assertTrue(Math.nextDown(c[0]) * 1000.0 != ms);
        assertTrue(Math.nextUp(c[c.length - 1]) * 1000.0 != ms);
        int none = 0;
        int two = 0;
        for (double v = 256.0; v < 256.0 + 2000 * Math.ulp(256.0); v = Math.nextUp(v)) {
            int n = ExactSecondsSolver.candidates(v).length;
            none += n == 0 ? 1 : 0;
            two += n == 2 ? 1 : 0;
            assertTrue(n <= 2);
        }
        System.out.printf("ms values in [256, 256 + 2000 ulp): %d without a preimage, %d with two%n", none, two);
    }

    @Test
    void solverFallsBackForInconsistentRows() {
        ExactSecondsSolver.RowSeconds s = ExactSecondsSolver.solveRow(new ExactSecondsSolver.RowTarget(
                100.0, 100.5, 300.0, 123.456, 199.5, null, null, null, null, null));
        assertFalse(s.exact());
        assertEquals(0.1, s.ttfo());
        assertEquals(0.3, s.e2e());
    }

    @Test
    void summaryOnlyLegacyKeepsItsTextAndTypedFields() throws Exception {
        Path f;
        try (Stream<Path> s = Files.list(CorpusRecomputeTest.shared().resolve("corpus/anvil/summary-only"))) {
            f = s.sorted().findFirst().orElseThrow();
        }
        ImportPlan plan = ArtifactImporter.plan(f);
        assertTrue(plan.summaryOnly());
        assertThat(plan.events()).isEmpty();
        BenchmarkReport r = plan.summaryReport();
        assertEquals(Files.readString(f), r.getArtifactJson());
        JsonNode a = ArtifactJson.read(f);
        assertEquals(a.get("requests").intValue(), r.getRequests());
        assertEquals(a.get("metrics").path("throughput_tok_s").isNull() ? null
                : a.get("metrics").get("throughput_tok_s").doubleValue(), r.getMetrics().getThroughputTokS());
        assertNotNull(r.getProvenance().getSourceFile());
    }

    @Test
    void objectOrNullCopiesAnObjectsFieldsInTheGivenMapKindAndNullOtherwise() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var n = json.readTree("{\"b\": 2, \"a\": 1}");
        assertEquals(java.util.List.of("b", "a"), new java.util.ArrayList<>(ArtifactImporter.objectOrNull(n,
                java.util.LinkedHashMap::new, com.fasterxml.jackson.databind.JsonNode::intValue).keySet()));
        assertEquals(java.util.Map.of("a", "1", "b", "2"),
                ArtifactImporter.objectOrNull(n, java.util.TreeMap::new, com.fasterxml.jackson.databind.JsonNode::asText));
        java.util.Map<String, String> none = ArtifactImporter.objectOrNull(json.readTree("[1]"), java.util.TreeMap::new,
                com.fasterxml.jackson.databind.JsonNode::asText);
        assertNull(none);
        none = ArtifactImporter.objectOrNull(null, java.util.TreeMap::new, com.fasterxml.jackson.databind.JsonNode::asText);
        assertNull(none);
    }
}
