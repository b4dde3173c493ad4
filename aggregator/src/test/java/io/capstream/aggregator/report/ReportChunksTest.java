package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.HttpPhases;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Splitting a computed report into bounded records, and putting the artifact back together. */
class ReportChunksTest {
    private static BenchmarkReport computed(String runId, int n) {
        List<RunEvent> run = TestRuns.run(runId, n);
        List<RequestCompleted> completed = run.subList(1, n + 1).stream().map(e -> (RequestCompleted) e.getPayload())
                .toList();
        return ReportCalculator.compute(new RunData(runId, (RunStarted) run.get(0).getPayload(), completed, List.of(),
                (RunFinished) run.get(n + 1).getPayload(), null));
    }

    /** Encoded size as the reports sink writes it (Confluent wire format). */
    private static int serialized(BenchmarkReport r) {
        return SpecificAvroSerde.forValue(BenchmarkReport.class, "mock://chunks-test").serializer()
                .serialize("capstream.reports", r).length;
    }

    @Test
    void aSmallReportStaysOneRecordWithItsRows() {
        BenchmarkReport full = computed("small", 20);
        ReportChunks.Publication p = ReportChunks.publication(full);
        assertFalse(p.chunked());
        BenchmarkReport r = p.report();
        assertEquals(full.getArtifactJson(), r.getArtifactJson());
        assertEquals(20, r.getRequestTimings().size());
        assertEquals(0, r.getArtifactChunks());
        assertEquals(full.getArtifactJson().length(), r.getArtifactBytes());
        assertEquals(64, r.getArtifactSha256().length());
        assertEquals(serialized(r), p.reportRecordBytes());
        assertEquals(0, p.largestChunkBytes());
        assertEquals(0, full.getArtifactChunks(), "the argument is not modified");
        assertNull(full.getArtifactSha256());
    }

    @Test
    void aLargeReportIsASummaryAndChunksThatGiveBackTheArtifactInAnyOrder() {
        BenchmarkReport full = computed("large", 2_000);
        String artifact = full.getArtifactJson();
        ReportChunks.Publication p = ReportChunks.publication(full);
        assertTrue(p.chunked());
        BenchmarkReport summary = p.report();
        int expectedChunks = (artifact.length() + ReportChunks.CHUNK_BYTES - 1) / ReportChunks.CHUNK_BYTES;
        assertEquals(expectedChunks, summary.getArtifactChunks());
        assertEquals(expectedChunks, p.chunks().size());
        assertEquals("", summary.getArtifactJson());
        assertEquals(List.of(), summary.getRequestTimings());
        assertEquals(List.of(), summary.getFailures());
        assertNull(summary.getContextDistribution());
        assertNull(summary.getTimeline(), "the timeline grows with the requests: it is in the artifact only");
        assertEquals(2_000, full.getTimeline().getRequestIndex().size());
        assertEquals(full.getMetrics(), summary.getMetrics());
        assertEquals(full.getProvenance(), summary.getProvenance());
        assertEquals(2_000, summary.getCompleted());
        assertEquals(artifact.length(), summary.getArtifactBytes());
        assertEquals(serialized(summary), p.reportRecordBytes());
        assertTrue(p.reportRecordBytes() < 4096, p.reportRecordBytes() + " bytes");
        assertTrue(p.largestChunkBytes() > ReportChunks.CHUNK_BYTES && p.largestChunkBytes() < ReportChunks.CHUNK_BYTES + 200,
                p.largestChunkBytes() + " bytes");
        assertEquals(2_000, full.getRequestTimings().size(), "the argument is not modified");

        List<ReportChunk> shuffled = new ArrayList<>(p.chunks());
        Collections.shuffle(shuffled, new Random(7));
        ReportChunks.Assembly a = ReportChunks.Assembly.forChunk(shuffled.get(0));
        for (ReportChunk c : shuffled) {
            assertFalse(a.complete());
            assertTrue(a.add(c));
        }
        assertTrue(a.complete());
        assertFalse(a.add(shuffled.get(0)), "a duplicate is refused");
        assertEquals(artifact, a.text());
        assertEquals(artifact, a.text(), "text() leaves the chunks as they were");
        assertEquals(artifact, ReportChunks.withArtifact(summary, a.text()).getArtifactJson());
    }

