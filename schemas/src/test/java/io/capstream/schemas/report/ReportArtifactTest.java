package io.capstream.schemas.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.ServeFlags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class ReportArtifactTest {
    static Metrics metrics() {
        Metrics m = new Metrics();
        double v = 1.5;
        for (Schema.Field f : Metrics.getClassSchema().getFields()) {
            Schema.Type t = f.schema().getTypes().get(1).getType();
            m.put(f.pos(), switch (t) {
                case DOUBLE -> v += 1.0;
                case INT -> (int) (v += 1.0);
                case LONG -> (long) (v += 1.0);
                case MAP -> new TreeMap<>(Map.of("usage", 3, "unknown", 1));
                default -> throw new AssertionError(f.name());
            });
        }
        return m;
    }

    static BenchmarkReport report(ServeFlags flags, List<FailureEntry> failures) {
        RequestTiming row = RequestTiming.newBuilder().setRequestIndex(0).setPlannedContextTokens(4096)
                .setPromptTokens(4000L).setOutputTokens(12L).setOutputTokenSource("usage").setTimeToFirstOutputMs(41.0)
                .setTtftMs(42.0).setGenerationMs(100.0).setVisibleGenerationMs(99.0).setE2eMs(142.0)
                .setEffectivePrefillTokS(97560.9).setDecodeTokS(110.0).setMeanInterTokenLatencyMs(9.09)
                .setReasoningChunks(0).setContentChunks(12).build();
        return BenchmarkReport.newBuilder().setSchema$("anvil-serving.benchmark/v1").setMeasurementProtocol("capacity-v3")
                .setRunId("benchmark-x").setStartedAt("2026-08-01T12:00:00Z").setFinishedAt(null).setWallClockMs(1000.0)
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel("m").setEngine("vllm").setRequests(2).setCompleted(1)
                .setFailed(failures.size()).setFailures(failures).setConcurrency(1).setContextTokens(4096)
                .setContextSeed(7L).setContextDistribution(Map.of("4096", 2)).setMaxContextTokens(8192).setMaxTokens(16)
                .setServeFlags(flags).setTimingMethodology(Map.of("clock", "client time.perf_counter"))
                .setRequestTimings(List.of(row)).setMetrics(metrics())
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).setGeneratedAtMs(5).build())
                .setArtifactJson("ignored").setArtifactChunks(0).setArtifactBytes(3).setArtifactSha256("ab").build();
    }

    private static Set<String> keys(JsonNode o) {
        Set<String> s = new HashSet<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            s.add(it.next());
        }
        return s;
    }

    private static Set<String> fieldNames(Schema s) {
        Set<String> out = new HashSet<>();
        s.getFields().forEach(f -> out.add(f.name()));
        return out;
    }

    @Test
    void everyRecordFieldIsMappedExactlyOnceUnderItsOwnName() {
        ServeFlags flags = ServeFlags.newBuilder().setSharedPrefixBurst(false).setNoThinking(false)
                .setThinkingMode("disabled").setReasoningEffort(null).build();
        ObjectNode a = ReportArtifact.toArtifact(report(flags, List.of()), true, null);
        Set<String> expected = new HashSet<>();
        List<String> mapped = new ArrayList<>();
        for (Schema.Field f : BenchmarkReport.getClassSchema().getFields()) {
            String key = ReportArtifact.artifactKey(f.name());
            if (key != null) {
                mapped.add(key);
                expected.add(key);
            }
        }
        assertEquals(expected.size(), mapped.size(), "no two fields share an artifact key: " + mapped);
        assertEquals(expected, keys(a));
        assertEquals(BenchmarkReport.getClassSchema().getFields().size() - ReportArtifact.RECORD_ONLY.size(), a.size());
        for (String recordOnly : ReportArtifact.RECORD_ONLY) {
            assertNotNull(BenchmarkReport.getClassSchema().getField(recordOnly), recordOnly + " is a record field");
        }
    }

    @Test
    void nestedJsonKeysEqualTheAvroFieldNames() {
        ServeFlags flags = ServeFlags.newBuilder().setSharedPrefixBurst(true).setNoThinking(true)
                .setThinkingMode("disabled").setReasoningEffort("low").build();
        FailureEntry failure = FailureEntry.newBuilder().setRequestIndex(1).setErrorType("HTTPError")
                .setErrorMessage("HTTP Error 500").setErrorMessageTruncated(false).build();
        ObjectNode a = ReportArtifact.toArtifact(report(flags, List.of(failure)), true, null);
        assertEquals(fieldNames(Metrics.getClassSchema()), keys(a.get("metrics")));
        assertEquals(fieldNames(RequestTiming.getClassSchema()), keys(a.get("request_timings").get(0)));
        assertEquals(fieldNames(FailureEntry.getClassSchema()), keys(a.get("failures").get(0)));
        assertEquals(fieldNames(ServeFlags.getClassSchema()), keys(a.get("serve_flags")));
        assertEquals(fieldNames(Provenance.getClassSchema()), keys(a.get(ReportArtifact.CAPSTREAM_KEY)));
        // ints stay ints, doubles stay floats (spec §9.1)
        assertTrue(a.get("metrics").get("ttft_samples").isInt());
        assertTrue(a.get("metrics").get("ttft_p95_ms").isDouble());
        assertTrue(a.get("request_timings").get(0).get("prompt_tokens").isIntegralNumber());
        assertEquals(142.0, a.get("request_timings").get(0).get("e2e_ms").doubleValue());
        assertEquals("LIVE", a.get(ReportArtifact.CAPSTREAM_KEY).get("kind").textValue());
    }

    @Test
    void theListedExceptionsLeaveKeysOut() {
        FailureEntry old = FailureEntry.newBuilder().setRequestIndex(1).setErrorType("URLError").build();
        ObjectNode extras = ArtifactJson.nodes().objectNode().put("origin", "live");
        ObjectNode a = ReportArtifact.toArtifact(report(null, List.of(old)), true, extras);
        assertFalse(a.has("serve_flags"), "null serve_flags is left out");
        assertEquals(Set.of("request_index", "error_type"), keys(a.get("failures").get(0)));
        assertEquals("live", a.get("capstream").get("origin").textValue(), "extras are merged after provenance");
        assertEquals(5, a.get("capstream").get("generated_at_ms").longValue());
        ServeFlags flags = ServeFlags.newBuilder().setSharedPrefixBurst(false).setNoThinking(false)
                .setThinkingMode("default").build();
        assertFalse(ReportArtifact.toArtifact(report(flags, List.of()), false, null).get("serve_flags")
                .has("reasoning_effort"));
        assertTrue(ReportArtifact.toArtifact(report(flags, List.of()), true, null).get("serve_flags")
                .get("reasoning_effort").isNull(), "the key is written with a null value when the flag exists");
    }

    @Test
    void metricsRoundTripThroughTheArtifact() throws Exception {
        Metrics m = metrics();
        JsonNode written = ArtifactJson.parse(ArtifactJson.write(
                ReportArtifact.toArtifact(report(null, List.of()), false, null)));
        assertEquals(m, ReportArtifact.metricsFromArtifact(written.get("metrics")));
        Metrics empty = ReportArtifact.metricsFromArtifact(ArtifactJson.parse("{\"ttft_p50_ms\":\"x\",\"ttft_samples\":null}"));
        assertNull(empty.getTtftP50Ms(), "a non-number is null for a double field");
        assertNull(empty.getTtftSamples());
        assertNull(ReportArtifact.metricsFromArtifact(null).getOutputTokenSources());
    }

    @Test
    void theConsoleFieldListsNameNumericMetrics() {
        Set<String> names = new HashSet<>();
        ReportView.SUMMARY_PERCENTILES.forEach(p -> {
            names.add(p.p50Field());
            names.add(p.p95Field());
        });
        ReportView.TAIL_METRICS.forEach(c -> names.add(c.field()));
        Metrics m = metrics();
        for (String n : names) {
            assertNotNull(Metrics.getClassSchema().getField(n), n);
            assertEquals(((Number) m.get(n)).doubleValue(), ReportView.metric(m, n), n);
        }
        assertNull(ReportView.metric(new Metrics(), "ttft_p95_ms"));
    }
}
