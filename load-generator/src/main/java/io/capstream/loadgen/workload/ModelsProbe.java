package io.capstream.loadgen.workload;

import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * The context-window probe (spec §2.1): {@code GET <base>/models} with a 15 s timeout, picks the
 * {@code data[]} element whose {@code id} equals the model (else the first object element) and
 * returns the first positive integer among {@code max_model_len}, {@code max_context_length} and
 * {@code context_length}. Every failure (refused, HTTP error, bad JSON, timeout) yields null, silently.
 */
public final class ModelsProbe {
    /** Probe timeout, ms (spec §2.1). */
    public static final long TIMEOUT_MS = 15_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] KEYS = {"max_model_len", "max_context_length", "context_length"};

    private ModelsProbe() {
    }

    /**
     * @param vertx   Vert.x instance
     * @param baseUrl endpoint base URL (a trailing "/" is removed)
     * @param model   model id to look for
     * @param apiKey  key for the Authorization header
     * @return a future with the window in tokens, or null when unknown; it never fails
     */
    public static Future<Integer> probe(Vertx vertx, String baseUrl, String model, ApiKey apiKey) {
        return probe(vertx, baseUrl, model, apiKey, List.of());
    }

    /**
     * As {@link #probe(Vertx, String, String, ApiKey)}, also sending the run's {@code -H} headers.
     *
     * @param vertx   Vert.x instance
     * @param baseUrl endpoint base URL (a trailing "/" is removed)
     * @param model   model id to look for
     * @param apiKey  key for the Authorization header
     * @param headers extra headers, in order; not null
     * @return a future with the window in tokens, or null when unknown; it never fails
     */
    public static Future<Integer> probe(Vertx vertx, String baseUrl, String model, ApiKey apiKey,
                                        List<ExtraHeader> headers) {
        Promise<Integer> result = Promise.promise();
        // The whole exchange runs on one Vert.x context. Started from a thread outside Vert.x, each
        // call got a fresh context and the response's end could be delivered before body() was
        // attached, so the body future never completed (about 1 probe in 3,000, Vert.x 5.0.7).
        Context context = vertx.getOrCreateContext();
        context.runOnContext(v -> send(vertx, baseUrl, model, apiKey, headers, result));
        return result.future();
    }

    private static void send(Vertx vertx, String baseUrl, String model, ApiKey apiKey, List<ExtraHeader> headers,
                             Promise<Integer> result) {
        HttpClient client;
        RequestOptions ro;
        try {
            String url = stripSlash(baseUrl) + "/models";
            client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) TIMEOUT_MS)
                    .setKeepAlive(false));
            ro = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url)
                    .setConnectTimeout(TIMEOUT_MS).setIdleTimeout(TIMEOUT_MS);
            apiKey.authorizationHeader().ifPresent(h -> ro.putHeader("Authorization", h));
            ro.putHeader("User-Agent", "capstream");
            ExtraHeader.apply(headers, ro.getHeaders());
        } catch (RuntimeException e) {
            result.tryComplete(null);
            return;
        }
        long timer = vertx.setTimer(TIMEOUT_MS, t -> result.tryComplete(null));
        Future<io.vertx.core.http.HttpClientRequest> request;
        try {
            request = client.request(ro);
        } catch (RuntimeException e) { // an address Vert.x cannot use (port out of range): unknown window
            vertx.cancelTimer(timer);
            result.tryComplete(null);
            client.close();
            return;
        }
        request
                .compose(req -> req.send())
                .compose(resp -> resp.statusCode() / 100 == 2 ? resp.body() : Future.succeededFuture(null))
                .onComplete(ar -> {
                    vertx.cancelTimer(timer);
                    result.tryComplete(ar.succeeded() ? parse(ar.result(), model) : null);
                    client.close();
                });
    }

    /**
     * Extracts the window from a {@code /models} response body (spec §2.1).
     *
     * @param body  response body, or null
     * @param model model id
     * @return the window in tokens, or null
     */
    public static Integer parse(Buffer body, String model) {
        if (body == null) {
            return null;
        }
        try {
            JsonNode root = JSON.readTree(body.getBytes());
            JsonNode data = root == null ? null : root.get("data");
            if (data == null || !data.isArray()) {
                return null;
            }
            JsonNode chosen = null;
            for (JsonNode e : data) {
                if (e.isObject() && e.has("id") && e.get("id").isTextual() && e.get("id").asText().equals(model)) {
                    chosen = e;
                    break;
                }
            }
            if (chosen == null) {
                for (JsonNode e : data) {
                    if (e.isObject()) {
                        chosen = e;
                        break;
                    }
                }
            }
            if (chosen == null) {
                return null;
            }
            for (String k : KEYS) {
                JsonNode v = chosen.get(k);
                if (v != null && v.isIntegralNumber() && v.canConvertToInt() && v.intValue() > 0) {
                    return v.intValue();
                }
            }
            return null;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * @param baseUrl a base URL
     * @return it without one trailing "/"
     */
    public static String stripSlash(String baseUrl) {
        return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }
}
