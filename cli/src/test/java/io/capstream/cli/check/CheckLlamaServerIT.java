package io.capstream.cli.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.cli.testing.LlamaServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstream check --json} against llama.cpp's {@code llama-server} (skipped when this machine has none): it is
 * measurable, with llama.cpp's stream facts found (role chunk first, reasoning_content by default that
 * enable_thinking false turns off, usage when asked, cached tokens on the repeated prompt, its timings, a clean 400
 * for an oversize prompt whose message states the window, the window from /models' meta.n_ctx).
 */
class CheckLlamaServerIT {
    @TempDir
    Path dir;

    @Test
    void llamaServerIsMeasurableAndItsStreamFactsAreFound() throws Exception {
        Assumptions.assumeTrue(LlamaServer.binary() != null && LlamaServer.model() != null,
                "llama-server or its model is not on this machine");
        try (LlamaServer server = LlamaServer.start(dir, "--metrics")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());
            int exit = new CommandLine(new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    System.err, env::get)).execute("--base-url", server.url("/v1"), "--model", "random-llama-20m",
                    "--json");
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(exit).as("exit, output %s", text).isZero();
            JsonNode j = new ObjectMapper().readTree(text);
            int findings = 0;
            for (var it = j.fields(); it.hasNext();) {
                if (it.next().getValue().has("verdict")) {
                    findings++;
                }
            }
            assertThat(findings).as("findings in %s", text).isGreaterThanOrEqualTo(8);
            assertThat(j.path("streaming").path("value").asText()).as("streaming").isEqualTo("sse");
            assertThat(j.path("role_chunk_first").path("value").asText()).as("role first").isEqualTo("yes");
            assertThat(j.path("usage_when_asked").path("value").asText()).as("usage").isEqualTo("yes");
            assertThat(j.path("reasoning_field").path("value").asText()).as("reasoning field")
                    .isEqualTo("reasoning_content");
            assertThat(j.path("thinking_off").path("value").asText()).as("thinking off").isEqualTo("yes");
            assertThat(j.path("prefix_cache").path("value").asText()).as("prefix cache").isEqualTo("visible");
            assertThat(j.path("server_timings").path("value").asText()).as("timings").isEqualTo("yes");
            assertThat(j.path("oversize_prompt").path("value").asText()).as("oversize").isEqualTo("HTTP 400");
            assertThat(j.path("metrics").path("value").asText()).as("metrics with --metrics").isEqualTo("yes");
            // issue 33 (fresh-user pass): the window from /v1/models' meta.n_ctx, so no --max-model-len is implied
            assertThat(j.path("context_window").path("value").asText()).as("window").isEqualTo("4096");
            assertThat(j.path("implied_options").path("value").asText()).as("implied")
                    .doesNotContain("--max-model-len").contains("--no-thinking");
        }
    }
}
