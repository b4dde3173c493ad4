package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.CapturedConsole;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --trace} end to end (issue 15 part 5) against the built-in simulated engine, whose prefix cache sees
 * the trace's shared blocks: each line is scheduled at its timestamp's offset with its lengths, the report names
 * the trace and its arrival, and lines with equal leading hash ids hit the engine's prefix cache.
 */
class RunTraceIT {
    private static final Path TRACE = Path.of("src/test/resources/traces/mooncake-small.jsonl");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void aTraceIsSentAtItsTimestampsWithItsLengthsAndSharedPrefixes() throws Exception {
        Path report = tmp.resolve("trace.json");
        assertEquals(0, CapstreamMain.execute("run", "--trace", TRACE.toString(), "--max-model-len", "8192",
                "--shared-prefix-tokens", "0", "--client-warmup", "0", "--server-metrics", "off", "--output",
                report.toString()), console.err());
        JsonNode a = ArtifactJson.read(report);
        assertEquals(5, a.path("completed").asInt());
        JsonNode run = a.path("capstream").path("run");
        assertEquals("trace", run.path("arrival").asText());
        assertEquals("mooncake-small.jsonl", run.path("dataset_name").asText());
        // scheduled = start - client queue: exactly the trace's offsets
        JsonNode t = a.path("capstream").path("timeline");
        double[] offsets = {0, 100, 600.5, 1400, 1450};
        for (int i = 0; i < 5; i++) {
            double scheduled = t.path("start_ms").get(i).asDouble() - t.path("queue_ms").get(i).asDouble();
            assertEquals(offsets[i], scheduled, 1.0, "request " + i + " scheduled at its line's offset");
        }
        int[] output = {8, 4, 12, 8, 2};
        int[] planned = {1200, 1300, 600, 1200, 300};
        for (int i = 0; i < 5; i++) {
            JsonNode r = a.path("request_timings").get(i);
            assertEquals(output[i], r.path("output_tokens").asInt(), "max_tokens = output_length, request " + i);
            assertEquals(planned[i], r.path("planned_context_tokens").asInt(), "input_length, request " + i);
        }
        // lines 2 and 4 repeat blocks of line 1: the engine's prefix cache served part of their prompts
        assertThat(console.out()).contains("prefix cache hit");
        assertThat(console.out()).doesNotContain("prefix cache hit  0.0 %");
    }

    @Test
    @Timeout(60)
    void aTraceWithArrivalOptionsOrASecondSourceOfPromptsIsAUsageError() {
        assertEquals(2, CapstreamMain.execute("run", "--trace", TRACE.toString(), "--rate", "5"));
        assertThat(console.err()).contains("--rate does not apply to --trace");
        assertEquals(2, CapstreamMain.execute("run", "--trace", TRACE.toString(), "--dataset", TRACE.toString()));
        assertThat(console.err()).contains("--trace cannot be combined with --dataset");
        assertEquals(2, CapstreamMain.execute("run", "--arrival", "trace"));
        assertThat(console.err()).contains("--arrival trace needs --trace FILE");
        assertEquals(2, CapstreamMain.execute("sweep", "--trace", TRACE.toString(), "--concurrency", "1,2"));
        assertThat(console.err()).contains("--trace does not apply to a sweep");
    }
}
