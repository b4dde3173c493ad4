package io.capstream.loadgen.sim;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SelfSignedCertificate;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated OpenAI-compatible inference engine on Vert.x: {@code GET /v1/models},
 * streaming and non-streaming {@code POST /v1/chat/completions} in the OpenAI/vLLM stream shape (and
 * {@code POST /v1/completions}, the text completions API: {@code prompt} in, {@code choices[].text} out), streaming
 * and non-streaming {@code POST /v1/responses} (the OpenAI Responses API, {@link ResponsesWire}, with
 * {@code previous_response_id} over a bounded {@link ResponseStore}) and {@code POST /v1/messages} (Anthropic's
 * Messages API, {@link MessagesWire}), {@code POST /v1/embeddings} and {@code POST /v1/rerank} ({@link SimInputs},
 * answered after their input tokens' prefill); answers to requests with {@code tools} are tool calls at
 * {@link SimConfig#toolCallRate()} (or always, when {@code tool_choice} forces one);
 * {@code GET /sim/stats} (counters and the engine-side TTFT p50/p99/max since the last
 * {@code GET /sim/stats?reset=true}), and {@code GET /metrics} ({@link SimMetrics}: requests running and
 * waiting, requests and tokens, in the Prometheus text format). Reports of runs against it carry the engine label
 * {@value SimConfig#ENGINE_LABEL}. See {@link SimConfig} for the timing model and fault injection.
 *
 * <p>Each of {@link SimConfig#replicas()} replicas runs on one event loop of the given Vert.x (one
 * deployed verticle instance each, sharing the port; its routes are {@link SimRoutes}); nothing blocks.
 */
public final class SimEngine implements AutoCloseable {
    private final Vertx vertx;
    private final String deploymentId;
    private final int port;
    private final SimConfig config;
    private final SimStats stats;
    private final SelfSignedCertificate certificate;
    /** Responses kept for {@code previous_response_id}, at most. */
    static final int RESPONSES_KEPT = 4096;
    /** Characters of conversation text kept for {@code previous_response_id}, at most (about 64 MB). */
    static final long RESPONSE_CHARS_KEPT = 64L << 20;

    private SimEngine(Vertx vertx, String deploymentId, int port, SimConfig config, SimStats stats,
                      SelfSignedCertificate certificate) {
        this.certificate = certificate;
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
        ResponseStore responses = new ResponseStore(RESPONSES_KEPT, RESPONSE_CHARS_KEPT);
        // Port 0 is not shared between verticle instances; a negative port is a random port that every
        // instance listening with the same negative number shares (Vert.x server sharing).
        int listenPort = config.port() == 0 && config.replicas() > 1
                ? -1 - ThreadLocalRandom.current().nextInt(1 << 30) : config.port();
        List<SimVerticle> replicas = new CopyOnWriteArrayList<>();
        AtomicInteger next = new AtomicInteger();
        // https (issue 30's TLS test endpoint): a certificate made now (Vert.x/Netty's generator, temporary PEM files)
        SelfSignedCertificate cert = config.https() ? SelfSignedCertificate.create("localhost") : null;
        return vertx.deployVerticle(() -> {
            SimVerticle v = new SimVerticle(config, stats, responses, next.getAndIncrement(), listenPort, cert);
            replicas.add(v);
            return v;
        }, new DeploymentOptions().setInstances(config.replicas()))
                .map(id -> new SimEngine(vertx, id, replicas.get(0).boundPort, config, stats, cert))
                .onFailure(e -> {
                    if (cert != null) {
                        cert.delete();
                    }
                });
    }

    /**
     * @return the PEM file of the self-signed certificate an https engine serves (for {@code --ca-cert}; valid for
     *         the host name {@code localhost}), or null for http; deleted by {@link #close()}
     */
    public String certificatePath() {
        return certificate == null ? null : certificate.certificatePath();
    }

    /** @return the bound TCP port */
    public int port() {
        return port;
    }

    /** @return the base URL clients use, {@code http://HOST:PORT/v1} ({@code https://} with {@code --sim-https}) */
    public String baseUrl() {
        return (config.https() ? "https://" : "http://") + config.host() + ":" + port + "/v1";
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
        if (certificate != null) {
            certificate.delete();
        }
    }

    /** The verticle holding the server, the scheduler and the fault RNG on one event loop. */
    private static final class SimVerticle extends VerticleBase {
        private final SimConfig cfg;
        private final SimStats stats;
        private final PrefixCache cache = new PrefixCache(200_000);
        private final ResponseStore responses;
        private SplittableRandom rng;
        private SplittableRandom toolRng;
        private BatchScheduler scheduler;
        private HttpServer server;
        private long seq;
        private final int replica;
        private final int listenPort;
        private final SelfSignedCertificate certificate;
        volatile int boundPort;

        SimVerticle(SimConfig cfg, SimStats stats, ResponseStore responses, int replica, int listenPort,
                    SelfSignedCertificate certificate) {
            this.cfg = cfg;
            this.stats = stats;
            this.responses = responses;
            this.replica = replica;
            this.listenPort = listenPort;
            this.certificate = certificate;
        }

        @Override
        public Future<?> start() {
            rng = new SplittableRandom(cfg.seed() + replica);
            // its own stream of draws, so that tool calls leave the fault draws of a seed as they were
            toolRng = new SplittableRandom(cfg.seed() * 0x9E3779B97F4A7C15L + 0x7001 + replica);
            scheduler = new BatchScheduler(vertx, cfg, stats, this::completed);
            Router router = SimRoutes.router(vertx, cfg, stats, this::serve, this::serveInputs);
            // HTTP/1.1 only, as engines' OpenAI servers are (no h2c upgrade for clients that offer one)
            server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false)
                    .setHost(cfg.host()).setPort(listenPort)
                    .setTcpNoDelay(true).setAcceptBacklog(16384).setIdleTimeout(0)
                    .setSsl(certificate != null)
                    .setKeyCertOptions(certificate == null ? null : certificate.keyCertOptions()));
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

        /** Answers a request of the given API. */
        private void serve(RoutingContext ctx, SimApi api) {
            long arrived = System.nanoTime();
            HttpServerResponse resp = ctx.response();
            stats.requests.incrementAndGet();
            ChatRequest req;
            try {
                JsonObject body = ctx.body().asJsonObject();
                req = switch (api) {
                    case CHAT -> ChatRequest.parse(body, cfg.modelId());
                    case COMPLETIONS -> ChatRequest.parseCompletion(body, cfg.modelId());
                    case RESPONSES -> ResponsesRequest.parse(body, cfg.modelId());
                    case MESSAGES -> MessagesRequest.parse(body, cfg.modelId());
                };
            } catch (RuntimeException e) {
                badRequest(resp, api, e.getMessage(), null, null);
                return;
            }
            if (cfg.quirks().ignoreStream() && req.stream() && (api == SimApi.CHAT || api == SimApi.COMPLETIONS)) {
                req = req.withoutStream(); // --sim-no-stream: a whole JSON body to a streaming request
            }
            if (req.previousResponseId() != null) {
                String history = responses.get(req.previousResponseId());
                if (history == null) {
                    badRequest(resp, api, "Previous response with id '" + req.previousResponseId() + "' not found.",
                            "previous_response_id", "previous_response_not_found");
                    return;
                }
                req = req.withPrompt(history + req.prompt());
            }
            SimImages.Charge images = SimImages.charge(req.prompt());
            int promptTokens = images.promptTokens(req.prompt().length());
            int requested = req.maxTokens() == null ? 0 : req.maxTokens();
            if (promptTokens + requested > cfg.maxModelLen()) {
                errorAnswer(resp, api, req, 400, "This model's maximum context length is " + cfg.maxModelLen() + " tokens. However,"
                        + " you requested " + (promptTokens + requested) + " tokens (" + promptTokens + " in the messages, "
                        + requested + " in the completion). Please reduce the length of the messages or completion.",
                        "BadRequestError");
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
            String id = cfg.replicas() == 1 ? "chatcmpl-sim-" + (++seq) : "chatcmpl-sim-" + replica + "-" + (++seq);
            ToolAnswer tool = null;
            if (req.tool() != null && (req.tool().required()
                    || cfg.toolCallRate() > 0 && toolRng.nextDouble() < cfg.toolCallRate())) {
                int tokens = Math.min(ToolAnswer.MAX_TOKENS, output - reasoning);
                if (tokens >= 2) {
                    String suffix = id.substring("chatcmpl-".length());
                    tool = ToolAnswer.of((api == SimApi.MESSAGES ? "toolu_" : "call_") + suffix, req.tool(), tokens);
                    output = reasoning + tokens;
                    byLength = false;
                    stats.toolCalls.incrementAndGet();
                }
            }
            FaultPlan fault = FaultPlan.draw(rng, cfg, output);
            if (fault.kind() == FaultPlan.Kind.RATE_LIMIT_429) {
                stats.rateLimited.incrementAndGet();
                resp.putHeader("retry-after", Integer.toString(cfg.retryAfterS()));
                error(resp, api, 429, "simulated rate limit (fault injection)", "RateLimitError", null, null);
                return;
            }
            boolean failInStream = fault.kind() == FaultPlan.Kind.ERROR_500 && req.stream()
                    && (api == SimApi.RESPONSES || api == SimApi.MESSAGES);
            if (fault.kind() == FaultPlan.Kind.ERROR_500 && !failInStream) {
                stats.errors500.incrementAndGet();
                errorAnswer(resp, api, req, 500, "simulated internal error (fault injection)", "InternalServerError");
                return;
            }
            PrefixCache.Lookup at = cfg.prefixCache() && !failInStream ? cache.lookup(req.prompt()) : null;
            int cachedChars = at == null ? 0 : at.matchedChars();
            int cached = Math.min(promptTokens - 1, TokenEstimator.cachedTokens(cachedChars));
            SimWire wire = SimWire.of(api, id, System.currentTimeMillis() / 1000, req.model(), cfg.quirks());
            SimStream s = new SimStream(resp, req, wire, id, tool, promptTokens, Math.max(0, cached), output,
                    reasoning, byLength, fault, arrived,
                    cfg.decodeSpread() == 0 ? cfg.streamDecodeTokPerS() : cfg.streamDecodeTokPerS(rng.nextDouble()));
            s.cacheAt = at;
            if (failInStream) {
                failInStream(s);
                return;
            }
            stats.cachedTokens.addAndGet(s.cachedTokens);
            stats.images.addAndGet(images.images());
            stats.imageTokens.addAndGet(images.tokens());
            scheduler.submit(s);
        }

        /**
         * Answers an embeddings or rerank request (issue 30, {@link SimInputs}): a 400 for a body without its inputs,
         * the injected 500 and 429 faults as for chat, else the answer once its input tokens were prefilled
         * ({@link BatchScheduler#prefillOnly}).
         */
        private void serveInputs(RoutingContext ctx, boolean rerank) {
            HttpServerResponse resp = ctx.response();
            stats.requests.incrementAndGet();
            SimInputs in;
            try {
                in = SimInputs.parse(ctx.body().asJsonObject(), rerank, cfg.modelId());
            } catch (RuntimeException e) {
                badRequest(resp, SimApi.CHAT, e.getMessage(), null, null);
                return;
            }
            FaultPlan fault = FaultPlan.draw(rng, cfg, 1);
            if (fault.kind() == FaultPlan.Kind.RATE_LIMIT_429) {
                stats.rateLimited.incrementAndGet();
                resp.putHeader("retry-after", Integer.toString(cfg.retryAfterS()));
                error(resp, SimApi.CHAT, 429, "simulated rate limit (fault injection)", "RateLimitError", null, null);
                return;
            }
            if (fault.kind() == FaultPlan.Kind.ERROR_500) {
                stats.errors500.incrementAndGet();
                error(resp, SimApi.CHAT, 500, "simulated internal error (fault injection)", "InternalServerError",
                        null, null);
                return;
            }
            scheduler.prefillOnly(in.tokens(), () -> {
                if (resp.closed()) {
                    stats.disconnected.incrementAndGet();
                    return;
                }
                stats.completed.incrementAndGet();
                stats.inputs.addAndGet(in.texts().size());
                stats.inputTokens.addAndGet(in.tokens());
                resp.putHeader("content-type", "application/json").end(in.answer().toBuffer());
            });
        }

        /** An injected server error of a streaming Responses or Messages request: the opening frames, then the
         *  API's failure event ({@code response.failed}, an {@code error} event). */
        private void failInStream(SimStream s) {
            stats.errors500.incrementAndGet();
            scheduler.startStream(s);
            Buffer out = Buffer.buffer(1024);
            s.wire.preamble(out, s);
            s.wire.failed(out, s, "simulated internal error (fault injection)");
            s.response.end(out);
        }

        /** Records a complete answer: the prompt and answer in the prefix cache, a Responses answer in the store. */
        private void completed(SimStream s) {
            String answer = s.answerText();
            if (s.cacheAt != null) {
                cache.extend(s.cacheAt, answer);
            }
            if (s.request.api() == SimApi.RESPONSES && s.request.store()) {
                responses.put(s.wire.answerId(), s.request.prompt() + answer);
            }
        }

        /**
         * An error answer to a chat or completions request: an HTTP error, or with {@code --sim-errors-in-stream} and a
         * streamed request an HTTP 200 event stream holding the error object, then {@code [DONE]}.
         */
        private void errorAnswer(HttpServerResponse resp, SimApi api, ChatRequest req, int status, String message,
                                 String type) {
            if (status == 400) {
                stats.badRequests.incrementAndGet();
            }
            if (!cfg.quirks().errorsInStream() || !req.stream() || (api != SimApi.CHAT && api != SimApi.COMPLETIONS)) {
                error(resp, api, status, message, type, null, null);
                return;
            }
            Buffer out = Buffer.buffer(512);
            SseChunks.error(out, SimErrors.body(api, status, message, type, null, null).encode());
            SseChunks.done(out);
            resp.setStatusCode(200).putHeader("content-type", "text/event-stream; charset=utf-8")
                    .putHeader("cache-control", "no-cache").end(out);
        }

        private void badRequest(HttpServerResponse resp, SimApi api, String message, String param, String code) {
            stats.badRequests.incrementAndGet();
            error(resp, api, 400, message, "BadRequestError", param, code);
        }

        private static void error(HttpServerResponse resp, SimApi api, int status, String message, String type,
                                  String param, String code) {
            resp.setStatusCode(status).putHeader("content-type", "application/json")
                    .end(SimErrors.body(api, status, message, type, param, code).toBuffer());
        }
    }
}
