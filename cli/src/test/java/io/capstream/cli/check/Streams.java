package io.capstream.cli.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.client.ProbeExchange;
import io.capstream.loadgen.client.SseItem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test exchanges made from SSE text, as {@link io.capstream.loadgen.client.StreamProbe} would read them. */
final class Streams {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Streams() {
    }

    /** @param lines SSE lines (data:, : comments, [DONE]) @return a 200 text/event-stream exchange */
    static ProbeExchange sse(String... lines) {
        List<SseItem> items = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(":")) {
                items.add(SseItem.line(SseItem.Kind.COMMENT, l));
            } else if (l.equals("data: [DONE]")) {
                items.add(new SseItem(SseItem.Kind.DONE, null, null));
            } else {
                try {
                    items.add(SseItem.data(JSON.readTree(l.substring("data: ".length()))));
                } catch (Exception e) {
                    throw new IllegalArgumentException(l, e);
                }
            }
        }
        return new ProbeExchange(200, "text/event-stream", Map.of(), items,
                String.join("\n\n", lines).getBytes(StandardCharsets.UTF_8), null);
    }

    /** @return an exchange with this status, content type and body */
    static ProbeExchange body(int status, String contentType, String body) {
        return new ProbeExchange(status, contentType, Map.of(), List.of(), body.getBytes(StandardCharsets.UTF_8), null);
    }

    static String role() {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}";
    }

    static String content(String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
    }

    static String reasoning(String field, String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"" + field + "\":\"" + text + "\"}}]}";
    }

    static String usage(int completion, int cached) {
        return "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":" + completion
                + ",\"prompt_tokens_details\":{\"cached_tokens\":" + cached + "}}}";
    }

    /** A normal stream: role, two content chunks, usage (when asked), [DONE]. */
    static ProbeExchange normal(boolean usage, int cached) {
        return usage ? sse(role(), content("Hi"), content(" there"), usage(2, cached), "data: [DONE]")
                : sse(role(), content("Hi"), content(" there"), "data: [DONE]");
    }

    /** @return observations where every request got a normal stream and /models gives 4096 */
    static Observations normalObservations() {
        return new Observations(normal(true, 0), normal(true, 90), normal(false, 0), normal(true, 0), normal(true, 0),
                body(400, "application/json", "{\"error\":{\"message\":\"the request exceeds the available context"
                        + " size\",\"n_ctx\":4096}}"),
                body(200, "application/json", "{\"data\":[{\"id\":\"m\",\"max_model_len\":4096}]}"),
                body(200, "text/plain", "# HELP x y\n# TYPE x counter\nx 1\n"));
    }
}
