package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.capstream.cli.testing.CapturedConsole;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream sweep} end to end on the embedded stack and the built-in simulated engine (issue
 * 12, parts 1-2): the sim has 8 batch slots, so from 9 concurrent requests on some queue for a slot
 * and TTFT p95 exceeds 450 ms; both the grid and the search must find 8, the search in at most 8
 * steps. Needs the aggregator's report statistics/SLO evaluation and its sweep topology.
 */
class SweepIT {
    /**
     * The workload: 32 requests per step, fixed 256-token contexts, 32 output tokens, no shared prefix. The
     * SLO lies between the two TTFTs the sim's timers make: about 60 ms with a free slot, and, waiting for a slot,
     * at least the slot holder's 31 more tokens at the sim's 60 tok/s per stream (517 ms) on top, about 620 ms. A
     * loaded machine's delays only lengthen the waiting ones; the free ones may take 390 ms of them (300 ms left 240).
     */
    private static final List<String> WORKLOAD = List.of("--requests", "32", "--ctx-tokens", "256", "--max-tokens", "32",
            "--shared-prefix-tokens", "0", "--sim-slots", "8", "--slo", "ttft_p95_ms<=450");

    @TempDir
    Path tmp;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    private String out() {
        return console.out();
    }

    private String err() {
        return console.err();
    }

    private int sweep(Path dir, String sweepId, String... axis) {
        List<String> args = new ArrayList<>(List.of("sweep", "--output-dir", dir.toString(), "--sweep-id", sweepId));
        args.addAll(List.of(axis));
        args.addAll(WORKLOAD);
        return CapstreamMain.execute(args.toArray(String[]::new));
    }

    /** Checks sweep.json, sweep.csv and the step reports; returns sweep.json. */
    private JsonNode assertOutputs(Path dir, String sweepId, String mode) throws Exception {
        JsonNode sweep = ArtifactJson.read(dir.resolve("sweep.json"));
        assertEquals(sweepId, sweep.path("sweep_id").asText(), sweep.toString());
        assertEquals("concurrency", sweep.path("axis").asText());
        assertEquals(mode, sweep.path("mode").asText());
        assertEquals(8, sweep.path("max_load_meeting_slos").path("concurrency").asInt(), sweep.toString());
        JsonNode points = sweep.path("points");
        for (int i = 0; i < points.size(); i++) {
            JsonNode p = points.get(i);
            String runId = sweepId + "-s" + (i + 1);
            assertEquals(i + 1, p.path("step").asInt());
            assertEquals(runId, p.path("run_id").asText());
            JsonNode report = ArtifactJson.read(dir.resolve(runId + ".json"));
            assertEquals(runId, report.path("run_id").asText());
            assertEquals(32, report.path("completed").asInt());
            JsonNode step = report.path("capstream").path("sweep");
            assertEquals(sweepId, step.path("sweep_id").asText(), step.toString());
            assertEquals(i + 1, step.path("step").asInt());
            assertEquals(p.path("load").asDouble(), step.path("value").asDouble());
            assertTrue(report.path("capstream").path("slo").has("met_all"), report.path("capstream").toString());
        }
        try (var files = Files.list(dir)) {
            long reports = files.filter(f -> f.getFileName().toString().startsWith(sweepId + "-s")).count();
            assertEquals(points.size(), reports, "one report per step");
        }
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertEquals(points.size() + 1, csv.size(), "a header and one row per step: " + csv);
        for (int i = 1; i <= points.size(); i++) {
            assertThat(err()).contains("capstream sweep: step " + i);
        }
        assertThat(out()).contains("max load meeting SLOs: concurrency 8 (step ");
        return sweep;
    }

    @Test
    @Timeout(300)
    void aGridFindsTheLargestConcurrencyMeetingTheSlo() throws Exception {
        Path dir = tmp.resolve("grid");
        int code = sweep(dir, "grid-it", "--concurrency", "1,2,4,8,16,32");
        assertEquals(0, code, err());
        JsonNode sweep = assertOutputs(dir, "grid-it", "grid");
        assertEquals(6, sweep.path("points").size());
        assertEquals(6, sweep.path("steps_planned").asInt());
        assertThat(err()).contains("capstream sweep: step 6/6 concurrency 32: TTFT p95 ");
        // start-up is paid once: one embedded broker and one aggregator for the whole sweep
        assertEquals(1, err().split("capstream: embedded Kafka at ", -1).length - 1, err());
        assertEquals(1, err().split("capstream: client warm-up: ", -1).length - 1, "warm-up before step 1 only");
        // issue 26.1: every step re-sent step 1's prompts, so the sim's prefix-cache hit went to ~100 % after step 1
        // and the curve showed the cache, not the load; each step now has a prompt salt of its own
        double first = stepReport(dir, "grid-it", 1).path("metrics").path("prefix_cache_hit_avg").asDouble(-1);
        java.util.Set<String> salts = new java.util.HashSet<>();
        for (int step = 1; step <= 6; step++) {
            JsonNode report = stepReport(dir, "grid-it", step);
            double hit = report.path("metrics").path("prefix_cache_hit_avg").asDouble(-1);
            assertTrue(hit >= 0 && Math.abs(hit - first) <= 0.15, "step " + step + " prefix-cache hit " + hit
                    + " against step 1's " + first);
            salts.add(report.path("capstream").path("run").path("prompt_salt").asText());
        }
        assertEquals(6, salts.size(), "a salt per step: " + salts);
    }

    private static JsonNode stepReport(Path dir, String sweepId, int step) throws Exception {
        return ArtifactJson.read(dir.resolve(sweepId + "-s" + step + ".json"));
    }

    @Test
    @Timeout(300)
    void theSearchFindsEightInAtMostEightStepsAndConfirmsIt() throws Exception {
        Path dir = tmp.resolve("search");
        int code = sweep(dir, "search-it", "--search", "concurrency");
        assertEquals(0, code, err());
        JsonNode sweep = assertOutputs(dir, "search-it", "search");
        JsonNode points = sweep.path("points");
        assertTrue(points.size() <= 8, "search steps: " + points);
        JsonNode last = points.get(points.size() - 1);
        assertTrue(last.path("repeat").asBoolean(), last.toString());
        assertEquals(8, last.path("load").asInt(), last.toString());
        assertThat(err()).contains("capstream sweep: search: concurrency 8 met the SLOs twice");
    }
}