    @Test
    void aLargeConversationReportKeepsItsSessionsSummaryButNotThePerRequestColumns() {
        int n = 2_000;
        List<RunEvent> run = TestRuns.run("large-conv", n);
        List<RequestCompleted> completed = new ArrayList<>();
        for (RunEvent e : run.subList(1, n + 1)) {
            RequestCompleted c = (RequestCompleted) e.getPayload();
            completed.add(RequestCompleted.newBuilder(c).setConversationId("large-conv-c" + c.getRequestIndex() / 4)
                    .setTurn(c.getRequestIndex() % 4 + 1).setOutputKind("text").setToolCalls(0).build());
        }
        BenchmarkReport full = ReportCalculator.compute(new RunData("large-conv", (RunStarted) run.get(0).getPayload(),
                completed, List.of(), (RunFinished) run.get(n + 1).getPayload(), null));
        ReportChunks.Publication p = ReportChunks.publication(full);

        assertThat(p.chunked()).as("a 2,000-request report is chunked").isTrue();
        assertThat(p.report().getSessions().getConversations()).as("summary record's sessions.conversations")
                .isEqualTo(500);
        assertThat(p.report().getSessions().getByTurn()).as("summary record's by_turn").hasSize(4);
        assertThat(p.report().getSessions().getPerRequest()).as("summary record's per_request (in the artifact)")
                .isNull();
        assertThat(full.getSessions().getPerRequest().getTurn()).as("the argument keeps its per-request turns")
                .hasSize(n);
        assertThat(p.reportRecordBytes()).as("summary record bytes").isLessThan(4096);
    }

    /** Issue 30: a 20,000-request run's per-request HTTP phases made its summary record too large for the broker. */
    @Test
    void aLargeReportKeepsItsHttpPhasePercentilesButNotThePerRequestPhases() {
        int n = 20_000;
        List<RunEvent> run = TestRuns.run("large-phases", n);
        List<RequestCompleted> completed = new ArrayList<>();
        for (RunEvent e : run.subList(1, n + 1)) {
            RequestCompleted c = (RequestCompleted) e.getPayload();
            HttpPhases phases = HttpPhases.newBuilder().setConnectionReused(false).setBlockedNs(100_000).setDnsNs(0)
                    .setConnectNs(300_000 + c.getRequestIndex()).setTlsNs(0).setSentNs(500_000)
                    .setHeadersNs(20_000_000).setFirstChunkNs(20_100_000).build();
            completed.add(RequestCompleted.newBuilder(c).setHttpPhases(phases).build());
        }
        BenchmarkReport full = ReportCalculator.compute(new RunData("large-phases",
                (RunStarted) run.get(0).getPayload(), completed, List.of(), (RunFinished) run.get(n + 1).getPayload(),
                null));
        ReportChunks.Publication p = ReportChunks.publication(full);

        assertThat(p.chunked()).as("a 20,000-request report is chunked").isTrue();
        assertThat(p.report().getStatistics().getHttpPhases().getRequests()).as("summary record's phase count")
                .isEqualTo(n);
        assertThat(p.report().getStatistics().getHttpPhases().getHttpReqWaitingMs()).as("its waiting percentiles")
                .isNotNull();
        assertThat(p.report().getStatistics().getHttpPhases().getPerRequest())
                .as("per-request phases (in the artifact)").isNull();
        assertThat(full.getStatistics().getHttpPhases().getPerRequest().getRequestIndex())
                .as("the argument keeps its per-request phases").hasSize(n);
        assertThat(p.reportRecordBytes()).as("summary record bytes").isLessThan(ReportChunks.MAX_RECORD_BYTES);
    }

