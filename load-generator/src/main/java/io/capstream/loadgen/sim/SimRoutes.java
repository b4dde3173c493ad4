package io.capstream.loadgen.sim;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.function.BiConsumer;

/**
 * The HTTP routes of one {@link SimEngine} replica. The read-only endpoints are answered here:
 * {@code GET /v1/models} (and {@code /models}), {@code GET /sim/stats} (counters and the engine-side TTFT
 * p50/p99/max; {@code ?reset=true} resets the TTFT samples after answering) and {@code GET /metrics}
 * ({@link SimMetrics}). The {@code POST} API endpoints read their body (up to {@link #BODY_LIMIT} bytes) and hand
 * the request to the replica's handlers.
 */
final class SimRoutes {
    /** The largest request body the {@code POST} endpoints accept, bytes. */
    static final long BODY_LIMIT = 256L * 1024 * 1024;

    private SimRoutes() {
    }

    /**
     * Builds a replica's router.
     *
     * @param vertx       the Vert.x instance of the replica
     * @param cfg         the engine configuration
     * @param stats       the engine's shared counters
     * @param serve       answers a chat, completions, Responses or Messages request
     * @param serveInputs answers an embeddings ({@code false}) or rerank ({@code true}) request
     * @return the router
     */
    static Router router(Vertx vertx, SimConfig cfg, SimStats stats, BiConsumer<RoutingContext, SimApi> serve,
                         BiConsumer<RoutingContext, Boolean> serveInputs) {
        Router router = Router.router(vertx);
        router.get("/v1/models").handler(ctx -> models(ctx, cfg));
        router.get("/models").handler(ctx -> models(ctx, cfg));
        router.get("/sim/stats").handler(ctx -> statsJson(ctx, stats));
        SimMetrics metrics = new SimMetrics(stats);
        router.get("/metrics").handler(ctx -> ctx.response().putHeader("content-type", metrics.contentType())
                .end(Buffer.buffer(metrics.scrape())));
        router.post("/v1/chat/completions").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT))
                .handler(ctx -> serve.accept(ctx, SimApi.CHAT));
        router.post("/v1/completions").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT))
                .handler(ctx -> serve.accept(ctx, SimApi.COMPLETIONS));
        router.post("/v1/responses").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT))
                .handler(ctx -> serve.accept(ctx, SimApi.RESPONSES));
        for (String path : new String[] {"/v1/embeddings", "/embeddings", "/v1/rerank", "/rerank"}) {
            boolean rerank = path.endsWith("/rerank");
            router.post(path).handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT))
                    .handler(ctx -> serveInputs.accept(ctx, rerank));
        }
        router.post("/v1/messages").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT))
                .handler(ctx -> serve.accept(ctx, SimApi.MESSAGES));
        return router;
    }

    private static void models(RoutingContext ctx, SimConfig cfg) {
        JsonObject model = new JsonObject()
                .put("id", cfg.modelId()).put("object", "model").put("created", 0)
                .put("owned_by", SimConfig.ENGINE_LABEL).put("max_model_len", cfg.maxModelLen());
        ctx.response().putHeader("content-type", "application/json")
                .end(new JsonObject().put("object", "list").put("data", new JsonArray().add(model)).toBuffer());
    }

    private static void statsJson(RoutingContext ctx, SimStats stats) {
        JsonObject o = new JsonObject()
                .put("requests", stats.requests()).put("completed", stats.completed())
                .put("active", stats.active()).put("queued", stats.queued())
                .put("tokens", stats.tokens()).put("writes", stats.writes())
                .put("errors_500", stats.errors500()).put("rate_limited", stats.rateLimited())
                .put("stalls", stats.stalls()).put("cuts", stats.cuts()).put("malformed", stats.malformed())
                .put("disconnected", stats.disconnected()).put("bad_requests", stats.badRequests())
                .put("tool_calls", stats.toolCalls()).put("cached_tokens", stats.cachedTokens())
                .put("images", stats.images()).put("image_tokens", stats.imageTokens())
                .put("inputs", stats.inputs()).put("input_tokens", stats.inputTokens())
                .put("engine_ttft_p50_ms", stats.ttftPercentileMs(50))
                .put("engine_ttft_p99_ms", stats.ttftPercentileMs(99))
                .put("engine_ttft_max_ms", stats.ttftPercentileMs(100));
        if ("true".equals(ctx.request().getParam("reset"))) {
            stats.resetTtft();
        }
        ctx.response().putHeader("content-type", "application/json").end(o.toBuffer());
    }
}
