package io.capstream.schemas.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A tiny scripted HTTP server for registry client tests: answers queued responses in order (the
 * last one repeats) and records every request.
 */
final class StubRegistryServer implements AutoCloseable {
    /** One recorded request. */
    record Request(String method, String uri, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    /** One scripted response; {@code hang} = never answer (the client times out). */
    record Response(int status, String body, boolean hang) {
    }

    private final HttpServer server;
    private final Deque<Response> script = new ArrayDeque<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    StubRegistryServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stub-registry");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized StubRegistryServer respond(int status, String body) {
        script.add(new Response(status, body, false));
        return this;
    }

    synchronized StubRegistryServer hang() {
        script.add(new Response(0, null, true));
        return this;
    }

    List<Request> requests() {
        return requests;
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().toString(), Map.copyOf(ex.getRequestHeaders()), body));
        Response r;
        synchronized (this) {
            r = script.size() > 1 ? script.poll() : script.peek();
        }
        if (r == null) {
            r = new Response(500, "{\"error_code\":50001,\"message\":\"no scripted response\"}", false);
        }
        if (r.hang()) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        }
        byte[] bytes = r.body() == null ? new byte[0] : r.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
