package io.capstream.schemas.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * A Confluent-style registry over HTTP for outage tests (in the schemas test-jar, for every
 * module): it serves an in-memory registry scope ({@link MockSchemaRegistry}) with
 * {@code GET /schemas/ids/{id}} (404 with error_code 40403 for an unknown id), {@code GET /subjects},
 * {@code POST /subjects/{s}/versions} (register) and {@code POST /subjects/{s}} (look up), and
 * answers HTTP 503 to every request while it is {@link #down(boolean) down} or for the next
 * {@link #failNext} requests. At every request it records the path and what {@code observer}
 * reports at that moment (e.g. the registry health the decoder reported before retrying).
 */
public final class OutageRegistry implements AutoCloseable {
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final MockSchemaRegistry schemas;
    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
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

    /** @param value true: answer 503 to every request until set false again */
    public void down(boolean value) {
        down.set(value);
    }

    /** @return how many requests were answered 503 so far */
    public int refused() {
        return refused.get();
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
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        paths.add(path);
        observed.add(String.valueOf(observer.get()));
        if (down.get() || failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            refused.incrementAndGet();
            send(ex, 503, "{\"error_code\":50301,\"message\":\"registry down for the test\"}");
            return;
        }
        try {
            if ("GET".equals(method) && path.startsWith("/schemas/ids/")) {
                Schema s = schemas.getById(Integer.parseInt(path.substring("/schemas/ids/".length())));
                send(ex, 200, json.createObjectNode().put("schema", s.toString()).toString());
            } else if ("GET".equals(method) && path.equals("/subjects")) {
                send(ex, 200, "[]");
            } else if ("POST".equals(method) && path.startsWith("/subjects/")) {
                boolean register = path.endsWith("/versions");
                String subject = path.substring("/subjects/".length(),
                        register ? path.length() - "/versions".length() : path.length());
                Schema schema = new Schema.Parser().parse(json.readTree(body).get("schema").asText());
                int id = register ? schemas.register(subject, schema) : schemas.getId(subject, schema);
                send(ex, 200, json.createObjectNode().put("id", id).toString());
            } else {
                send(ex, 404, "{\"error_code\":404,\"message\":\"not supported by the stub\"}");
            }
        } catch (SchemaRegistryException e) {
            send(ex, e.status() > 0 ? e.status() : 404, json.createObjectNode()
                    .put("error_code", e.errorCode() > 0 ? e.errorCode() : 40403)
                    .put("message", String.valueOf(e.getMessage())).toString());
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
