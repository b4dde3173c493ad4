package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The embeddings and rerank bodies (issue 30). */
class InputBatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void embeddingsBodyHasBatchDistinctInputsOfThePlannedLength() throws Exception {
        JsonNode b = JSON.readTree(new InputBatch("m", ApiEndpoint.EMBEDDINGS, 3, null, null).body(5, 100));
        assertThat(b.path("model").asText()).as("model: %s", b).isEqualTo("m");
        assertThat(b.path("input").size()).as("inputs: %s", b).isEqualTo(3);
        Set<String> seen = new HashSet<>();
        for (JsonNode in : b.path("input")) {
            assertThat(in.asText()).as("an input of 100 planned tokens").hasSize(300);
            seen.add(in.asText());
        }
        assertThat(seen).as("distinct inputs").hasSize(3);
        assertThat(b.path("input").get(0).asText()).as("input 0 of request 5 is prompt index 15 without a shared prefix")
                .isEqualTo(new PromptBuilder(0).prompt(15, 100));
        assertThat(b.has("stream") || b.has("max_tokens") || b.has("messages")).as("no generation members: %s", b)
                .isFalse();
    }

    @Test
    void rerankBodyHasAQueryAndTheDocumentsThenTheExtraMembers() throws Exception {
        JsonNode b = JSON.readTree(new InputBatch("m", ApiEndpoint.RERANK, 2, "# run 0123456789ab\n",
                ExtraBody.parse("{\"top_n\":2}")).body(7, 64));
        assertThat(b.path("query").asText()).as("query: %s", b).isEqualTo("# request 7: which helper computes 7?");
        assertThat(b.path("documents").size()).as("documents: %s", b).isEqualTo(2);
        assertThat(b.path("documents").get(1).asText()).as("the salt starts each document")
                .startsWith("# run 0123456789ab\n");
        assertThat(b.path("top_n").asInt()).as("--extra-body member: %s", b).isEqualTo(2);
    }

    @Test
    void refusesAStreamedEndpointAndAnEmptyBatch() {
        assertThatThrownBy(() -> new InputBatch("m", ApiEndpoint.CHAT, 1, null, null)).as("chat")
                .hasMessage("--endpoint chat takes no input batch");
        assertThatThrownBy(() -> new InputBatch("m", ApiEndpoint.RERANK, 0, null, null)).as("rerank without documents")
                .hasMessage("--batch must be at least 1, got 0");
    }
}
