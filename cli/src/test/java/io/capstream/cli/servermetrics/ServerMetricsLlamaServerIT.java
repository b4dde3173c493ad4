package io.capstream.cli.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.LlamaServer;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --server-metrics} against a real engine: llama-server started with {@code --metrics}, two slots. The
 * report carries its own series under their common names, and its counters agree with what the client
 * measured (a server-side truth). Skipped when llama-server is not built on this machine.
 */
class ServerMetricsLlamaServerIT {
    @TempDir
    Path tmp;

    @Test
    @Timeout(180)
    void aRunAgainstLlamaServerWithMetricsReportsItsSeries() throws Exception {
        assumeTrue(LlamaServer.binary() != null && LlamaServer.model() != null,
                "llama-server is not built here (peers llama-server.sh build, or set CAPSTREAM_LLAMA_SERVER and"
                        + " CAPSTREAM_LLAMA_MODEL)");
        try (LlamaServer server = LlamaServer.start(tmp, "--metrics", "-np", "2")) {
            Path report = tmp.resolve("llama.json");
            int code = CapstreamMain.execute("run", "--base-url", server.url("/v1"), "--model", "random-llama-20m",
                    "--server-metrics", server.url("/metrics"), "--requests", "100000", "--duration", "4s",
                    "--concurrency", "2", "--ctx-tokens", "256", "--shared-prefix-tokens", "0", "--max-tokens", "96",
                    "--client-warmup", "0", "--output", report.toString());
            assertEquals(0, code, server.log());
            JsonNode a = ArtifactJson.read(report);
            JsonNode sm = a.path("capstream").path("server_metrics");
            assertEquals(server.url("/metrics"), sm.path("url").asText());
            assertEquals(0, sm.path("failed_scrapes").asInt(), sm.path("first_error").asText());
            JsonNode series = sm.path("series");
            assertTrue(series.size() >= 3, "series: " + series.size());
            for (String name : new String[] {"requests_running", "requests_waiting", "generation_tokens", "prompt_tokens"}) {
                assertTrue(series.has(name), name + " in " + series.fieldNames());
            }
            assertEquals("llamacpp:requests_processing", series.path("requests_running").path("source").asText());
            // scrapes come every 1,000 ms (plus the baseline before T0 and one when the slowest request ended): the
            // run is bound by time (--duration 4s, requests start until then), so that scrapes land while it runs
            // however fast the machine (a run bound by its count did not: 12 requests ran in under a second on CI)
            JsonNode running = series.path("requests_running");
            String seen = a.path("completed").asInt() + " requests in " + a.path("wall_clock_ms").asDouble()
                    + " ms; scrapes at t_ms " + sm.path("t_ms") + " saw " + running.path("values");
            assertTrue(sm.path("scrapes").asInt() >= 4, "at least two scrapes during the run; " + seen);
            assertTrue(running.path("max").asDouble() >= 1 && running.path("max").asDouble() <= 2,
                    "2 slots, 2 streams: 1 or 2 running while the run ran; " + seen);
            // the engine's own token counter moved by what the run's requests generated (usage.completion_tokens)
            long output = 0;
            for (JsonNode r : a.path("request_timings")) {
                output += r.path("output_tokens").asLong();
            }
            JsonNode gen = series.path("generation_tokens");
            assertEquals(output, gen.path("last").asLong() - gen.path("min").asLong(),
                    "llamacpp:tokens_predicted_total rose by the run's output tokens");
            assertEquals(output, gen.path("increase").asLong(), "the report's increase is that rise");
        }
    }
}
