package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.WindowSummary;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 30: embeddings and rerank requests (no first token) in the window summaries. */
class InputsWindowTest {
    private static RequestCompleted embedded(int index, long latencyMs) {
        return RequestCompleted.newBuilder().setRequestIndex(index).setPlannedContextTokens(256).setTarget("t")
                .setModel("m").setTtftNs(-1).setTtfoNs(null).setE2eNs(latencyMs * 1_000_000L).setPromptTokens(300L)
                .setOutputTokenSource("none").setContentChunks(0).setInputs(4).build();
    }

    @Test
    void anEmbeddingsRequestCountsAsCompletedWithItsLatencyAsE2eAndNoTtft() {
        Optional<RequestSample> s = RequestSamples.from(embedded(0, 120));
        assertThat(s).as("an embeddings request's sample (it has no §7 row)").isPresent();
        WindowAggregate agg = new WindowAggregate(0.01);
        agg.addCompleted(s.get(), true);
        agg.addCompleted(RequestSamples.from(embedded(1, 80)).orElseThrow(), true);
        WindowSummary w = SummaryBuilder.build(new WindowKey("t", "m", "le256"), 0, 10_000, agg, false);
        assertThat(w.getCompleted()).as("completed in the window: %s", w).isEqualTo(2);
        assertThat(w.getTtftMs()).as("no TTFT percentiles: %s", w).isNull();
        assertThat(w.getTtfoMs()).as("no TTFO percentiles: %s", w).isNull();
        assertThat(w.getE2eMs()).as("request latency as E2E: %s", w).isNotNull();
        assertThat(w.getE2eMs().getCount()).as("E2E samples: %s", w).isEqualTo(2);
        assertThat(w.getE2eMs().getP99()).as("E2E p99 within the sketch's 1%%: %s", w).isBetween(118.0, 122.0);
        assertThat(w.getPromptTokens()).as("input tokens: %s", w).isEqualTo(600);
        assertThat(w.getOutputTokens()).as("no output: %s", w).isZero();
    }

    @Test
    void aStreamedRequestWithoutValidTimesStillFeedsNothing() {
        RequestCompleted broken = RequestCompleted.newBuilder(embedded(0, 120)).setInputs(null)
                .setOutputTokenSource("usage").build();
        assertThat(RequestSamples.from(broken)).as("a chat request with ttft -1 fails the §7 filter").isEmpty();
    }
}
