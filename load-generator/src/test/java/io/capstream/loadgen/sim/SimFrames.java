package io.capstream.loadgen.sim;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Test helper: posts a body to the sim and splits an SSE answer into its frames ({@code event:} and {@code data:}). */
final class SimFrames {
    /** One SSE frame. @param event its {@code event:} name, or null @param data its {@code data:} text */
    record Frame(String event, String data) {
        JsonObject json() {
            return new JsonObject(data);
        }
    }

    /** A whole answer. @param status HTTP status @param headers content type @param body the body text */
    record Answer(int status, String contentType, String retryAfter, String body) {
        List<Frame> frames() {
            return parse(body);
        }

        JsonObject json() {
            return new JsonObject(body);
        }

        /** @return the {@code data:} JSON of every frame, in order */
        List<JsonObject> events() {
            return frames().stream().map(Frame::json).collect(Collectors.toList());
        }

        /** @return the {@code type} of every frame's JSON, in order */
        List<String> types() {
            return events().stream().map(e -> e.getString("type")).collect(Collectors.toList());
        }

        /** @return the frames' JSON of that type */
        List<JsonObject> ofType(String type) {
            return events().stream().filter(e -> type.equals(e.getString("type"))).collect(Collectors.toList());
        }
    }

    private SimFrames() {
    }

    static List<Frame> parse(String body) {
        List<Frame> out = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line : block.split("\n")) {
                if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                }
            }
            if (event != null || data.length() > 0) {
                out.add(new Frame(event, data.toString()));
            }
        }
        return out;
    }

    static Answer post(Vertx vertx, int port, String path, JsonObject body) throws Exception {
        Future<HttpResponse<Buffer>> f = WebClient.create(vertx).post(port, "127.0.0.1", path)
                .putHeader("anthropic-version", "2023-06-01").sendJsonObject(body);
        HttpResponse<Buffer> r = f.await(30, TimeUnit.SECONDS);
        return new Answer(r.statusCode(), r.getHeader("content-type"), r.getHeader("retry-after"),
                r.body() == null ? "" : r.body().toString());
    }

    static JsonObject user(String text) {
        return new JsonObject().put("role", "user").put("content", text);
    }

    static JsonArray array(Object... items) {
        JsonArray a = new JsonArray();
        for (Object i : items) {
            a.add(i);
        }
        return a;
    }

    /** A prompt of {@code chars} characters that no other prompt of the test starts with. */
    static String text(String tag, int chars) {
        StringBuilder b = new StringBuilder(tag).append(' ');
        while (b.length() < chars) {
            b.append("word").append(b.length() % 97).append(' ');
        }
        return b.substring(0, chars);
    }
}
