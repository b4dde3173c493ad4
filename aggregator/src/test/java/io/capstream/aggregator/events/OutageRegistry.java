package io.capstream.aggregator.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A registry over HTTP for outage tests: {@code GET /schemas/ids/{id}} answers from an in-memory
 * registry scope (200, or 404 with error_code 40403 for an unknown id), except that the next
 * {@link #failNext} requests get HTTP 503. At every request it records what {@code observer}
 * reports at that moment (e.g. the registry health the decoder reported before retrying).
 */
public final class OutageRegistry implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final MockSchemaRegistry schemas;
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final List<String> paths = new CopyOnWriteArrayList<>();
    private final List<String> observed = new CopyOnWriteArrayList<>();
    private volatile Supplier<String> observer = () -> "";

    /**
     * @param mockScope the in-memory registry scope whose schemas are served
     * @throws IOException when no loopback port can be bound
     */
    public OutageRegistry(String mockScope) throws IOException {
        schemas = MockSchemaRegistry.forScope(mockScope);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "outage-registry");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** @return the base URL, {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * @param n how many of the next requests are answered 503
     * @return this
     */
    public OutageRegistry failNext(int n) {
        failuresLeft.set(n);
        return this;
    }

    /**
     * @param what what to record at each request (called on the server's thread)
     * @return this
     */
    public OutageRegistry observe(Supplier<String> what) {
        observer = what;
        return this;
    }

    /** @return the path of every request so far */
    public List<String> paths() {
        return List.copyOf(paths);
    }

    /** @return what the observer said at each request, in order */
    public List<String> observed() {
        return List.copyOf(observed);
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        paths.add(path);
        observed.add(String.valueOf(observer.get()));
        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            send(ex, 503, "{\"error_code\":50301,\"message\":\"registry is starting\"}");
            return;
        }
        if (!"GET".equals(ex.getRequestMethod()) || !path.startsWith("/schemas/ids/")) {
            send(ex, 404, "{\"error_code\":404,\"message\":\"not supported by the stub\"}");
            return;
        }
        try {
            String schema = schemas.getById(Integer.parseInt(path.substring("/schemas/ids/".length()))).toString();
            send(ex, 200, JSON.createObjectNode().put("schema", schema).toString());
        } catch (SchemaRegistryException e) {
            send(ex, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops the server. */
    @Override
    public void close() {
        server.stop(0);
    }
}
