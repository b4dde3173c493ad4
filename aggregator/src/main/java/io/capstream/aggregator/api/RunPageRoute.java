package io.capstream.aggregator.api;

import static io.capstream.aggregator.api.ApiResponses.HTML;
import static io.capstream.aggregator.api.ApiResponses.htmlError;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.aggregator.html.RunPage;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * {@code GET /runs/{id}} (also {@code /runs/{id}.html}): renders the run's artifact, looked up like
 * {@code /api/runs/{id}} on the owning instance, as its HTML page ({@link RunPage#render}) off the event
 * loop; an HTML error page with 400 for a bad {@code local}, 404 if unknown, 503 while not available yet, 502 when the owner answered
 * otherwise, 500 on a failure here.
 */
final class RunPageRoute implements Handler<RoutingContext> {
    private static final String HTML_SUFFIX = ".html";

    private final Vertx vertx;
    private final Supplier<ClusterQueries> cluster;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param vertx   renders on its worker pool; not null
     * @param cluster the queries, null until the server serves; not null
     */
    RunPageRoute(Vertx vertx, Supplier<ClusterQueries> cluster) {
        this.vertx = vertx;
        this.cluster = cluster;
    }

    @Override
    public void handle(RoutingContext ctx) {
        String param = ctx.pathParam("id");
        String id = param.endsWith(HTML_SUFFIX) && param.length() > HTML_SUFFIX.length()
                ? param.substring(0, param.length() - HTML_SUFFIX.length()) : param;
        ClusterQueries c = cluster.get();
        Future<PeerResponse> lookup;
        try {
            lookup = c == null
                    ? Future.failedFuture(new QueryService.NotReadyException(ApiServer.STARTING, null))
                    : c.artifact(id, ApiParams.localOnly(ctx));
        } catch (ApiParams.BadParameterException e) {
            htmlError(ctx, 400, "Bad parameter", e.getMessage());
            return;
        }
        lookup.compose(r -> r.status() == 200
                ? vertx.executeBlocking(() -> new PeerResponse(200, HTML, Buffer.buffer(
                        RunPage.render(json.readTree(r.body().getBytes())), "UTF-8")))
                : Future.succeededFuture(r)).onComplete(ar -> {
                    if (ar.failed()) {
                        boolean notReady = ar.cause() instanceof QueryService.NotReadyException;
                        htmlError(ctx, notReady ? 503 : 500, notReady ? "Not available yet" : "Cannot show run " + id,
                                notReady ? ar.cause().getMessage() + " (retry in a few seconds)" : String.valueOf(ar.cause()));
                    } else if (ar.result().status() == 200) {
                        ctx.response().putHeader("content-type", HTML).end(ar.result().body());
                    } else if (ar.result().status() == 404) {
                        htmlError(ctx, 404, "Unknown run", "no report for run " + id);
                    } else if (ar.result().status() == 503) {
                        htmlError(ctx, 503, "Not available yet",
                                ApiResponses.errorText(ar.result()) + " (retry in a few seconds)");
                    } else {
                        htmlError(ctx, 502, "Cannot show run " + id, ApiResponses.errorText(ar.result()));
                    }
                });
    }
}
