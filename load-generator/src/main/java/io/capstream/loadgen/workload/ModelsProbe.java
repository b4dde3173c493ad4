package io.capstream.loadgen.workload;

import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

/**
 * The context-window probe (spec §2.1): {@code GET <base>/models} with a 15 s timeout, picks the
 * {@code data[]} element whose {@code id} equals the model (else the first object element) and
 * returns the first positive integer among {@code max_model_len}, {@code max_context_length} and
 * {@code context_length}; else, as llama.cpp's {@code llama-server} gives it, {@code meta.n_ctx} (the context a request
 * gets: the server's {@code -c} divided among its slots) or {@code meta.n_ctx_train} (the model's trained context),
 * a deviation from the reference, which leaves such a window unknown. {@code run} and {@code check} both read the
 * window here. Every failure (refused, HTTP error, bad JSON, timeout) yields null, silently.
 */
public final class ModelsProbe {
    /** Probe timeout, ms (spec §2.1). */
    public static final long TIMEOUT_MS = ProbeRequest.TIMEOUT_MS;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] KEYS = {"max_model_len", "max_context_length", "context_length"};
    /** llama.cpp's {@code data[].meta} keys, in order: the served context per slot, then the trained one. */
    private static final String[] LLAMA_META_KEYS = {"n_ctx", "n_ctx_train"};

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
        String url;
        try {
            url = stripSlash(baseUrl) + "/models";
        } catch (RuntimeException e) {
            return Future.succeededFuture(null);
        }
        return ProbeRequest.send(vertx, HttpMethod.GET, url, null, apiKey, headers)
                .map(a -> a.ok() ? parse(a.body(), model) : null);
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
            Integer window = firstPositive(chosen, KEYS);
            return window != null ? window : firstPositive(chosen.path("meta"), LLAMA_META_KEYS);
        } catch (Exception e) {
            return null;
        }
    }

    /** @return the first of {@code keys} of {@code node} that is a positive int, or null */
    private static Integer firstPositive(JsonNode node, String[] keys) {
        for (String k : keys) {
            JsonNode v = node.get(k);
            if (v != null && v.isIntegralNumber() && v.canConvertToInt() && v.intValue() > 0) {
                return v.intValue();
            }
        }
        return null;
    }

    /**
     * The model ids a {@code /models} response lists, for the {@code --model} check.
     *
     * @param body response body, or null
     * @return the textual {@code id}s of the {@code data[]} objects, in order; empty when the body is not a
     *         {@code /models} list (or lists no id); never null
     */
    public static List<String> modelIds(Buffer body) {
        List<String> ids = new java.util.ArrayList<>();
        if (body == null) {
            return ids;
        }
        try {
            JsonNode data = JSON.readTree(body.getBytes()).path("data");
            for (JsonNode e : data) {
                if (e.isObject() && e.path("id").isTextual()) {
                    ids.add(e.get("id").asText());
                }
            }
        } catch (Exception e) {
            ids.clear();
        }
        return ids;
    }

    /**
     * @param baseUrl a base URL
     * @return it without one trailing "/"
     */
    public static String stripSlash(String baseUrl) {
        return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }
}
