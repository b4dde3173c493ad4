package io.capstream.aggregator.api;

import static io.capstream.aggregator.api.ApiParams.blankToNull;
import static io.capstream.aggregator.api.ApiParams.encode;
import static io.capstream.aggregator.api.ApiParams.localOnly;
import static io.capstream.aggregator.api.ApiResponses.HTML;
import static io.capstream.aggregator.api.ApiResponses.JSON;
import static io.capstream.aggregator.api.ApiResponses.error;
import static io.capstream.aggregator.api.ApiResponses.fail;
import static io.capstream.aggregator.api.ApiResponses.json;

import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.change.ChangeTopology;
import io.capstream.aggregator.html.RunPage;
import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloTopology;
import io.capstream.aggregator.window.WindowTopology;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The aggregator's HTTP API (Vert.x Web), answering from Kafka Streams interactive queries:
 * <ul>
 *   <li>{@code GET /}: the live dashboard ({@link DashboardPage}), one self-contained HTML page that
 *       polls the routes below every 5 s;</li>
 *   <li>{@code GET /runs/{id}} (also {@code /runs/{id}.html}): the run's HTML page
 *       ({@link RunPage#render}) from the artifact {@code /api/runs/{id}} returns; an HTML error page
 *       with 404 if unknown, 503 while a large report's chunks are still loading or Streams is not
 *       RUNNING;</li>
 *   <li>{@code GET /api/runs}: JSON array of run headers (run_id, model, base_url, started_at,
 *       finished_at, requests, completed, failed, kind, complete), newest first;</li>
 *   <li>{@code GET /api/runs/{id}}: the run's whole report artifact JSON (byte for byte the report
 *       file; large reports reassembled from their chunks), 404 if unknown, 503 while a large
 *       report's chunks are still loading;</li>
 *   <li>{@code GET /api/summaries?target=&model=&from=&to=}: JSON array of {@code WindowSummary}
 *       (Avro field names); from/to are window starts as epoch ms or ISO-8601 instants, default
 *       the last 24 h;</li>
 *   <li>{@code GET /api/alerts?from=&to=&active=true}: JSON array of {@code SloBreach}; with
 *       {@code active=true} only the SLOs currently in breach;</li>
 *   <li>{@code GET /api/changes?from=&to=}: JSON array of {@code ChangePoint} (issue 32; Avro field names) whose
 *       change began ({@code change_window_start_ms}) in the range, default the last 24 h, by change start;</li>
 *   <li>{@code GET /api/slos}: JSON array of the SLOs this aggregator evaluates ({@code aggregate --slo}),
 *       each {@code {"slo": "ttft_p95_ms<=500", "metric": "ttft_p95_ms", "comparison": "<=",
 *       "threshold": 500.0}}; {@code []} without SLOs (answered by each instance from its own settings;
 *       the dashboard draws them as threshold lines and knows from them whether goodput is computed);</li>
 *   <li>{@code GET /metrics}: Prometheus text format ({@link MonitoringMetrics});</li>
 *   <li>{@code GET /health}: 200 while the process is up; {@code GET /ready}: 200 {@code {"ready":true}}
 *       when Streams is RUNNING and the schema registry answers, else 503
 *       {@code {"ready":false,"reason":"..."}} ({@link QueryService#notReadyReason()}, e.g.
 *       {@code schema registry unreachable: ...}).</li>
 * </ul>
 * Query errors while Streams is not RUNNING answer 503 with a JSON {@code error}; bad parameters 400 (a bad time,
 * or a flag such as {@code active} or {@code local} other than {@code true}/{@code false}).
 *
 * <p><b>Several instances</b> (one application id, {@link #serve} with a {@link StreamsInstanceLocator}):
 * {@code /api/runs/{id}} and the artifact of {@code /runs/{id}} are answered by the instance that owns
 * the run's report (this one, or the request is forwarded to the owner's advertised URL and its status
 * and body passed on); {@code /api/runs}, {@code /api/summaries}, {@code /api/alerts} and {@code /api/changes} merge this
 * instance's answer with those of every other instance holding partitions of the store
 * ({@link ClusterQueries}); an instance that cannot be reached, or answers other than 200, makes the
 * merged query answer 503 with a JSON {@code error} naming it (no partial answers). A request with
 * the header {@value PeerClient#FORWARDED_HEADER} (sent by the instances to each other) or the
 * parameter {@code local=true} is answered from this instance's stores only. {@code /metrics},
 * {@code /health} and {@code /ready} are per instance: each exports the windows it computes.
 * Until {@link #serve} is called (the API listens before Kafka Streams is created, to learn its port
 * for {@code application.server}) the query routes answer 503.
 */
public final class ApiServer implements AutoCloseable {
    /** The error of the query routes until {@link #serve} is called. */
    static final String STARTING = "the aggregator is starting";

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final MonitoringMetrics metrics;
    private final Clock clock;
    private final String dashboard = DashboardPage.render();
    private final PeerClient peers;
    private final String slos;
    private volatile ClusterQueries cluster;
    private HttpServer server;

    private ApiServer(Vertx vertx, boolean ownsVertx, MonitoringMetrics metrics, Clock clock, List<Slo> slos) {
        this.slos = ApiJson.slosJson(slos);
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
        this.metrics = metrics;
        this.clock = clock;
        this.peers = new PeerClient(vertx);
    }

    /**
     * Starts the server and waits until it listens.
     *
     * @param config  bind address and port; not null
     * @param queries store queries; not null
     * @param metrics metrics to expose on /metrics; not null
     * @return the running server
     * @throws IllegalStateException when the port cannot be bound (the message names host and port)
     */
    public static ApiServer start(ApiConfig config, QueryService queries, MonitoringMetrics metrics) {
        return start(config, queries, metrics, List.of());
    }

    /**
     * Starts the server and waits until it listens.
     *
     * @param config  bind address and port; not null
     * @param queries store queries; not null
     * @param metrics metrics to expose on /metrics; not null
     * @param slos    the SLOs the aggregator evaluates, answered by {@code /api/slos}; not null (may be empty)
     * @return the running server
     * @throws IllegalStateException when the port cannot be bound (the message names host and port)
     */
    public static ApiServer start(ApiConfig config, QueryService queries, MonitoringMetrics metrics, List<Slo> slos) {
        Objects.requireNonNull(queries, "queries");
        ApiServer api = listen(config, metrics, slos);
        api.serve(queries, InstanceLocator.alone());
        return api;
    }

    /**
     * Starts the server and waits until it listens; its query routes and {@code /ready} answer 503
     * ("starting") until {@link #serve} is called, {@code /health} and {@code /metrics} answer at once.
     *
     * @param config  bind address and port; not null
     * @param metrics metrics to expose on /metrics; not null
     * @return the listening server
     * @throws IllegalStateException when the port cannot be bound (the message names host and port)
     */
    public static ApiServer listen(ApiConfig config, MonitoringMetrics metrics) {
        return listen(config, metrics, List.of());
    }

    /**
     * Starts the server and waits until it listens; its query routes and {@code /ready} answer 503
     * ("starting") until {@link #serve} is called, {@code /health}, {@code /metrics} and {@code /api/slos}
     * answer at once.
     *
     * @param config  bind address and port; not null
     * @param metrics metrics to expose on /metrics; not null
     * @param slos    the SLOs the aggregator evaluates, answered by {@code /api/slos}; not null (may be empty)
     * @return the listening server
     * @throws IllegalStateException when the port cannot be bound (the message names host and port)
     */
    public static ApiServer listen(ApiConfig config, MonitoringMetrics metrics, List<Slo> slos) {
        ApiServer api = new ApiServer(Vertx.vertx(), true, Objects.requireNonNull(metrics), Clock.systemUTC(),
                Objects.requireNonNull(slos, "slos"));
        try {
            // HTTP/1.1 only: with Vert.x's default h2c upgrade a JDK HttpClient (HTTP/2 by default) intermittently read
            // the 2 MB dashboard page as a broken HTTP/2 frame ("Frame type(116) ... exceeds MAX_FRAME_SIZE", CI)
            api.server = api.vertx.createHttpServer(new io.vertx.core.http.HttpServerOptions()
                    .setHttp2ClearTextEnabled(false)).requestHandler(api.router())
                    .listen(config.port(), config.host()).await();
        } catch (Exception e) {
            api.close();
            throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        return api;
    }

    /**
     * Starts answering queries.
     *
     * @param queries this instance's stores; not null
     * @param locator which instance holds what ({@link InstanceLocator#alone()} for a lone instance); not null
     * @throws IllegalStateException when already serving
     */
    public synchronized void serve(QueryService queries, InstanceLocator locator) {
        if (cluster != null) {
            throw new IllegalStateException("already serving");
        }
        cluster = new ClusterQueries(vertx, queries, locator, peers);
    }

    /** @return the port the server listens on */
    public int port() {
        return server.actualPort();
    }

    private Router router() {
        Router router = Router.router(vertx);
        router.get("/health").handler(ctx -> ctx.response().putHeader("content-type", JSON).end("{\"status\":\"UP\"}"));
        router.get("/ready").handler(ctx -> {
            ClusterQueries c = cluster;
            String reason = c == null ? STARTING : c.local().notReadyReason();
            JsonObject body = new JsonObject().put("ready", reason == null);
            if (reason != null) {
                body.put("reason", reason);
            }
            ctx.response().setStatusCode(reason == null ? 200 : 503).putHeader("content-type", JSON).end(body.encode());
        });
        router.get("/metrics").handler(ctx -> blocking(ctx, metrics::scrape, "text/plain; version=0.0.4; charset=utf-8"));
        router.get("/").handler(ctx -> ctx.response().putHeader("content-type", HTML).end(dashboard));
        router.get("/runs/:id").handler(new RunPageRoute(vertx, () -> cluster));
        router.get("/api/slos").handler(ctx -> ctx.response().putHeader("content-type", JSON).end(slos));
        router.get("/api/runs").handler(ctx -> withCluster(ctx, c -> c.range(AggregatorTopology.REPORTS_STORE,
                () -> ApiJson.runHeaders(c.local().runs()), "/api/runs", JsonArrayMerge.RUNS, localOnly(ctx))));
        router.get("/api/runs/:id").handler(ctx -> whenServing(ctx, c -> c.artifact(ctx.pathParam("id"), localOnly(ctx))
                .onSuccess(r -> {
                    if (r.contentType() != null) {
                        ctx.response().putHeader("content-type", r.contentType());
                    }
                    ctx.response().setStatusCode(r.status()).end(r.body());
                }).onFailure(e -> fail(ctx, e))));
        router.get("/api/summaries").handler(ctx -> {
            long[] range = ApiParams.range(ctx, clock);
            if (range == null) {
                return;
            }
            String target = blankToNull(ctx.queryParams().get("target"));
            String model = blankToNull(ctx.queryParams().get("model"));
            String peerQuery = "/api/summaries?from=" + range[0] + "&to=" + range[1]
                    + (target == null ? "" : "&target=" + encode(target)) + (model == null ? "" : "&model=" + encode(model));
            withCluster(ctx, c -> c.range(WindowTopology.SUMMARIES_STORE,
                    () -> ApiJson.toJsonArray(c.local().summaries(target, model, range[0], range[1])), peerQuery,
                    JsonArrayMerge.SUMMARIES, localOnly(ctx)));
        });
        router.get("/api/alerts").handler(ctx -> {
            long[] range = ApiParams.range(ctx, clock);
            if (range == null) {
                return;
            }
            withCluster(ctx, c -> ApiParams.flag(ctx, "active")
                    ? c.range(SloTopology.STATE_STORE, () -> ApiJson.toJsonArray(c.local().activeBreaches()),
                            "/api/alerts?active=true", JsonArrayMerge.ACTIVE_BREACHES, localOnly(ctx))
                    : c.range(SloTopology.HISTORY_STORE, () -> ApiJson.toJsonArray(c.local().alerts(range[0], range[1])),
                            "/api/alerts?from=" + range[0] + "&to=" + range[1], JsonArrayMerge.ALERTS, localOnly(ctx)));
        });
        router.get("/api/changes").handler(ctx -> {
            long[] range = ApiParams.range(ctx, clock);
            if (range == null) {
                return;
            }
            withCluster(ctx, c -> c.range(ChangeTopology.HISTORY_STORE,
                    () -> ApiJson.toJsonArray(c.local().changes(range[0], range[1])),
                    "/api/changes?from=" + range[0] + "&to=" + range[1], JsonArrayMerge.CHANGES, localOnly(ctx)));
        });
        return router;
    }

    /** Runs a JSON query once {@link #serve} was called (else 503) and writes its answer. */
    private void withCluster(RoutingContext ctx, Function<ClusterQueries, Future<String>> query) {
        whenServing(ctx, c -> query.apply(c).onComplete(ar -> {
            if (ar.failed()) {
                fail(ctx, ar.cause());
            } else {
                json(ctx, ar.result());
            }
        }));
    }

    /** Runs {@code answer} (which writes the response) once {@link #serve} was called, else answers 503. */
    private void whenServing(RoutingContext ctx, Consumer<ClusterQueries> answer) {
        ClusterQueries c = cluster;
        if (c == null) {
            error(ctx, 503, STARTING);
            return;
        }
        try {
            answer.accept(c);
        } catch (RuntimeException e) {
            fail(ctx, e);
        }
    }

    private void blocking(RoutingContext ctx, Callable<String> body, String contentType) {
        vertx.executeBlocking(body).onComplete(ar -> {
            if (ar.failed()) {
                fail(ctx, ar.cause());
            } else {
                ctx.response().putHeader("content-type", contentType).end(ar.result());
            }
        });
    }

    @Override
    public void close() {
        peers.close();
        Future<Void> closing = server == null ? Future.succeededFuture() : server.close();
        try {
            closing.await();
        } catch (Exception ignored) {
            // closing anyway
        }
        if (ownsVertx) {
            try {
                vertx.close().await();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }
}
