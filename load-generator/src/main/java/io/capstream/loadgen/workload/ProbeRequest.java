package io.capstream.loadgen.workload;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * One pre-flight HTTP exchange with the endpoint (the {@code GET /models} probe and the checks of
 * {@link EndpointPreflight}): a fresh connection, the run's Authorization and {@code -H} headers, a
 * {@link #TIMEOUT_MS} bound on the whole exchange. Its future never fails: the outcome is an
 * {@link Answer} with either a status and body or the failure. Stateless.
 */
public final class ProbeRequest {
    /** Bound of one exchange (connect, response and body), ms (spec §2.1's 15 s). */
    public static final long TIMEOUT_MS = 15_000;
    /** Bound of the TCP connect within it, ms: shorter, so that a connect timeout is told apart. */
    public static final long CONNECT_TIMEOUT_MS = 10_000;

    private ProbeRequest() {
    }

    /**
     * What one exchange gave.
     *
     * @param status  the HTTP status, or 0 when no response arrived
     * @param body    the body of a 2xx response, else null
     * @param failure why no response arrived (connect error, TLS error, {@link TimeoutException} after
     *                {@link #TIMEOUT_MS}, closed connection), or null when one did
     */
    public record Answer(int status, Buffer body, Throwable failure) {
        /** @return whether a 2xx response arrived */
        public boolean ok() {
            return status / 100 == 2;
        }
    }

    /**
     * @param vertx   Vert.x instance (the exchange runs on one of its contexts)
     * @param method  GET or POST
     * @param url     absolute URL, without user-info
     * @param body    request body (sent as JSON), or null for none
     * @param apiKey  key for the Authorization header; not null
     * @param headers extra headers, in order; not null
     * @return the answer; the future never fails
     */
    public static Future<Answer> send(Vertx vertx, HttpMethod method, String url, String body, ApiKey apiKey,
                                      List<ExtraHeader> headers) {
        return send(vertx, method, url, body, apiKey, headers, ClientTls.DEFAULT);
    }

    /**
     * As {@link #send(Vertx, HttpMethod, String, String, ApiKey, List)}, checking an https endpoint's certificate
     * as {@code tls} says.
     *
     * @param vertx   Vert.x instance
     * @param method  GET or POST
     * @param url     absolute URL, without user-info
     * @param body    request body (sent as JSON), or null for none
     * @param apiKey  key for the Authorization header; not null
     * @param headers extra headers, in order; not null
     * @param tls     the run's {@code --insecure} / {@code --ca-cert}; not null
     * @return the answer; the future never fails
     */
    public static Future<Answer> send(Vertx vertx, HttpMethod method, String url, String body, ApiKey apiKey,
                                      List<ExtraHeader> headers, ClientTls tls) {
        Promise<Answer> result = Promise.promise();
        // The whole exchange runs on one Vert.x context. Started from a thread outside Vert.x, each
        // call got a fresh context and the response's end could be delivered before body() was
        // attached, so the body future never completed (about 1 probe in 3,000, Vert.x 5.0.7).
        Context context = vertx.getOrCreateContext();
        context.runOnContext(v -> start(vertx, method, url, body, apiKey, headers, tls, result));
        return result.future();
    }

    private static void start(Vertx vertx, HttpMethod method, String url, String body, ApiKey apiKey,
                              List<ExtraHeader> headers, ClientTls tls, Promise<Answer> result) {
        HttpClient client;
        RequestOptions ro;
        try {
            client = vertx.createHttpClient(tls.apply(new HttpClientOptions().setConnectTimeout((int) CONNECT_TIMEOUT_MS)
                    .setKeepAlive(false)));
            ro = new RequestOptions().setMethod(method).setAbsoluteURI(url)
                    .setConnectTimeout(CONNECT_TIMEOUT_MS).setIdleTimeout(TIMEOUT_MS);
            apiKey.authorizationHeader().ifPresent(h -> ro.putHeader("Authorization", h));
            ro.putHeader("User-Agent", "capstream");
            if (body != null) {
                ro.putHeader("Content-Type", "application/json");
            }
            ExtraHeader.apply(headers, ro.getHeaders());
        } catch (RuntimeException e) {
            result.tryComplete(new Answer(0, null, e));
            return;
        }
        long timer = vertx.setTimer(TIMEOUT_MS, t -> result.tryComplete(new Answer(0, null,
                new TimeoutException("no answer within " + TIMEOUT_MS + " ms"))));
        Future<HttpClientRequest> request;
        try {
            request = client.request(ro);
        } catch (RuntimeException e) { // an address Vert.x cannot use (port out of range)
            vertx.cancelTimer(timer);
            result.tryComplete(new Answer(0, null, e));
            client.close();
            return;
        }
        request
                .compose(req -> body == null ? req.send() : req.send(Buffer.buffer(body)))
                .compose(resp -> resp.statusCode() / 100 == 2
                        ? resp.body().map(b -> new Answer(resp.statusCode(), b, null))
                        : Future.succeededFuture(new Answer(resp.statusCode(), null, null)))
                .onComplete(ar -> {
                    vertx.cancelTimer(timer);
                    result.tryComplete(ar.succeeded() ? ar.result() : new Answer(0, null, ar.cause()));
                    client.close();
                });
    }
}
