package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.ErrorTypes;
import io.capstream.loadgen.client.OutputChunkGaps;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request events of embeddings and rerank runs (issue 30): inputs, no first token, no output. */
class InputsEventsTest {
    private static EventFactory factory(ApiEndpoint e, Integer batch) {
        RunConfig c = RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m")).withTarget(t -> t.withEndpoint(e))
                .withPayload(new PayloadShape(0, List.of(), null, batch));
        return new EventFactory("run-1", "w", new RunPlan(c, null, ContextPlan.of(new int[] {256}, null),
                ApiKey.none()));
    }

    private static final RequestResult OK = new RequestResult(0, -1, -1, 120_000_000L, 200, 300, -1, -1, 0, 0, -1,
            null, 900, OutputChunkGaps.NONE, null);

    @Test
    void aCompletedEmbeddingsRequestCarriesItsInputsAndNoFirstToken() {
        RequestCompleted c = (RequestCompleted) factory(ApiEndpoint.EMBEDDINGS, 4).completed(0, 0, 5, OK)
                .getPayload();
        assertThat(c.getInputs()).as("inputs").isEqualTo(4);
        assertThat(c.getTtftNs()).as("ttft_ns: not reached").isEqualTo(-1);
        assertThat(c.getTtfoNs()).as("ttfo_ns").isNull();
        assertThat(c.getE2eNs()).as("request latency").isEqualTo(120_000_000L);
        assertThat(c.getPromptTokens()).as("input tokens of usage").isEqualTo(300);
        assertThat(c.getCompletionTokens()).as("no output").isNull();
        assertThat(c.getOutputTokenSource()).as("output token source").isEqualTo(EventFactory.OUTPUT_NONE);
    }

    @Test
    void aFailedRerankRequestCarriesItsDocumentsAndChatRequestsNone() {
        RequestFailed f = (RequestFailed) factory(ApiEndpoint.RERANK, null).failed(0, 0, 5, 1000, 500, 0, 0,
                RequestError.of(ErrorTypes.HTTP_ERROR, "HTTP Error 500")).getPayload();
        assertThat(f.getInputs()).as("rerank with the default batch").isEqualTo(1);
        RequestFailed chat = (RequestFailed) factory(ApiEndpoint.CHAT, null).failed(0, 0, 5, 1000, 500, 0, 0,
                RequestError.of(ErrorTypes.HTTP_ERROR, "HTTP Error 500")).getPayload();
        assertThat(chat.getInputs()).as("chat").isNull();
    }
}
