package io.capstream.aggregator.otlp;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local OTLP/HTTP metrics receiver for tests: a JDK HTTP server on 127.0.0.1 and a free port that keeps the body and
 * headers of every {@code POST /v1/metrics}, decoded with the official {@code opentelemetry-proto} classes, and
 * answers 200 with an empty {@code ExportMetricsServiceResponse}.
 */
final class OtlpReceiver implements AutoCloseable {
    /** One post. */
    record Post(ExportMetricsServiceRequest request, byte[] body, Map<String, List<String>> headers) {
    }

    private final HttpServer server;
    private final List<Post> posts = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/metrics", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                if ("POST".equals(exchange.getRequestMethod())) {
                    posts.add(new Post(ExportMetricsServiceRequest.parseFrom(body), body,
                            Map.copyOf(exchange.getRequestHeaders())));
                }
                byte[] reply = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, reply.length == 0 ? -1 : reply.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(reply);
                }
            }
        });
        server.start();
    }

    /** @return e.g. {@code http://127.0.0.1:41234} (no path) */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** @return the posts so far, oldest first */
    List<Post> posts() {
        return List.copyOf(posts);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
