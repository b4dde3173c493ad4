package io.capstream.cli.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream run --dataset} end to end against the simulated engine: the requests send the dataset's
 * messages (the engine's prompt token counts are those of the entries' text) and their own max_tokens, and
 * the report records the dataset's name and SHA-256.
 */
class RunDatasetIT {
    private static final Path DATASET = Path.of("src/test/resources/datasets/chat.jsonl");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private PrintStream oldErr;

    @BeforeEach
    void captureErr() {
        oldErr = System.err;
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreErr() {
        System.setErr(oldErr);
        oldErr.print(errBytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(120)
    void theRequestsSendTheDatasetsPromptsAndTheReportRecordsTheFile() throws Exception {
        Path report = tmp.resolve("report.json");
        int code = CapstreamMain.execute("run", "--dataset", DATASET.toString(), "--requests", "6", "--concurrency",
                "2", "--max-tokens", "16", "--client-warmup", "0", "--output", report.toString());
        assertEquals(0, code, errBytes.toString(StandardCharsets.UTF_8));
        JsonNode a = ArtifactJson.read(report);
        assertEquals(6, a.path("completed").asInt());
        JsonNode run = a.path("capstream").path("run");
        assertEquals("chat.jsonl", run.path("dataset_name").asText());
        assertEquals("e0c910b99c7c9c712dcc1f719628561193c37adfad6f99a3600be52611556621",
                run.path("dataset_sha256").asText());
        assertEquals(3, run.path("dataset_entries").asInt());
        assertTrue(run.path("tokenizer").isNull(), run.toString());
        // the largest max_tokens any request sent: entry 2's own 40
        assertEquals(40, a.path("max_tokens").asInt());
        List<Integer> prompt = new ArrayList<>();
        List<Integer> completion = new ArrayList<>();
        List<Integer> planned = new ArrayList<>();
        for (JsonNode row : a.path("request_timings")) {
            prompt.add(row.path("prompt_tokens").asInt());
            completion.add(row.path("output_tokens").asInt());
            planned.add(row.path("planned_context_tokens").asInt());
        }
        // request i sends entry i mod 3; the engine counts ceil(chars / 3.4) of the messages' text: 39 chars
        // (system + user message), 23 and 41 chars; a synthetic prompt would have thousands of tokens
        assertEquals(List.of(12, 7, 13, 12, 7, 13), prompt);
        // each entry's own max_tokens (12, none = --max-tokens 16, 40); the engine answers with max_tokens tokens
        assertEquals(List.of(12, 16, 40, 12, 16, 40), completion);
        // the planned context is the entry's prompt tokens by the reference's estimate (3 chars per token)
        assertEquals(List.of(14, 8, 14, 14, 8, 14), planned);
    }

    @Test
    @Timeout(120)
    void inputAndOutputTokensDrawEachRequestsPromptLengthAndMaxTokens() throws Exception {
        Path report = tmp.resolve("lengths.json");
        int code = CapstreamMain.execute("run", "--input-tokens", "400", "--output-tokens", "20,5", "--seed", "5",
                "--requests", "6", "--concurrency", "2", "--shared-prefix-tokens", "0", "--client-warmup", "0",
                "--output", report.toString());
        assertEquals(0, code, errBytes.toString(StandardCharsets.UTF_8));
        JsonNode a = ArtifactJson.read(report);
        assertEquals(6, a.path("completed").asInt());
        int[] drawn = new io.capstream.loadgen.workload.LengthDistribution(20, 5).sample(6, 5,
                io.capstream.loadgen.workload.LengthDistribution.OUTPUT_SALT, 1, 65_536);
        List<Integer> expected = java.util.Arrays.stream(drawn).boxed().toList();
        List<Integer> output = new ArrayList<>();
        for (JsonNode row : a.path("request_timings")) {
            output.add(row.path("output_tokens").asInt());
            assertEquals(400, row.path("planned_context_tokens").asInt(), row.toString());
            // 1,200 characters of synthetic prompt, ceil(1200 / 3.4) by the engine
            assertEquals(353, row.path("prompt_tokens").asInt(), row.toString());
        }
        assertEquals(expected, output);
        assertEquals(java.util.Collections.max(expected), a.path("max_tokens").asInt());
        JsonNode run = a.path("capstream").path("run");
        assertEquals(400.0, run.path("input_tokens_mean").asDouble());
        assertEquals(0.0, run.path("input_tokens_stddev").asDouble());
        assertEquals(20.0, run.path("output_tokens_mean").asDouble());
        assertEquals(5.0, run.path("output_tokens_stddev").asDouble());
        assertTrue(run.path("dataset_name").isNull(), run.toString());
    }
}
