package io.capstream.loadgen.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one HTTP exchange of {@code capstream check} ({@link StreamProbe}) gave: the status and headers, the body's SSE items (every body is read as an
 * event stream, whatever its Content-Type says) and the start of the raw body.
 *
 * @param status      the HTTP status, or 0 when no response arrived
 * @param contentType the Content-Type header, or null
 * @param headers     the response headers, names in lower case (the last value of each); never null
 * @param items       the body read as SSE, in arrival order; never null
 * @param body        the first {@value #MAX_BODY} bytes of the body; never null
 * @param failure     why no (complete) answer arrived, one line, or null
 */
public record ProbeExchange(int status, String contentType, Map<String, String> headers, List<SseItem> items, byte[] body,
                       String failure) {
    /** Bytes of the raw body kept. */
    public static final int MAX_BODY = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies the lists. */
    public ProbeExchange {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        items = items == null ? List.of() : List.copyOf(items);
        body = body == null ? new byte[0] : body;
    }

    /** @param failure why no answer arrived @return an exchange without a response */
    public static ProbeExchange failed(String failure) {
        return new ProbeExchange(0, null, Map.of(), List.of(), new byte[0], failure);
    }

    /** @return whether a response arrived with a 2xx status */
    public boolean ok() {
        return status / 100 == 2;
    }

    /** @return whether the Content-Type is {@code text/event-stream} */
    public boolean eventStream() {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    /** @return the body as text (its kept start) */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** @return the body parsed as one JSON value, or null when it is not JSON */
    public JsonNode bodyJson() {
        try {
            return body.length == 0 ? null : JSON.readTree(body);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * @param model the model id
     * @return the context window this {@code GET /models} answer gives ({@link io.capstream.loadgen.workload.ModelsProbe#parse}), or null
     */
    public Integer modelsWindow(String model) {
        return ok() ? io.capstream.loadgen.workload.ModelsProbe.parse(io.vertx.core.buffer.Buffer.buffer(body), model) : null;
    }

    /**
     * @return the model ids this {@code GET /models} answer lists ({@link io.capstream.loadgen.workload.ModelsProbe#modelIds}),
     *         in order; empty when it is not a 2xx list; never null
     */
    public List<String> modelIds() {
        return ok() ? io.capstream.loadgen.workload.ModelsProbe.modelIds(io.vertx.core.buffer.Buffer.buffer(body))
                : List.of();
    }

    /** @return the JSON payloads of the data items, in order */
    public List<JsonNode> chunks() {
        return items.stream().filter(i -> i.kind() == SseItem.Kind.DATA).map(SseItem::json).toList();
    }
}
