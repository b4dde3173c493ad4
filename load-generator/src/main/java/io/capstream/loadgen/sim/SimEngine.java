package io.capstream.loadgen.sim;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated OpenAI-compatible inference engine on Vert.x: {@code GET /v1/models},
 * streaming and non-streaming {@code POST /v1/chat/completions} in the OpenAI/vLLM stream shape (and
 * {@code POST /v1/completions}, the text completions API: {@code prompt} in, {@code choices[].text} out),
 * {@code GET /sim/stats} (counters and the engine-side TTFT p50/p99/max since the last
 * {@code GET /sim/stats?reset=true}), and {@code GET /metrics} ({@link SimMetrics}: requests running and
 * waiting, requests and tokens, in the Prometheus text format). Reports of runs against it carry the engine label
 * {@value SimConfig#ENGINE_LABEL}. See {@link SimConfig} for the timing model and fault injection.
 *
 * <p>Each of {@link SimConfig#replicas()} replicas runs on one event loop of the given Vert.x (one
 * deployed verticle instance each, sharing the port); nothing blocks.
 */
public final class SimEngine implements AutoCloseable {
    private final Vertx vertx;
    private final String deploymentId;
    private final int port;
    private final SimConfig config;
    private final SimStats stats;

    private SimEngine(Vertx vertx, String deploymentId, int port, SimConfig config, SimStats stats) {
        this.vertx = vertx;
        this.deploymentId = deploymentId;
        this.port = port;
        this.config = config;
        this.stats = stats;
    }

    /**
     * Starts the engine.
     *
     * @param vertx  the Vert.x instance to run on (not closed by {@link #close()})
     * @param config the configuration (non-null)
     * @return a future completed with the started engine, or failed when the port cannot be bound
     */
    public static Future<SimEngine> start(Vertx vertx, SimConfig config) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(config, "config");
        SimStats stats = new SimStats();
        // Port 0 is not shared between verticle instances; a negative port is a random port that every
        // instance listening with the same negative number shares (Vert.x server sharing).
        int listenPort = config.port() == 0 && config.replicas() > 1
                ? -1 - ThreadLocalRandom.current().nextInt(1 << 30) : config.port();
        List<SimVerticle> replicas = new CopyOnWriteArrayList<>();
        AtomicInteger next = new AtomicInteger();
        return vertx.deployVerticle(() -> {
            SimVerticle v = new SimVerticle(config, stats, next.getAndIncrement(), listenPort);
            replicas.add(v);
            return v;
        }, new DeploymentOptions().setInstances(config.replicas()))
                .map(id -> new SimEngine(vertx, id, replicas.get(0).boundPort, config, stats));
    }

    /** @return the bound TCP port */
    public int port() {
        return port;
    }

    /** @return the base URL clients use, {@code http://HOST:PORT/v1} */
    public String baseUrl() {
        return "http://" + config.host() + ":" + port + "/v1";
    }

    /** @return the configuration */
    public SimConfig config() {
        return config;
    }

    /** @return live counters */
    public SimStats stats() {
        return stats;
    }

    /**
     * Stops the engine asynchronously: closes the server (and its connections) and the timers.
     *
     * @return a future completed when stopped
     */
    public Future<Void> stop() {
        return vertx.undeploy(deploymentId);
    }

    /** Stops the engine and waits up to 10 s. Does not close the Vert.x instance. */
    @Override
    public void close() {
        try {
            stop().await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            // already undeployed or Vert.x closed: nothing left to stop
        }
    }

    /** The verticle holding the server, the scheduler and the fault RNG on one event loop. */
    private static final class SimVerticle extends VerticleBase {
        private final SimConfig cfg;
        private final SimStats stats;
        private final PrefixCache cache = new PrefixCache(200_000);
        private SplittableRandom rng;
        private BatchScheduler scheduler;
        private HttpServer server;
        private long seq;
        private final int replica;
        private final int listenPort;
        volatile int boundPort;

        SimVerticle(SimConfig cfg, SimStats stats, int replica, int listenPort) {
            this.cfg = cfg;
            this.stats = stats;
            this.replica = replica;
            this.listenPort = listenPort;
        }

        @Override
        public Future<?> start() {
            rng = new SplittableRandom(cfg.seed() + replica);
            scheduler = new BatchScheduler(vertx, cfg, stats);
            Router router = Router.router(vertx);
            router.get("/v1/models").handler(this::models);
            router.get("/models").handler(this::models);
            router.get("/sim/stats").handler(this::statsJson);
            SimMetrics metrics = new SimMetrics(stats);
            router.get("/metrics").handler(ctx -> ctx.response().putHeader("content-type", metrics.contentType())
                    .end(io.vertx.core.buffer.Buffer.buffer(metrics.scrape())));
            router.post("/v1/chat/completions")
                    .handler(BodyHandler.create(false).setBodyLimit(256L * 1024 * 1024))
                    .handler(ctx -> serve(ctx, false));
            router.post("/v1/completions")
                    .handler(BodyHandler.create(false).setBodyLimit(256L * 1024 * 1024))
                    .handler(ctx -> serve(ctx, true));
            // HTTP/1.1 only, as engines' OpenAI servers are (no h2c upgrade for clients that offer one)
            server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false)
                    .setHost(cfg.host()).setPort(listenPort)
                    .setTcpNoDelay(true).setAcceptBacklog(16384).setIdleTimeout(0));
            Promise<Void> started = Promise.promise();
            server.requestHandler(router).listen().onComplete(ar -> {
                if (ar.succeeded()) {
                    boundPort = ar.result().actualPort();
                    scheduler.start();
                    started.complete();
                } else {
                    started.fail(ar.cause());
                }
            });
            return started.future();
        }

        @Override
        public Future<?> stop() {
            if (scheduler != null) {
                scheduler.stop();
            }
            return server == null ? Future.succeededFuture() : server.close();
        }

        private void models(RoutingContext ctx) {
            JsonObject model = new JsonObject()
                    .put("id", cfg.modelId()).put("object", "model").put("created", 0)
                    .put("owned_by", SimConfig.ENGINE_LABEL).put("max_model_len", cfg.maxModelLen());
            ctx.response().putHeader("content-type", "application/json")
                    .end(new JsonObject().put("object", "list").put("data", new JsonArray().add(model)).toBuffer());
        }

        private void statsJson(RoutingContext ctx) {
            JsonObject o = new JsonObject()
                    .put("requests", stats.requests()).put("completed", stats.completed())
                    .put("active", stats.active()).put("queued", stats.queued())
                    .put("tokens", stats.tokens()).put("writes", stats.writes())
                    .put("errors_500", stats.errors500()).put("rate_limited", stats.rateLimited())
                    .put("stalls", stats.stalls()).put("cuts", stats.cuts()).put("malformed", stats.malformed())
                    .put("disconnected", stats.disconnected()).put("bad_requests", stats.badRequests())
                    .put("engine_ttft_p50_ms", stats.ttftPercentileMs(50))
                    .put("engine_ttft_p99_ms", stats.ttftPercentileMs(99))
                    .put("engine_ttft_max_ms", stats.ttftPercentileMs(100));
            if ("true".equals(ctx.request().getParam("reset"))) {
                stats.resetTtft();
            }
            ctx.response().putHeader("content-type", "application/json").end(o.toBuffer());
        }

        /** Answers a chat completion, or a text completion when {@code text}. */
        private void serve(RoutingContext ctx, boolean text) {
            long arrived = System.nanoTime();
            HttpServerResponse resp = ctx.response();
            stats.requests.incrementAndGet();
            ChatRequest req;
            try {
                JsonObject body = ctx.body().asJsonObject();
                req = text ? ChatRequest.parseCompletion(body, cfg.modelId()) : ChatRequest.parse(body, cfg.modelId());
            } catch (RuntimeException e) {
                badRequest(resp, e.getMessage());
                return;
            }
            int promptTokens = TokenEstimator.tokens(req.prompt().length());
            int requested = req.maxTokens() == null ? 0 : req.maxTokens();
            if (promptTokens + requested > cfg.maxModelLen()) {
                badRequest(resp, "This model's maximum context length is " + cfg.maxModelLen() + " tokens. However, you"
                        + " requested " + (promptTokens + requested) + " tokens (" + promptTokens + " in the messages, "
                        + requested + " in the completion). Please reduce the length of the messages or completion.");
                return;
            }
            int output;
            if (cfg.outputTokens() > 0) {
                output = req.maxTokens() == null ? cfg.outputTokens() : Math.min(cfg.outputTokens(), req.maxTokens());
            } else {
                output = req.maxTokens() == null ? 64 : req.maxTokens();
            }
            boolean byLength = req.maxTokens() != null && output >= req.maxTokens();
            boolean thinking = req.thinking() != null ? req.thinking() : cfg.thinkingByDefault();
            int reasoning = thinking ? Math.min(cfg.reasoningTokens(), output - 1) : 0;
            FaultPlan fault = FaultPlan.draw(rng, cfg, output);
            if (fault.kind() == FaultPlan.Kind.ERROR_500) {
                stats.errors500.incrementAndGet();
                error(resp, 500, "simulated internal error (fault injection)", "InternalServerError");
                return;
            }
            if (fault.kind() == FaultPlan.Kind.RATE_LIMIT_429) {
                stats.rateLimited.incrementAndGet();
                resp.putHeader("retry-after", Integer.toString(cfg.retryAfterS()));
                error(resp, 429, "simulated rate limit (fault injection)", "RateLimitError");
                return;
            }
            int cachedChars = cfg.prefixCache() ? cache.lookupAndInsert(req.prompt()) : 0;
            int cached = Math.min(promptTokens - 1, TokenEstimator.cachedTokens(cachedChars));
            String id = cfg.replicas() == 1 ? "chatcmpl-sim-" + (++seq) : "chatcmpl-sim-" + replica + "-" + (++seq);
            SseChunks chunks = new SseChunks(text ? id.replace("chatcmpl-", "cmpl-") : id,
                    System.currentTimeMillis() / 1000, req.model(), text);
            scheduler.submit(new SimStream(resp, req, chunks, id, promptTokens, Math.max(0, cached), output, reasoning,
                    byLength, fault, arrived,
                    cfg.decodeSpread() == 0 ? cfg.streamDecodeTokPerS() : cfg.streamDecodeTokPerS(rng.nextDouble())));
        }

        private void badRequest(HttpServerResponse resp, String message) {
            stats.badRequests.incrementAndGet();
            error(resp, 400, message, "BadRequestError");
        }

        private static void error(HttpServerResponse resp, int status, String message, String type) {
            JsonObject err = new JsonObject().put("error", new JsonObject()
                    .put("message", message).put("type", type).put("param", null).put("code", status));
            resp.setStatusCode(status).putHeader("content-type", "application/json").end(err.toBuffer());
        }
    }
}
