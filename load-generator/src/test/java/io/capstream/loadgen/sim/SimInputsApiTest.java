package io.capstream.loadgen.sim;

import static io.capstream.loadgen.sim.SimFrames.array;
import static io.capstream.loadgen.sim.SimFrames.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sim's {@code POST /v1/embeddings} and {@code POST /v1/rerank} (issue 30). */
class SimInputsApiTest {
    @RegisterExtension
    final SimFixture fixture = new SimFixture(2000);

    @Test
    void embeddingsAnswerOneUnitVectorPerInputWithUsage() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        JsonObject body = new JsonObject().put("model", "capstream-sim")
                .put("input", array(text("a", 340), text("b", 34)));
        SimFrames.Answer a = fixture.post(sim, "/v1/embeddings", body);
        assertThat(a.status()).as("status of %s", a.body()).isEqualTo(200);
        assertThat(a.contentType()).as("content type").startsWith("application/json");
        JsonObject j = a.json();
        JsonArray data = j.getJsonArray("data");
        assertThat(data.size()).as("embeddings: %s", j).isEqualTo(2);
        JsonArray v = data.getJsonObject(0).getJsonArray("embedding");
        assertThat(v.size()).as("dimensions").isEqualTo(SimInputs.DIMENSIONS);
        double norm = 0;
        for (Object x : v) {
            norm += ((Number) x).doubleValue() * ((Number) x).doubleValue();
        }
        assertThat(norm).as("unit length").isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(j.getJsonObject("usage").getInteger("prompt_tokens")).as("340/3.4 + 34/3.4 tokens: %s", j)
                .isEqualTo(110);
        assertThat(fixture.post(sim, "/v1/embeddings", body).json().getJsonArray("data"))
                .as("the same inputs get the same vectors").isEqualTo(data);
        assertThat(sim.stats().inputs()).as("inputs answered").isEqualTo(4);
        assertThat(sim.stats().inputTokens()).as("input tokens answered").isEqualTo(220);
    }

    @Test
    void rerankScoresEveryDocumentAgainstTheQuery() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        SimFrames.Answer a = fixture.post(sim, "/v1/rerank", new JsonObject().put("model", "capstream-sim")
                .put("query", text("q", 34)).put("documents", array(text("d", 340), text("e", 340), text("f", 340))));
        assertThat(a.status()).as("status of %s", a.body()).isEqualTo(200);
        JsonObject j = a.json();
        assertThat(j.getJsonArray("results").size()).as("results: %s", j).isEqualTo(3);
        assertThat(j.getJsonArray("results").getJsonObject(2).getInteger("index")).as("index").isEqualTo(2);
        assertThat(j.getJsonObject("usage").getInteger("prompt_tokens")).as("3 x (query 10 + document 100): %s", j)
                .isEqualTo(330);
    }

    @Test
    void aBodyWithoutInputsIsABadRequestAndFaultsAreInjected() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        SimFrames.Answer bad = fixture.post(sim, "/v1/rerank", new JsonObject().put("query", "q"));
        assertThat(bad.status()).as("rerank without documents: %s", bad.body()).isEqualTo(400);
        assertThat(bad.json().getJsonObject("error").getString("message")).as("message")
                .isEqualTo("\"documents\" must be a non-empty array of strings");
        SimEngine failing = fixture.start(SimConfig.builder().errorRate(1.0));
        SimFrames.Answer err = fixture.post(failing, "/v1/embeddings", new JsonObject().put("input", "x"));
        assertThat(err.status()).as("--sim-error-rate 1: %s", err.body()).isEqualTo(500);
    }
}
