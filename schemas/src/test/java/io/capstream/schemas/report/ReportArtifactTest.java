package io.capstream.schemas.report;

import io.capstream.schemas.artifact.AvroRecordJson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.Histogram;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RequestTimeline;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.ServeFlags;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.SweepStepRef;
import io.capstream.schemas.avro.WorkerSummary;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.Arrays;
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

    /** @return the fields the JSON shows while they are null: all but those marked omit_null (added later) */
    private static Set<String> fieldNames(Schema s) {
        Set<String> out = new HashSet<>();
        s.getFields().stream().filter(f -> !Boolean.TRUE.equals(f.getObjectProp(AvroRecordJson.OMIT_NULL)))
                .forEach(f -> out.add(f.name()));
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
            if (ReportArtifact.CAPSTREAM_FIELDS.contains(f.name())) {
                assertEquals(ReportArtifact.CAPSTREAM_KEY, key, f.name() + " is under the capstream key");
            } else if (key != null) {
                mapped.add(key);
                expected.add(key);
            }
        }
        assertEquals(expected.size(), mapped.size(), "no two fields share an artifact key: " + mapped);
        assertEquals(expected, keys(a));
        assertEquals(BenchmarkReport.getClassSchema().getFields().size() - ReportArtifact.RECORD_ONLY.size()
                - ReportArtifact.CAPSTREAM_FIELDS.size(), a.size());
        for (String field : ReportArtifact.CAPSTREAM_FIELDS) {
            assertNotNull(BenchmarkReport.getClassSchema().getField(field), field + " is a record field");
        }
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
            if (p.p50Field() != null) {
                names.add(p.p50Field());
                names.add(p.p95Field());
            } else {
                assertNull(p.p95Field(), p.label() + ": p50 and p95 both come from the distribution");
                assertNotNull(p.distribution(), p.label());
            }
            if (p.distribution() != null) {
                assertEquals(Distribution.getClassSchema(),
                        RunStatistics.getClassSchema().getField(p.distribution()).schema(), p.distribution());
            }
        });
        ReportView.TAIL_METRICS.forEach(c -> names.add(c.field()));
        Metrics m = metrics();
        for (String n : names) {
            assertNotNull(Metrics.getClassSchema().getField(n), n);
            assertEquals(((Number) m.get(n)).doubleValue(), ReportView.metric(m, n), n);
        }
        assertNull(ReportView.metric(new Metrics(), "ttft_p95_ms"));
    }

    @Test
    void statisticsSloLoadSweepAndTimelineGoUnderTheCapstreamKeyAndAreLeftOutWhenNull() {
        Distribution empty = Distribution.newBuilder().setCount(0).build();
        Distribution ttft = Distribution.newBuilder().setCount(2).setMean(375.0).setStddev(125.0).setMin(250.0)
                .setMax(500.0).setP50(250.0).setP90(500.0).setP95(500.0).setP99(500.0).build();
        Histogram histogram = Histogram.newBuilder().setLowerMs(List.of(10.0, 12.5893))
                .setUpperMs(List.of(12.5893, 15.8489)).setCount(List.of(3L, 0L)).build();
        RunStatistics stats = RunStatistics.newBuilder().setTtftMs(ttft).setTtfoMs(empty).setE2eMs(empty)
                .setItlMs(empty).setInterChunkMs(empty).setRequestThroughputRps(0.5)
                .setInterChunkHistogram(histogram).build();
        RequestTimeline timeline = RequestTimeline.newBuilder().setRequestIndex(List.of(0, 1))
                .setStartMs(List.of(0.0, 12.5)).setQueueMs(List.of(0.0, 1.5))
                .setFirstTokenMs(Arrays.asList(40.25, null)).setEndMs(List.of(142.0, 30.0))
                .setErrorType(Arrays.asList(null, "HTTPError")).build();
        SloReport slo = SloReport.newBuilder().setSlos(List.of(SloAttainment.newBuilder().setSlo("ttft_p95_ms<=400")
                .setMetric("ttft_p95_ms").setThreshold(400.0).setObserved(500.0).setMet(false).setRequestsMeeting(1)
                .setAttainment(0.5).build())).setRequests(2).setGoodRequests(1).setGoodput(0.5).setMetAll(false).build();
        LoadHealth load = LoadHealth.newBuilder().setArrival("closed").setAchievedRateRps(2.0).setOfferedConcurrency(4)
                .build();
        SweepStepRef sweep = SweepStepRef.newBuilder().setSweepId("sweep-1").setStep(1).setAxis("concurrency")
                .setValue(4.0).setMode("search").build();
        BenchmarkReport r = BenchmarkReport.newBuilder(report(null, List.of())).setStatistics(stats).setSlo(slo)
                .setLoad(load).setSweep(sweep).setTimeline(timeline).build();
        ObjectNode extras = ArtifactJson.nodes().objectNode().put("origin", "live");
        ObjectNode a = ReportArtifact.toArtifact(r, false, extras);
        JsonNode c = a.get(ReportArtifact.CAPSTREAM_KEY);
        for (String field : ReportArtifact.CAPSTREAM_FIELDS) {
            assertFalse(a.has(field), field + " is not a top-level key");
        }
        assertEquals(fieldNames(RunStatistics.getClassSchema()), keys(c.get("statistics")));
        assertEquals(fieldNames(Distribution.getClassSchema()), keys(c.get("statistics").get("ttft_ms")));
        assertEquals(375.0, c.get("statistics").get("ttft_ms").get("mean").doubleValue());
        assertTrue(c.get("statistics").get("ttft_ms").get("count").isIntegralNumber());
        assertTrue(c.get("statistics").get("e2e_ms").get("p99").isNull(), "null statistics of an empty distribution stay");
        assertEquals(fieldNames(SloReport.getClassSchema()), keys(c.get("slo")));
        assertEquals(fieldNames(SloAttainment.getClassSchema()), keys(c.get("slo").get("slos").get(0)));
        assertEquals(0.5, c.get("slo").get("slos").get(0).get("attainment").doubleValue());
        assertEquals(fieldNames(LoadHealth.getClassSchema()), keys(c.get("load")));
        assertTrue(c.get("load").get("offered_rate_rps").isNull());
        assertEquals(fieldNames(SweepStepRef.getClassSchema()), keys(c.get("sweep")));
        assertEquals("search", c.get("sweep").get("mode").textValue());
        assertEquals(fieldNames(Histogram.getClassSchema()), keys(c.get("statistics").get("inter_chunk_histogram")));
        assertEquals("[10.0,12.5893]", c.get("statistics").get("inter_chunk_histogram").get("lower_ms").toString());
        assertEquals("[3,0]", c.get("statistics").get("inter_chunk_histogram").get("count").toString());
        assertEquals(fieldNames(RequestTimeline.getClassSchema()), keys(c.get("timeline")));
        assertEquals("[0,1]", c.get("timeline").get("request_index").toString());
        assertEquals("[40.25,null]", c.get("timeline").get("first_token_ms").toString());
        assertEquals("[null,\"HTTPError\"]", c.get("timeline").get("error_type").toString());
        assertEquals("[142.0,30.0]", c.get("timeline").get("end_ms").toString());
        // order under the key: provenance, the caller's extras, then statistics, slo, load, sweep, timeline
        List<String> order = new ArrayList<>();
        c.fieldNames().forEachRemaining(order::add);
        assertEquals(List.of("origin", "statistics", "slo", "load", "sweep", "timeline"),
                order.subList(order.size() - 6, order.size()));
        assertEquals("kind", order.get(0));

        ObjectNode none = ReportArtifact.toArtifact(report(null, List.of()), false, extras);
        for (String field : ReportArtifact.CAPSTREAM_FIELDS) {
            assertFalse(none.has(field), field);
            assertFalse(none.get(ReportArtifact.CAPSTREAM_KEY).has(field), field + " is left out when null");
        }
        assertEquals(fieldNames(Provenance.getClassSchema()).size() + 1, none.get(ReportArtifact.CAPSTREAM_KEY).size());
    }

    @Test
    void workersAreAnObjectKeyedByWorkerIdWithSortedKeysUnderTheCapstreamKey() throws Exception {
        Map<String, WorkerSummary> workers = new LinkedHashMap<>();
        workers.put("w2", WorkerSummary.newBuilder().setRequests(2).setCompleted(1).setFailed(1).setRunFinished(false)
                .build());
        workers.put("w10", WorkerSummary.newBuilder().setRequests(3).setCompleted(3).setFailed(0).setRunFinished(true)
                .setRequestsSent(3).setShare(1).setShares(2).setClockOffsetMs(-0.5).setClockOffsetUncertaintyMs(0.25)
                .build());
        BenchmarkReport r = BenchmarkReport.newBuilder(report(null, List.of())).setWorkers(workers)
                .setClockOffsetSpreadMs(1.75).build();
        ObjectNode a = ReportArtifact.toArtifact(r, false, null);
        assertFalse(a.has("workers"), "not a top-level key");
        assertFalse(a.has("clock_offset_spread_ms"), "not a top-level key");
        JsonNode c = a.get(ReportArtifact.CAPSTREAM_KEY);
        assertEquals(Set.of("w2", "w10"), keys(c.get("workers")));
        assertEquals(fieldNames(WorkerSummary.getClassSchema()), keys(c.get("workers").get("w10")));
        assertTrue(c.get("workers").get("w10").get("requests").isInt());
        assertTrue(c.get("workers").get("w10").get("run_finished").booleanValue());
        assertEquals(-0.5, c.get("workers").get("w10").get("clock_offset_ms").doubleValue());
        assertTrue(c.get("workers").get("w2").get("requests_sent").isNull(), "null fields of an entry stay");
        assertTrue(c.get("clock_offset_spread_ms").isDouble());
        assertEquals(1.75, c.get("clock_offset_spread_ms").doubleValue());
        // written, the worker ids are sorted by code point like every other object's keys
        String text = ArtifactJson.write(a);
        int w10 = text.indexOf("\"w10\": {");
        int w2 = text.indexOf("\"w2\": {");
        assertTrue(w10 > 0 && w2 > w10, text);
        JsonNode back = ArtifactJson.parse(text).get(ReportArtifact.CAPSTREAM_KEY).get("workers");
        List<String> order = new ArrayList<>();
        back.fieldNames().forEachRemaining(order::add);
        assertEquals(List.of("w10", "w2"), order);

        JsonNode none = ReportArtifact.toArtifact(report(null, List.of()), false, null).get(ReportArtifact.CAPSTREAM_KEY);
        assertFalse(none.has("workers"), "null workers (imports) are left out");
        assertFalse(none.has("clock_offset_spread_ms"), "a null spread is left out");
    }
}
