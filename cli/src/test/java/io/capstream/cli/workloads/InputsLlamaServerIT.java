package io.capstream.cli.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.LlamaServer;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's embeddings and rerank runs against a real engine: llama.cpp's llama-server (random-weight 20m model, two
 * slots, {@code --metrics}) started with {@code --embeddings --pooling mean}, and with {@code --reranking}. The
 * issue's check: 40 of 40 requests complete and the report has {@code capstream.statistics.inputs_per_s}; and the
 * input tokens the client read from each answer's usage add up to what llama-server itself counted over the run
 * (the increase of {@code llamacpp:prompt_tokens_total}, scraped by the run). Skipped when llama-server is not built
 * on this machine.
 */
class InputsLlamaServerIT {
    private static final int REQUESTS = 40;
    private static final int BATCH = 2;
    /** Small inputs, so that 80 of them take seconds on one thread of a shared machine. */
    private static final List<String> CHECK = List.of("--model", "random-llama-20m", "--requests",
            Integer.toString(REQUESTS), "--batch", Integer.toString(BATCH), "--ctx-tokens", "64", "--concurrency", "2",
            "--client-warmup", "0");

    @TempDir
    Path tmp;

    @Test
    @Timeout(600)
    void embeddingsRunCompletesEveryRequestAndCountsTheServersInputTokens() throws Exception {
        check("embeddings", "--embeddings", "--pooling", "mean");
    }

    @Test
    @Timeout(600)
    void rerankRunCompletesEveryRequestAndCountsTheServersInputTokens() throws Exception {
        check("rerank", "--reranking");
    }

    private void check(String endpoint, String... serverArgs) throws Exception {
        assumeTrue(LlamaServer.binary() != null && LlamaServer.model() != null,
                "llama-server is not built here (peers llama-server.sh build, or set CAPSTREAM_LLAMA_SERVER and"
                        + " CAPSTREAM_LLAMA_MODEL)");
        List<String> server = new ArrayList<>(List.of("--metrics", "-np", "2"));
        server.addAll(List.of(serverArgs));
        try (LlamaServer llama = LlamaServer.start(tmp, server.toArray(String[]::new))) {
            Path out = tmp.resolve(endpoint + ".json");
            List<String> args = new ArrayList<>(List.of("run", "--base-url", llama.url("/v1"), "--endpoint", endpoint,
                    "--server-metrics", llama.url("/metrics"), "--output", out.toString()));
            args.addAll(CHECK);
            int code = CapstreamMain.execute(args.toArray(String[]::new));
            String log = llama.log();
            assertThat(code).as("exit code of run --endpoint %s; llama-server's log ends:%n%s", endpoint,
                    log.substring(Math.max(0, log.length() - 2000))).isZero();
            JsonNode report = ArtifactJson.read(out);
            assertThat(report.path("completed").asInt()).as("%s: completed (failures: %s)", endpoint,
                    report.path("failures")).isEqualTo(REQUESTS);
            assertThat(report.path("failed").asInt()).as("%s: failed", endpoint).isZero();
            JsonNode stats = report.path("capstream").path("statistics");
            assertThat(stats.path("inputs_per_s").isNumber()).as("%s: capstream.statistics %s", endpoint, stats)
                    .isTrue();
            assertThat(stats.path("request_latency_ms").path("count").asInt()).as("%s: request latency %s", endpoint,
                    stats).isEqualTo(REQUESTS);
            double wallS = report.path("wall_clock_ms").asDouble() / 1000;
            assertThat(stats.path("inputs_per_s").asDouble() * wallS).as("%s: inputs/s x wall clock", endpoint)
                    .isCloseTo(REQUESTS * BATCH, org.assertj.core.data.Offset.offset(0.01));
            long clientTokens = Math.round(stats.path("input_tokens_per_s").asDouble() * wallS);
            JsonNode prompt = report.path("capstream").path("server_metrics").path("series").path("prompt_tokens");
            long serverTokens = Math.round(prompt.path("increase").asDouble(-1));
            System.out.printf(Locale.ROOT, "%-10s %d requests x %d inputs | client: request latency p50 %.1f / p95 %.1f"
                            + " / p99 %.1f ms, %.2f inputs/s, %.1f input tok/s, %d input tokens | llama-server:"
                            + " prompt_tokens_total +%d, prompt_seconds_total +%.2f s%n", endpoint, REQUESTS, BATCH,
                    stats.path("request_latency_ms").path("p50").asDouble(),
                    stats.path("request_latency_ms").path("p95").asDouble(),
                    stats.path("request_latency_ms").path("p99").asDouble(), stats.path("inputs_per_s").asDouble(),
                    stats.path("input_tokens_per_s").asDouble(), clientTokens, serverTokens,
                    report.path("capstream").path("server_metrics").path("series")
                            .path("llamacpp:prompt_seconds_total").path("increase").asDouble());
            assertThat(clientTokens).as("%s: input tokens from usage (input_tokens_per_s x wall) against llama-server's"
                    + " prompt_tokens_total increase %s", endpoint, prompt).isEqualTo(serverTokens);
            assertThat(Files.size(out)).as("report file").isPositive();
        }
    }
}
