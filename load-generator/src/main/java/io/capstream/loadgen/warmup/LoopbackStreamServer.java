package io.capstream.loadgen.warmup;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * An in-process OpenAI-compatible streaming target on 127.0.0.1 for warming the client: every
 * {@code POST .../chat/completions} is answered at once with a role chunk, {@value #CONTENT_CHUNKS}
 * one-token content chunks (each its own write, so the client sees several reads; every fourth
 * request starts with two {@code reasoning_content} chunks), a usage chunk with
 * {@code "choices":[]} and {@code data: [DONE]}, in the shape vLLM and llama.cpp send. No delay:
 * the warm-up's speed is the client's.
 */
public final class LoopbackStreamServer implements AutoCloseable {
    /** Content chunks per response. */
    static final int CONTENT_CHUNKS = 16;
    private static final Buffer ROLE = sse("{\"id\":\"warmup\",\"object\":\"chat.completion.chunk\",\"created\":0,"
            + "\"model\":\"warmup\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
            + "\"finish_reason\":null}]}");
    private static final Buffer REASONING = sse("{\"id\":\"warmup\",\"object\":\"chat.completion.chunk\",\"created\":0,"
            + "\"model\":\"warmup\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\" hm\"},"
            + "\"finish_reason\":null}]}");
    private static final Buffer CONTENT = sse("{\"id\":\"warmup\",\"object\":\"chat.completion.chunk\",\"created\":0,"
            + "\"model\":\"warmup\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\"},\"finish_reason\":null}]}");
    private static final Buffer FINISH = sse("{\"id\":\"warmup\",\"object\":\"chat.completion.chunk\",\"created\":0,"
            + "\"model\":\"warmup\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}");
    private static final Buffer USAGE_AND_DONE = sse("{\"id\":\"warmup\",\"object\":\"chat.completion.chunk\","
            + "\"created\":0,\"model\":\"warmup\",\"choices\":[],\"usage\":{\"prompt_tokens\":100,"
            + "\"completion_tokens\":" + CONTENT_CHUNKS + ",\"total_tokens\":" + (100 + CONTENT_CHUNKS)
            + ",\"prompt_tokens_details\":{\"cached_tokens\":0}}}").appendString("data: [DONE]\n\n");

    private final HttpServer server;
    private long served;

    private LoopbackStreamServer(HttpServer server) {
        this.server = server;
    }

    /**
     * @param vertx Vert.x to run on
     * @return the listening server (a free port on 127.0.0.1)
     */
    public static Future<LoopbackStreamServer> start(Vertx vertx) {
        HttpServer s = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setTcpNoDelay(true));
        LoopbackStreamServer ls = new LoopbackStreamServer(s);
        s.requestHandler(ls::handle);
        return s.listen().map(x -> ls);
    }

    /** @return the base URL, e.g. {@code http://127.0.0.1:41234/v1} */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    private void handle(HttpServerRequest req) {
        req.body().onComplete(ar -> {
            HttpServerResponse resp = req.response();
            if (ar.failed()) {
                resp.setStatusCode(400).end();
                return;
            }
            boolean reasoning = (served++ & 3) == 0;
            resp.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
            resp.write(ROLE);
            if (reasoning) {
                resp.write(REASONING);
                resp.write(REASONING);
            }
            for (int i = 0; i < CONTENT_CHUNKS; i++) {
                resp.write(CONTENT);
            }
            resp.write(FINISH);
            resp.end(USAGE_AND_DONE);
        });
    }

    private static Buffer sse(String json) {
        return Buffer.buffer("data: " + json + "\n\n");
    }

    /** Stops listening. */
    @Override
    public void close() {
        server.close();
    }
}
