package io.capstream.loadgen.sim;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Test helper: posts a chat request and records every SSE data line with its arrival time. */
final class SseProbe {
    /** One received data line. @param data text after "data: " @param atNs ns after the request was sent */
    record Line(String data, long atNs) {
    }

    /** What a request got. */
    record Result(int status, String retryAfter, List<Line> lines, long endNs, Throwable error) {
        List<JsonObject> json() {
            List<JsonObject> out = new ArrayList<>();
            for (Line l : lines) {
                if (!l.data().equals("[DONE]")) {
                    try {
                        out.add(new JsonObject(l.data()));
                    } catch (RuntimeException e) {
                        // malformed line: skipped like a client does
                    }
                }
            }
            return out;
        }

        long firstContentNs() {
            for (Line l : lines) {
                if (l.data().contains("\"content\":\"") && !l.data().contains("\"content\":\"\"")) {
                    return l.atNs();
                }
            }
            return -1;
        }

        long maxGapNs() {
            long max = 0;
            for (int i = 1; i < lines.size(); i++) {
                max = Math.max(max, lines.get(i).atNs() - lines.get(i - 1).atNs());
            }
            return max;
        }
    }

    static HttpClient client(Vertx vertx) {
        return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false), new io.vertx.core.http.PoolOptions()
                .setHttp1MaxSize(10_000));
    }

    static JsonObject body(String prompt, int maxTokens, boolean stream) {
        JsonObject b = new JsonObject().put("model", "capstream-sim")
                .put("messages", new io.vertx.core.json.JsonArray().add(new JsonObject().put("role", "user").put("content", prompt)))
                .put("max_tokens", maxTokens).put("temperature", 0.0).put("stream", stream);
        if (stream) {
            b.put("stream_options", new JsonObject().put("include_usage", true));
        }
        return b;
    }

    static Future<Result> post(HttpClient client, int port, JsonObject body) {
        return post(client, port, "/v1/chat/completions", body);
    }

    static Future<Result> post(HttpClient client, int port, String path, JsonObject body) {
        long t0 = System.nanoTime();
        List<Line> lines = new ArrayList<>();
        StringBuilder partial = new StringBuilder();
        return client.request(HttpMethod.POST, port, "127.0.0.1", path)
                .compose(req -> req.putHeader("content-type", "application/json").send(body.toBuffer()))
                .compose(resp -> {
                    int status = resp.statusCode();
                    String retry = resp.getHeader("retry-after");
                    Buffer all = Buffer.buffer();
                    try {
                        resp.handler(buf -> {
                        long now = System.nanoTime() - t0;
                        all.appendBuffer(buf);
                        partial.append(buf.toString());
                        int nl;
                        while ((nl = partial.indexOf("\n")) >= 0) {
                            String line = partial.substring(0, nl).trim();
                            partial.delete(0, nl + 1);
                            if (line.startsWith("data:")) {
                                lines.add(new Line(line.substring(5).trim(), now));
                            }
                        }
                        });
                    } catch (IllegalStateException ended) {
                        // a short answer (e.g. an injected 500) can end before this composed callback runs:
                        // its status is all there is to report (this raced in CI: faultsAreReproducibleForASeed)
                        return Future.succeededFuture(new Result(status, retry, lines, System.nanoTime() - t0, null));
                    }
                    return resp.end().map(v -> new Result(status, retry,
                                    status == 200 && lines.isEmpty() ? List.of(new Line(all.toString(), 0)) : lines,
                                    System.nanoTime() - t0, null))
                            .recover(err -> Future.succeededFuture(
                                    new Result(status, retry, lines, System.nanoTime() - t0, err)));
                });
    }
}
