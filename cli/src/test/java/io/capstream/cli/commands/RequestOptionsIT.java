package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request options end to end (issue 15 part 3): {@code run --endpoint completions -H ... --extra-body ...}
 * against an HTTP server that records what arrives and streams text completions the way vLLM does, then against
 * the built-in simulated engine. What crossed the wire is checked on the server's side, what was recorded in the
 * report on the report.
 */
class RequestOptionsIT {
    @TempDir
    Path tmp;

    private Vertx vertx;
    private HttpServer server;
    /** Path, headers (lower-case names) and body of every request the server got. */
    private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(this::serve);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopServer() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private void serve(HttpServerRequest req) {
        req.body().onSuccess(body -> {
            Map<String, String> h = new java.util.HashMap<>();
            req.headers().forEach(e -> h.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()));
            h.put("_path", req.path());
            h.put("_body", body.toString());
            seen.add(h);
            if (req.path().equals("/v1/models")) {
                req.response().putHeader("content-type", "application/json").end(new JsonObject()
                        .put("data", new io.vertx.core.json.JsonArray().add(new JsonObject().put("id", "m")
                                .put("max_model_len", 4096))).encode());
                return;
            }
            if (!req.path().equals("/v1/completions")) {
                req.response().setStatusCode(404).end("{\"detail\":\"Not Found\"}");
                return;
            }
            String head = "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"model\":\"m\",\"choices\":";
            StringBuilder sse = new StringBuilder();
            for (String t : new String[] {"Hello", ",", " world"}) {
                sse.append(head).append("[{\"index\":0,\"text\":\"").append(t).append("\",\"finish_reason\":null}]}\n\n");
            }
            sse.append(head).append("[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}]}\n\n");
            sse.append(head).append("[],\"usage\":{\"prompt_tokens\":60,\"completion_tokens\":3,\"total_tokens\":63}}\n\n");
            sse.append("data: [DONE]\n\n");
            req.response().putHeader("content-type", "text/event-stream").end(sse.toString());
        });
    }

    @Test
    @Timeout(120)
    void headersExtraBodyAndTheCompletionsEndpointReachTheServerAndTheReport() throws Exception {
        String base = "http://127.0.0.1:" + server.actualPort() + "/v1";
        Path report = tmp.resolve("r.json");
        int code = CapstreamMain.execute("run", "--base-url", base, "--model", "m", "--endpoint", "completions",
                "-H", "X-Tenant: team-a", "--header", "X-Route:  gpu-pool-2 ", "--extra-body",
                "{\"temperature\":0.6,\"top_p\":0.9,\"ignore_eos\":true}", "--requests", "4", "--concurrency", "2",
                "--ctx-tokens", "64", "--shared-prefix-tokens", "0", "--max-tokens", "3", "--client-warmup", "0",
                "--server-metrics", "off", "--output", report.toString());
        assertEquals(0, code);

        List<Map<String, String>> completions = seen.stream().filter(h -> h.get("_path").equals("/v1/completions")).toList();
        assertEquals(4, completions.size());
        for (Map<String, String> h : completions) {
            assertEquals("team-a", h.get("x-tenant"));
            assertEquals("gpu-pool-2", h.get("x-route"));
            JsonObject body = new JsonObject(h.get("_body"));
            assertEquals("m", body.getString("model"));
            assertFalse(body.containsKey("messages"), "a text completion has no messages");
            assertTrue(body.getString("prompt").length() > 100, "the prompt as a string: " + body.getString("prompt"));
            assertEquals(3, body.getInteger("max_tokens"));
            assertEquals(0.6, body.getDouble("temperature"), "the extra body's temperature replaces capstream's 0.0");
            assertEquals(1, h.get("_body").split("\"temperature\"", -1).length - 1, "sent once: " + h.get("_body"));
            assertEquals(0.9, body.getDouble("top_p"));
            assertEquals(true, body.getBoolean("ignore_eos"));
            assertEquals(true, body.getBoolean("stream"));
            assertEquals(true, body.getJsonObject("stream_options").getBoolean("include_usage"));
        }
        Map<String, String> probe = seen.stream().filter(h -> h.get("_path").equals("/v1/models")).findFirst().orElseThrow();
        assertEquals("team-a", probe.get("x-tenant"), "the /models probe carries the headers too");

        JsonNode a = ArtifactJson.read(report);
        assertEquals(4, a.path("completed").asInt());
        for (JsonNode r : a.path("request_timings")) {
            assertEquals(3, r.path("output_tokens").asInt(), "usage.completion_tokens of the text stream");
            assertTrue(r.path("ttft_ms").asDouble() > 0, r.toString());
        }
        JsonNode run = a.path("capstream").path("run");
        assertEquals("completions", run.path("endpoint").asText());
        assertEquals(List.of("X-Tenant", "X-Route"), ArtifactJson.mapper().convertValue(run.path("header_names"),
                List.class), "names only");
        assertThat(ArtifactJson.mapper().writeValueAsString(a)).as("no header value in the report")
                .doesNotContain("gpu-pool-2");
        assertEquals(0.6, run.path("extra_body").path("temperature").asDouble());
        assertTrue(run.path("extra_body").path("ignore_eos").asBoolean());
    }

    @Test
    @Timeout(120)
    void theSimulatedEngineServesTheCompletionsEndpointAndAChatRunRecordsNoOptions() throws Exception {
        Path text = tmp.resolve("text.json");
        assertEquals(0, CapstreamMain.execute("run", "--endpoint", "completions", "--requests", "3", "--concurrency", "3",
                "--ctx-tokens", "256", "--shared-prefix-tokens", "0", "--max-tokens", "12", "--client-warmup", "0",
                "--server-metrics", "off", "--output", text.toString()));
        JsonNode a = ArtifactJson.read(text);
        assertEquals(3, a.path("completed").asInt());
        assertEquals(12, a.path("request_timings").get(0).path("output_tokens").asInt());
        assertEquals("completions", a.path("capstream").path("run").path("endpoint").asText());

        Path chat = tmp.resolve("chat.json");
        assertEquals(0, CapstreamMain.execute("run", "--requests", "2", "--ctx-tokens", "256", "--shared-prefix-tokens",
                "0", "--max-tokens", "4", "--client-warmup", "0", "--server-metrics", "off", "--output", chat.toString()));
        JsonNode run = ArtifactJson.read(chat).path("capstream").path("run");
        assertEquals("chat", run.path("endpoint").asText());
        assertEquals(0, run.path("header_names").size());
        assertTrue(run.path("extra_body").isNull());
    }
}
