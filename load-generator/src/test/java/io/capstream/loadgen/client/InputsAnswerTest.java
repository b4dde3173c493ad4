package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reading embeddings and rerank answers (issue 30), in the shapes llama-server, vLLM and TEI send. */
class InputsAnswerTest {
    private static InputsAnswer.Read read(ApiEndpoint e, String body, int expected) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return InputsAnswer.read(e, b, b.length, expected);
    }

    @Test
    void llamaServersEmbeddingsAnswer() {
        InputsAnswer.Read r = read(ApiEndpoint.EMBEDDINGS, "{\"model\":\"random-llama-20m\",\"object\":\"list\","
                + "\"usage\":{\"prompt_tokens\":16,\"total_tokens\":16},\"data\":[{\"embedding\":[0.27,-3.0e-05],"
                + "\"index\":0,\"object\":\"embedding\"},{\"embedding\":[0.1,0.2],\"index\":1,\"object\":\"embedding\"}]}", 2);
        assertThat(r).as("answer read").isEqualTo(new InputsAnswer.Read(2, 16, null));
    }

    @Test
    void base64EmbeddingsCountToo() {
        assertThat(read(ApiEndpoint.EMBEDDINGS, "{\"data\":[{\"embedding\":\"AAAA\"}],\"usage\":{\"prompt_tokens\":3}}", 1))
                .as("encoding_format base64").isEqualTo(new InputsAnswer.Read(1, 3, null));
    }

    @Test
    void anAnswerWithFewerEmbeddingsThanInputsFails() {
        InputsAnswer.Read r = read(ApiEndpoint.EMBEDDINGS, "{\"data\":[{\"embedding\":[1]}],\"usage\":{\"prompt_tokens\":3}}", 4);
        assertThat(r.error()).as("error of 1 embedding for 4 inputs")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the embeddings answer has 1 embeddings for 4 inputs"));
        assertThat(r.promptTokens()).as("usage still read").isEqualTo(3);
    }

    @Test
    void anItemWithoutAVectorFails() {
        assertThat(read(ApiEndpoint.EMBEDDINGS, "{\"data\":[{\"embedding\":[1]},{\"index\":1}]}", 2).error())
                .as("an item without embedding")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "1 of 2 items of data have no embedding"));
    }

    @Test
    void rerankResultsAndTotalTokensWhenNoPromptTokens() {
        assertThat(read(ApiEndpoint.RERANK, "{\"model\":\"m\",\"object\":\"list\",\"usage\":{\"total_tokens\":22},"
                + "\"results\":[{\"index\":1,\"relevance_score\":4.3},{\"index\":0,\"relevance_score\":1.4}]}", 2))
                .as("rerank answer").isEqualTo(new InputsAnswer.Read(2, 22, null));
        assertThat(read(ApiEndpoint.RERANK, "{\"results\":[{\"index\":0,\"relevance_score\":1.4}]}", 2).error())
                .as("a rerank answer with 1 result for 2 documents")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the rerank answer has 1 results for 2 documents"));
    }

    @Test
    void notJsonOrWithoutTheListFails() {
        assertThat(read(ApiEndpoint.RERANK, "{\"data\":[]}", 1).error()).as("rerank answer without results")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the rerank answer has no results array"));
        assertThat(read(ApiEndpoint.EMBEDDINGS, "[1,2]", 1).error()).as("an array")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the embeddings answer is not a JSON object"));
        assertThat(read(ApiEndpoint.EMBEDDINGS, "{\"data\":[{\"embedding\":[1,", 1).error().message())
                .as("a cut body").startsWith("the embeddings answer is not valid JSON: ");
        assertThat(read(ApiEndpoint.EMBEDDINGS, "", 1).error()).as("an empty body")
                .isEqualTo(RequestError.of(ErrorTypes.VALUE_ERROR, "the embeddings answer is not a JSON object"));
    }

    @Test
    void theInputsOfARequestAreCountedFromItsBody() {
        byte[] emb = "{\"model\":\"m\",\"input\":[\"a\",\"b\",\"c\"],\"dimensions\":8}".getBytes(StandardCharsets.UTF_8);
        assertThat(InputsAnswer.inputsOf(ApiEndpoint.EMBEDDINGS, emb, emb.length)).as("embeddings input array").isEqualTo(3);
        byte[] one = "{\"input\":\"a\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(InputsAnswer.inputsOf(ApiEndpoint.EMBEDDINGS, one, one.length)).as("one input string").isEqualTo(1);
        byte[] rr = "{\"query\":\"q\",\"documents\":[\"a\",\"b\"]}".getBytes(StandardCharsets.UTF_8);
        assertThat(InputsAnswer.inputsOf(ApiEndpoint.RERANK, rr, rr.length)).as("rerank documents").isEqualTo(2);
        assertThat(InputsAnswer.inputsOf(ApiEndpoint.RERANK, one, one.length)).as("rerank without documents").isEqualTo(-1);
        assertThat(read(ApiEndpoint.EMBEDDINGS, "{\"data\":[{\"embedding\":[1]}]}", -1).error())
                .as("no count check when the inputs are unknown").isNull();
    }
}
