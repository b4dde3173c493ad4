package io.capstream.aggregator.api;

import io.capstream.aggregator.html.HtmlPage;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;

/**
 * How the {@link ApiServer} writes its answers: JSON bodies, JSON errors ({@code {"error": "..."}}: 400 for a
 * bad parameter, 503 while not ready, 500 otherwise) and the self-contained HTML error page of {@code /runs/{id}}. Stateless.
 */
final class ApiResponses {
    static final String JSON = "application/json";
    static final String HTML = "text/html; charset=utf-8";

    private ApiResponses() {
    }

    /** Answers 200 with a JSON body. */
    static void json(RoutingContext ctx, String body) {
        ctx.response().putHeader("content-type", JSON).end(body);
    }

    /**
     * Answers a failed query: 400 for a bad parameter ({@link ApiParams.BadParameterException}), 503 when the stores
     * are not ready ({@link QueryService.NotReadyException}), else 500.
     */
    static void fail(RoutingContext ctx, Throwable cause) {
        if (cause instanceof ApiParams.BadParameterException) {
            error(ctx, 400, cause.getMessage());
        } else if (cause instanceof QueryService.NotReadyException) {
            error(ctx, 503, cause.getMessage());
        } else {
            error(ctx, 500, String.valueOf(cause));
        }
    }

    /** Answers {@code status} with {@code {"error": message}}. */
    static void error(RoutingContext ctx, int status, String message) {
        ctx.response().setStatusCode(status).putHeader("content-type", JSON)
                .end(new JsonObject().put("error", message).encode());
    }

    /** An HTML error page (self-contained, text escaped) linking back to the dashboard. */
    static void htmlError(RoutingContext ctx, int status, String title, String message) {
        ctx.response().setStatusCode(status).putHeader("content-type", HTML)
                .end("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\">"
                        + "<title>" + HtmlPage.escape(title) + "</title></head><body><h1>" + HtmlPage.escape(title) + "</h1><p>"
                        + HtmlPage.escape(message) + "</p><p><a href=\"../\">capstream live dashboard</a></p></body></html>\n");
    }

    /** @return the {@code error} of a JSON error answer, else its body */
    static String errorText(PeerResponse r) {
        String body = r.body().toString(StandardCharsets.UTF_8);
        try {
            return new JsonObject(body).getString("error", body);
        } catch (RuntimeException e) {
            return "HTTP " + r.status() + ": " + body;
        }
    }
}