    /**
     * Issue 33: a 20,000-request run whose responses carried server timings made a summary record of 2.3 MB without
     * its rows (the per-request server view), more than the broker accepts (RunCommandIT, fresh-clone CI).
     */
    @Test
    void aLargeReportKeepsItsServerTtftPercentilesButNotThePerRequestServerView() {
        int n = 20_000;
        List<RunEvent> run = TestRuns.run("large-server-view", n);
        List<RequestCompleted> completed = new ArrayList<>();
        for (RunEvent e : run.subList(1, n + 1)) {
            RequestCompleted c = (RequestCompleted) e.getPayload();
            io.capstream.schemas.avro.ServerView v = io.capstream.schemas.avro.ServerView.newBuilder()
                    .setRequestId("benchmark-20261205T160911Z-" + c.getRequestIndex())
                    .setTraceId(String.format("%032x", c.getRequestIndex()))
                    .setResponseId("chatcmpl-" + "x".repeat(32) + c.getRequestIndex()).setPromptMs(12.5)
                    .setServerTtftMs(12.5).setServerTtftSource("timings.prompt_ms").build();
            completed.add(RequestCompleted.newBuilder(c).setServerView(v).build());
        }
        BenchmarkReport full = ReportCalculator.compute(new RunData("large-server-view",
                (RunStarted) run.get(0).getPayload(), completed, List.of(), (RunFinished) run.get(n + 1).getPayload(),
                null));
        ReportChunks.Publication p = ReportChunks.publication(full);

        assertThat(p.chunked()).as("a 20,000-request report is chunked").isTrue();
        assertThat(p.report().getStatistics().getServerTtftMs().getCount()).as("summary record's server TTFT count")
                .isEqualTo(n);
        assertThat(p.report().getStatistics().getServerView()).as("per-request server view (in the artifact)")
                .isNull();
        assertThat(full.getStatistics().getServerView().getRequestIndex())
                .as("the argument keeps its per-request server view").hasSize(n);
        assertThat(p.reportRecordBytes()).as("summary record bytes").isLessThan(ReportChunks.MAX_RECORD_BYTES);
    }

    @Test
    void chunksOfAnotherPublicationAreRefusedAndAForgedChunkFailsTheDigest() {
        BenchmarkReport full = computed("forged", 1_500);
        List<ReportChunk> chunks = ReportChunks.publication(full).chunks();
        ReportChunks.Assembly a = ReportChunks.Assembly.forChunk(chunks.get(0));
        ReportChunk other = ReportChunk.newBuilder(chunks.get(0)).setArtifactSha256("0".repeat(64)).build();
        assertFalse(a.add(other), "another digest");
        assertFalse(a.add(ReportChunk.newBuilder(chunks.get(0)).setRunId("elsewhere").build()), "another run");
        assertThrows(IllegalStateException.class, a::text, "incomplete");
        byte[] bad = new byte[chunks.get(0).getData().remaining()];
        ReportChunk forged = ReportChunk.newBuilder(chunks.get(0)).setData(ByteBuffer.wrap(bad)).build();
        assertTrue(a.add(forged));
        for (ReportChunk c : chunks.subList(1, chunks.size())) {
            a.add(c);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, a::text);
        assertThat(e.getMessage()).contains("SHA-256");
        assertEquals("forged|3", ReportChunks.chunkKey("forged", 3));
    }

    @Test
    void aSummaryThatWouldStillBeTooLargeIsRefused() {
        BenchmarkReport full = computed("huge-labels", 10);
        full.setModel("m".repeat(ReportChunks.MAX_RECORD_BYTES));
        ReportChunks.ReportTooLargeException e = assertThrows(ReportChunks.ReportTooLargeException.class,
                () -> ReportChunks.publication(full));
        assertThat(e.getMessage()).contains("huge-labels");
    }

    @Test
    void theLargestAllowedRunFitsWithMargin() {
        // 100,000 rows, every request missing from the provenance list would be the largest summary
        BenchmarkReport full = computed("bound", 2);
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            missing.add(i);
        }
        full.getProvenance().setMissingRequestIndices(missing);
        full.setArtifactJson("x".repeat(ReportChunks.INLINE_RECORD_BYTES + 1));
        ReportChunks.Publication p = ReportChunks.publication(full);
        assertTrue(p.chunked());
        assertTrue(p.reportRecordBytes() < 400_000, p.reportRecordBytes() + " bytes");
        assertEquals(3, p.chunks().size());
        assertEquals(1, p.chunks().get(2).getData().remaining());
        assertEquals(ReportChunks.INLINE_RECORD_BYTES + 1L, p.report().getArtifactBytes());
    }
}
