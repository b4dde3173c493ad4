package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportKind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report files for {@code capstream report} and {@code compare}: typed back from the artifact, or refused. */
class ReportSourcesTest {
    @TempDir
    Path tmp;

    @Test
    void aReportFileGivesTheTypedReportTheSummaryPrints() throws Exception {
        Path file = Files.writeString(tmp.resolve("r.json"), ("{'schema':'anvil-serving.benchmark/v1','run_id':'r-1',"
                + "'base_url':'http://h/v1','model':'m','requests':3,'completed':2,'failed':1,'concurrency':2,"
                + "'max_tokens':8,'wall_clock_ms':1500.0,'metrics':{'ttft_p50_ms':12.5,'throughput_tok_s':40.0},"
                + "'failures':[{'request_index':1,'error_type':'HTTPError','error_message':'HTTP 500'}],"
                + "'request_timings':[],"
                + "'capstream':{'kind':'REPLAY','replay_of':'r-0','complete':true,'run_finished_seen':true,"
                + "'statistics':{'ttft_ms':{'count':2,'p99':20.0},'request_throughput_rps':1.25},"
                + "'client':{'delay_p50_ms':0.5}}}").replace('\'', '"'));
        assertTrue(ReportSources.isFile(file.toString()));
        ReportSources.Found f = ReportSources.fromFile(file);
        BenchmarkReport r = f.report();
        assertEquals("r-1", r.getRunId());
        assertEquals(1, r.getFailed());
        assertEquals(12.5, r.getMetrics().getTtftP50Ms());
        assertNull(r.getMetrics().getTtftP95Ms());
        assertEquals(ReportKind.REPLAY, r.getProvenance().getKind());
        assertEquals("r-0", r.getProvenance().getReplayOf());
        assertEquals(20.0, r.getStatistics().getTtftMs().getP99());
        assertEquals(1.25, r.getStatistics().getRequestThroughputRps());
        assertEquals(0L, r.getStatistics().getE2eMs().getCount(), "a missing distribution is a record of zeros");
        assertEquals("HTTP 500", r.getFailures().get(0).getErrorMessage());
        assertEquals(0.5, ArtifactRecords.clientCheck(f.artifact()).getDelayP50Ms());
        String summary = SummaryTable.render(r, ArtifactRecords.clientCheck(f.artifact()));
        assertThat(summary).contains("run               r-1");
        assertThat(summary).contains("#1     HTTPError       HTTP 500");
    }

    @Test
    void theSeedArtifactWithoutCapstreamKeysIsAReportToo() throws Exception {
        Path seed = Path.of(System.getProperty("capstream.testdata.dir", "../testdata"), "corpus", "seed-example.json");
        BenchmarkReport r = ReportSources.fromFile(seed).report();
        assertEquals(10, r.getRequestTimings().size());
        assertNull(r.getStatistics());
        assertThat(SummaryTable.render(r, null)).contains("TTFT (ms)");
    }

    @Test
    void filesThatAreNoReportsAreRefusedInOneLine() throws Exception {
        Path notJson = Files.writeString(tmp.resolve("x.json"), "not json");
        Path other = Files.writeString(tmp.resolve("o.json"), "{\"schema\":\"other\"}");
        String m1 = assertThrows(ReportSources.NotFound.class, () -> ReportSources.fromFile(notJson)).getMessage();
        assertThat(m1).startsWith(notJson + ": cannot read a report (");
        assertThat(m1).doesNotContain("\n");
        assertEquals(other + ": not a report artifact (schema is not anvil-serving.benchmark/v1)",
                assertThrows(ReportSources.NotFound.class, () -> ReportSources.fromFile(other)).getMessage());
        assertFalse(ReportSources.isFile("benchmark-20261201T000000Z"));
    }
}
