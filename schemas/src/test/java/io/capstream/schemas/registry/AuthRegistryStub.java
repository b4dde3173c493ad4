package io.capstream.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny working Confluent-style registry over HTTP (for tests in every module, shipped in the
 * schemas test-jar) that requires HTTP basic auth: {@code POST /subjects/{s}/versions} registers,
 * {@code POST /subjects/{s}} looks up, {@code GET /schemas/ids/{id}} fetches, {@code GET /subjects}
 * lists the registered subjects (the generators' reachability check). A request without the
 * expected {@code Authorization} header gets 401. Every request is recorded with its header.
 */
public final class AuthRegistryStub implements AutoCloseable {
    /** One recorded request: method, path and the {@code Authorization} header (null when absent). */
    public record Seen(String method, String path, String authorization) {
    }

    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final String expected;
    private final Map<String, Integer> idBySchema = new ConcurrentHashMap<>();
    private final Map<Integer, String> schemaById = new ConcurrentHashMap<>();
    private final java.util.Set<String> subjects = ConcurrentHashMap.newKeySet();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    /**
     * @param userInfo {@code user:password} the stub requires
     * @throws IOException when no loopback port can be bound
     */
    public AuthRegistryStub(String userInfo) throws IOException {
        this.expected = "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "auth-registry-stub");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** @return the base URL, {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** @return every request so far, in arrival order */
    public List<Seen> requests() {
        return new ArrayList<>(seen);
    }

    /** @return the requests that lacked the expected credentials (answered 401) */
    public List<Seen> rejected() {
        return seen.stream().filter(s -> !expected.equals(s.authorization())).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = ex.getRequestURI().getPath();
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        seen.add(new Seen(ex.getRequestMethod(), path, auth));
        if (!expected.equals(auth)) {
            send(ex, 401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
            return;
        }
        try {
            if ("GET".equals(ex.getRequestMethod()) && "/subjects".equals(path)) {
                var list = json.createArrayNode();
                subjects.stream().sorted().forEach(list::add);
                send(ex, 200, list.toString());
            } else if ("POST".equals(ex.getRequestMethod()) && path.startsWith("/subjects/")) {
                JsonNode req = json.readTree(body);
                String schema = req.get("schema").asText();
                boolean register = path.endsWith("/versions");
                if (register) {
                    subjects.add(path.substring("/subjects/".length(), path.length() - "/versions".length()));
                }
                Integer id = register ? idBySchema.computeIfAbsent(schema, s -> {
                    int next = idBySchema.size() + 1;
                    schemaById.put(next, s);
                    return next;
                }) : idBySchema.get(schema);
                if (id == null) {
                    send(ex, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
                } else {
                    send(ex, 200, json.createObjectNode().put("id", id).put("version", 1)
                            .put("subject", path.substring("/subjects/".length())).put("schema", schema).toString());
                }
            } else if ("GET".equals(ex.getRequestMethod()) && path.startsWith("/schemas/ids/")) {
                String schema = schemaById.get(Integer.parseInt(path.substring("/schemas/ids/".length())));
                if (schema == null) {
                    send(ex, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
                } else {
                    send(ex, 200, json.createObjectNode().put("schema", schema).toString());
                }
            } else {
                send(ex, 404, "{\"error_code\":404,\"message\":\"not supported by the stub\"}");
            }
        } catch (RuntimeException e) {
            send(ex, 500, "{\"error_code\":50001,\"message\":\"stub: " + e.getClass().getSimpleName() + "\"}");
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

    @Override
    public void close() {
        server.stop(0);
    }
}
