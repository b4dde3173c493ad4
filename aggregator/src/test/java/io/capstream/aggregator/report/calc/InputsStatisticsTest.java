package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunStatistics;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 30: the report of an embeddings or rerank run, whose requests have no first token. */
class InputsStatisticsTest {
    /** An embeddings request as the generator records it: ttft -1, no ttfo, no output, its batch in inputs. */
    private static RequestCompleted embedded(int index, long latencyMs, Long promptTokens, int inputs) {
        return RequestCompleted.newBuilder(ok(index, 0, latencyMs, 0, 0).build())
                .setTtftNs(-1).setTtfoNs(null).setCompletionTokens(null).setContentChunks(0)
                .setPromptTokens(promptTokens).setOutputTokenSource("none").setInputs(inputs).build();
    }

    private static BenchmarkReport report(List<RequestCompleted> ok, List<RequestFailed> failed, long wallNs) {
        return ReportCalculator.compute(new RunData("emb-1", started(ok.size() + failed.size(), 256)
                .setEndpoint("embeddings").setBatch(4).build(), ok, failed, finished(wallNs), null));
    }

    @Test
    void requestLatencyInputsAndInputTokensPerSecondOfTheCompletedRequests() throws Exception {
        BenchmarkReport r = report(List.of(embedded(0, 100, 1000L, 4), embedded(1, 200, 1000L, 4),
                embedded(2, 300, 1000L, 4), embedded(3, 400, 1000L, 4)),
                List.of(Fixtures.failed(4, "boom").setInputs(4).build()), 2_000_000_000L);
        RunStatistics s = r.getStatistics();
        assertThat(s.getRequestLatencyMs().getCount()).as("request latency samples: %s", s.getRequestLatencyMs())
                .isEqualTo(4);
        assertThat(s.getRequestLatencyMs().getP50()).as("p50: %s", s.getRequestLatencyMs()).isEqualTo(200.0);
        assertThat(s.getRequestLatencyMs().getP99()).as("p99: %s", s.getRequestLatencyMs()).isEqualTo(400.0);
        assertThat(s.getInputsPerS()).as("16 inputs of the completed requests over 2 s").isEqualTo(8.0);
        assertThat(s.getInputTokensPerS()).as("4000 input tokens over 2 s").isEqualTo(2000.0);
        assertThat(s.getRequestThroughputRps()).as("requests/s").isEqualTo(2.0);
        assertThat(r.getCompleted()).as("completed").isEqualTo(4);
        assertThat(r.getFailed()).as("failed").isEqualTo(1);
        assertThat(r.getRequestTimings()).as("no first token: no anvil rows").isEmpty();
        assertThat(r.getMetrics().getTtftP50Ms()).as("no TTFT").isNull();
        JsonNode a = ArtifactJson.parse(r.getArtifactJson());
        assertThat(a.path("capstream").path("invalid_timing_request_indices").size())
                .as("embeddings requests are not invalid timings: %s", a.path("capstream")).isZero();
        JsonNode stats = a.path("capstream").path("statistics");
        assertThat(stats.path("inputs_per_s").asDouble()).as("artifact capstream.statistics: %s", stats).isEqualTo(8.0);
        assertThat(stats.path("request_latency_ms").path("p95").asDouble()).as("artifact: %s", stats).isEqualTo(400.0);
        assertThat(a.path("capstream").path("timeline").path("first_token_ms").get(0).isNull())
                .as("timeline: no first token: %s", a.path("capstream").path("timeline")).isTrue();
        assertThat(a.path("capstream").path("timeline").path("end_ms").get(0).asDouble())
                .as("timeline end: %s", a.path("capstream").path("timeline")).isEqualTo(100.0);
    }

    @Test
    void inputTokensPerSecondIsNullWithoutUsage() {
        RunStatistics s = report(List.of(embedded(0, 100, null, 2)), List.of(), 1_000_000_000L).getStatistics();
        assertThat(s.getInputsPerS()).as("inputs/s").isEqualTo(2.0);
        assertThat(s.getInputTokensPerS()).as("input tokens/s without usage").isNull();
    }

    @Test
    void generationRunsHaveNoneOfTheThree() throws Exception {
        BenchmarkReport r = ReportCalculator.compute(new RunData("chat-1", started(1, 4096).build(),
                List.of(ok(0, 250, 1250, 4000, 101).build()), List.of(), finished(2_000_000_000L), null));
        RunStatistics s = r.getStatistics();
        assertThat(s.getRequestLatencyMs()).as("request latency of a chat run").isNull();
        assertThat(s.getInputsPerS()).as("inputs/s of a chat run").isNull();
        assertThat(s.getInputTokensPerS()).as("input tokens/s of a chat run").isNull();
        JsonNode stats = ArtifactJson.parse(r.getArtifactJson()).path("capstream").path("statistics");
        assertThat(stats.has("request_latency_ms") || stats.has("inputs_per_s") || stats.has("input_tokens_per_s"))
                .as("omitted from a chat run's artifact: %s", stats).isFalse();
    }
}
