package io.capstream.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTableTest {
    private static Path shared() {
        return SharedDir.get();
    }

    @Test
    void rendersTheSeedArtifact() throws Exception {
        JsonNode seed = ArtifactJson.read(shared().resolve("corpus/seed-example.json"));
        String t = SummaryTable.render(seed);
        // seed (spec §8.1): e2e p50 664.3758000573143, p95 747.0614000922069
        assertTrue(t.contains("E2E (ms)                            664.4          747.1"), t);
        assertTrue(t.contains("protocol          " + seed.path("measurement_protocol").asText()), t);
        assertTrue(t.contains("completed " + seed.path("completed").asInt()), t);
    }

    @Test
    void listsFailuresAndShowsDashesForNulls() throws Exception {
        JsonNode a = ArtifactJson.parse("{\"run_id\":\"r\",\"requests\":2,\"completed\":0,\"failed\":2,\"metrics\":"
                + "{\"ttft_p50_ms\":null,\"throughput_tok_s\":0.0},\"failures\":[{\"request_index\":0,"
                + "\"error_type\":\"URLError\",\"error_message\":\"<urlopen error [Errno 111] Connection refused>\"},"
                + "{\"request_index\":1,\"error_type\":\"HTTPError\",\"error_message\":\"HTTP Error 500: Internal Server Error\"}]}");
        String t = SummaryTable.render(a);
        assertTrue(t.contains("TTFT (ms)                               -              -"), t);
        assertTrue(t.contains("#0     URLError        <urlopen error [Errno 111] Connection refused>"), t);
        assertTrue(t.contains("#1     HTTPError       HTTP Error 500"), t);
        assertTrue(t.contains("throughput        0.0 tok/s"), t);
    }

    @Test
    void showsTheClientSelfCheckAndSaysWhenTheClientMayHaveDistortedTheNumbers() throws Exception {
        String client = "{\"delay_p50_ms\":0.08,\"delay_p99_ms\":7.25,\"delay_max_ms\":31.0,\"cpu_process_ms\":812.4,\"cpu_event_loops_ms\":103.2,"
                + "\"cpu_ms_per_1000_chunks\":6.3,\"gc_pauses\":2,\"gc_pause_max_ms\":0.4,\"in_flight_mean\":15.9,"
                + "\"in_flight_max\":16,\"queue_p99_ms\":0.0,\"warmup_loopback_requests\":2300,"
                + "\"warmup_target_requests\":4,\"event_delivery\":\"deferred\",\"distorted\":%s,\"warnings\":%s}";
        JsonNode bad = ArtifactJson.parse("{\"run_id\":\"r\",\"metrics\":{},\"capstream\":{\"client\":"
                + String.format(client, "true", "[\"event-loop delay p99 7.2 ms > 5 ms: chunks may have been"
                + " timestamped up to that late\",\"GC paused the client for up to 6.0 ms\"]") + "}}");
        String t = SummaryTable.render(bad);
        assertTrue(t.contains("client check      loop delay p50 0.1 / p99 7.3 / max 31.0 ms, CPU process 812 ms, event"
                + " loops 103 ms (6.3 per 1,000 chunks), GC pauses 2 (max 0.4 ms)"), t);
        assertTrue(t.contains("achieved concurrency 15.9 (max 16), client queue before t0 p99 0.0 ms, warm-up 2,300"
                + " loopback + 4 target requests, events deferred"), t);
        assertTrue(t.contains("warning: the client may have distorted these numbers: event-loop delay p99 7.2 ms > 5 ms:"
                + " chunks may have been timestamped up to that late; GC paused the client for up to 6.0 ms\n"), t);
        JsonNode good = ArtifactJson.parse("{\"run_id\":\"r\",\"metrics\":{},\"capstream\":{\"client\":"
                + String.format(client, "false", "[]") + "}}");
        assertTrue(SummaryTable.render(good).contains("client check"));
        assertTrue(!SummaryTable.render(good).contains("warning:"), "no warning line for a clean self-check");
        assertTrue(!SummaryTable.render(ArtifactJson.parse("{\"run_id\":\"r\",\"metrics\":{}}")).contains("client check"),
                "imports have no self-check");
    }

    @Test
    void outputPathChecks(@TempDir Path tmp) throws Exception {
        assertNull(OutputPath.check(tmp.resolve("r.json").toString()));
        assertNotNull(OutputPath.check(tmp.resolve("nope/r.json").toString()));
        assertNotNull(OutputPath.check(tmp.toString()));
        Path link = tmp.resolve("link.json");
        Files.createSymbolicLink(link, tmp.resolve("target.json"));
        assertTrue(OutputPath.check(link.toString()).contains("symlink"));
        assertEquals(Path.of("capstream-report-benchmark-x.json"), OutputPath.resolve(null, "benchmark-x"));
        assertEquals(Path.of("out.json"), OutputPath.resolve("out.json", "benchmark-x"));
    }
}
