package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ClientTls;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SelfSignedCertificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NettyStreamTransport} ({@code --http-client netty}) against a raw local server that writes the HTTP bytes
 * itself: a chunked body split at odd points, keep-alive reuse, {@code Connection: close} from either side, the
 * idle timeout (0.3 s, awaited, never slept), the client's cancel (the server sees its connection closed), a 4xx
 * body's message, a JSON body to a stream request, and https with a self-signed certificate.
 */
class NettyStreamTransportTest {
    static Vertx vertx;
    static NetServer raw;
    static HttpServer tls;
    static SelfSignedCertificate cert;
    static final AtomicInteger connections = new AtomicInteger();
    static final List<String> connectionHeaders = new CopyOnWriteArrayList<>();
    static final Map<String, CompletableFuture<Void>> closedByClient = new ConcurrentHashMap<>();

    static final String SSE = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo \"}}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"you\"},\"finish_reason\":\"stop\"}]}\n\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3}}\n\n"
            + "data: [DONE]\n\n";

    @BeforeAll
    static void start() throws Exception {
        vertx = TimedTransport.vertx(new io.vertx.core.VertxOptions()); // the connect stamps of the HTTP phases
        raw = vertx.createNetServer().connectHandler(NettyStreamTransportTest::serve);
        raw.listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        cert = SelfSignedCertificate.create("localhost");
        tls = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(cert.keyCertOptions()))
                .requestHandler(req -> req.body().onSuccess(b -> req.response()
                        .putHeader("Content-Type", "text/event-stream").end(SSE)));
        tls.listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
        cert.delete();
    }

    @BeforeEach
    void reset() {
        connections.set(0);
        connectionHeaders.clear();
        closedByClient.clear();
    }

    /** Completes when the server has seen the connection of a request to {@code script} closed by the client. */
    static CompletableFuture<Void> closedSeen(String script) {
        return closedByClient.computeIfAbsent(script, k -> new CompletableFuture<>());
    }

    /** One connection: each request (head and Content-Length body) is answered by the script its path names. */
    static void serve(NetSocket so) {
        connections.incrementAndGet();
        // Registered at accept: under load the client may close (cancel, time out) before its request is parsed.
        CompletableFuture<Void> closed = new CompletableFuture<>();
        so.closeHandler(v -> closed.complete(null));
        StringBuilder in = new StringBuilder();
        so.handler(buf -> {
            in.append(buf.toString(StandardCharsets.ISO_8859_1));
            int end = in.indexOf("\r\n\r\n");
            if (end < 0) {
                return;
            }
            String head = in.substring(0, end);
            int length = 0;
            String connection = "";
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                    length = Integer.parseInt(line.substring(colon + 1).trim());
                } else if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Connection")) {
                    connection = line.substring(colon + 1).trim();
                }
            }
            if (in.length() < end + 4 + length) {
                return;
            }
            in.delete(0, end + 4 + length);
            connectionHeaders.add(connection);
            String path = head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
            String script = path.substring(1, path.indexOf('/', 1));
            answer(script, so, closed);
        });
    }

    static void answer(String script, NetSocket so, CompletableFuture<Void> connectionClosed) {
        switch (script) {
            case "split" -> {
                StringBuilder chunked = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n");
                for (String event : SSE.split("(?<=\n\n)")) {
                    chunked.append(Integer.toHexString(event.length())).append("\r\n").append(event).append("\r\n");
                }
                chunked.append("0\r\n\r\n");
                byte[] all = chunked.toString().getBytes(StandardCharsets.UTF_8);
                // pieces that end inside a chunk-size line, its CRLF, a data: prefix, the JSON and [DONE]
                writeSplit(so, all, new int[] {1, 70, 2, 1, 9, 33, 3, 57, 1, 1, 40, 5, 90, 17}, 0, 0);
            }
            case "keepalive" -> so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: "
                    + SSE.length() + "\r\n\r\n" + SSE);
            case "serverclose" -> so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                    + "Content-Length: " + SSE.length() + "\r\n\r\n" + SSE).onComplete(v -> so.close());
            case "stall", "cancel" -> {
                connectionClosed.thenRun(() -> closedSeen(script).complete(null));
                String first = SSE.substring(0, SSE.indexOf("\n\n", SSE.indexOf("Hel")) + 2);
                so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(first.length()) + "\r\n" + first + "\r\n");
            }
            case "notfound" -> {
                String body = "{\"error\":{\"message\":\"model m-x does not exist\",\"type\":\"invalid_request_error\"}}";
                so.write("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
            }
            case "json" -> {
                String body = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"}}]}";
                so.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
            }
            default -> so.close();
        }
    }

    /** Writes {@code all} in pieces of the given sizes (cycled), 1 ms apart so that each is its own read. */
    static void writeSplit(NetSocket so, byte[] all, int[] sizes, int at, int i) {
        if (at >= all.length) {
            return;
        }
        int n = Math.min(sizes[i % sizes.length], all.length - at);
        so.write(Buffer.buffer(java.util.Arrays.copyOfRange(all, at, at + n)));
        vertx.setTimer(1, id -> writeSplit(so, all, sizes, at + n, i + 1));
    }

    static StreamingClient client(String script, double timeoutS, boolean keepAlive) {
        return client("http://127.0.0.1:" + raw.actualPort() + "/" + script + "/v1", timeoutS, keepAlive,
                ClientTls.DEFAULT);
    }

    static StreamingClient client(String base, double timeoutS, boolean keepAlive, ClientTls trust) {
        return new StreamingClient(vertx, new ClientConfig(base, timeoutS, keepAlive, 8, ApiKey.none())
                .withHttpClient(HttpClientKind.NETTY), trust);
    }

    static RequestResult send(StreamingClient client, long cancelAfterNs) throws Exception {
        Promise<RequestResult> p = Promise.promise();
        vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\",\"stream\":true}"), Map.of(),
                cancelAfterNs).onComplete(p));
        return p.future().await(30, TimeUnit.SECONDS);
    }

    static void assertWholeStream(RequestResult r) {
        assertThat(r.error()).as("error of %s", r).isNull();
        assertThat(r.contentChunks()).as("content chunks of %s", r).isEqualTo(3);
        assertThat(r.completionTokens()).as("completion tokens of %s", r).isEqualTo(3);
        assertThat(r.finishReason()).as("finish reason").isEqualTo("stop");
        assertThat(r.ttftNs()).as("TTFT").isPositive().isLessThanOrEqualTo(r.e2eNs());
    }

    @Test
    void chunkedBodySplitAtOddPointsIsReadWhole() throws Exception {
        try (StreamingClient client = client("split", 10, false)) {
            RequestResult r = send(client, -1);
            assertWholeStream(r);
            assertThat(r.bodyBytes()).as("body bytes (de-chunked) of %s", r).isEqualTo(SSE.length());
            assertThat(r.httpStatus()).as("status").isEqualTo(200);
        }
        assertThat(connectionHeaders).as("Connection header of the request without keep-alive")
                .containsExactly("close");
    }

    @Test
    void keepAliveReusesTheConnection() throws Exception {
        try (StreamingClient client = client("keepalive", 10, true)) {
            RequestResult first = send(client, -1);
            RequestResult second = send(client, -1);
            assertWholeStream(first);
            assertWholeStream(second);
            assertThat(first.phases().connectionReused()).as("first request's connection reused").isFalse();
            assertThat(second.phases().connectionReused()).as("second request's connection reused").isTrue();
        }
        assertThat(connections.get()).as("connections the server accepted").isEqualTo(1);
        assertThat(connectionHeaders).as("Connection headers with keep-alive").containsExactly("", "");
    }

    @Test
    void serverConnectionCloseIsNotReused() throws Exception {
        try (StreamingClient client = client("serverclose", 10, true)) {
            RequestResult first = send(client, -1);
            RequestResult second = send(client, -1);
            assertWholeStream(first);
            assertWholeStream(second);
            assertThat(second.phases().connectionReused()).as("second request's connection reused").isFalse();
        }
        assertThat(connections.get()).as("connections the server accepted").isEqualTo(2);
    }

    @Test
    void withoutKeepAliveEachRequestHasItsOwnConnection() throws Exception {
        try (StreamingClient client = client("keepalive", 10, false)) {
            assertWholeStream(send(client, -1));
            assertWholeStream(send(client, -1));
        }
        assertThat(connections.get()).as("connections the server accepted").isEqualTo(2);
        assertThat(connectionHeaders).as("Connection headers").containsExactly("close", "close");
    }

    @Test
    void aStalledBodyTimesOutAndKeepsWhatArrived() throws Exception {
        try (StreamingClient client = client("stall", 0.3, false)) {
            RequestResult r = send(client, -1);
            assertThat(r.error()).as("error of %s", r).isNotNull();
            assertThat(r.error().type()).as("error type").isEqualTo(ErrorTypes.TIMEOUT_ERROR);
            assertThat(r.contentChunks()).as("content chunks before the stall").isEqualTo(1);
        }
        closedSeen("stall").get(10, TimeUnit.SECONDS);
    }

    @Test
    void cancelClosesTheConnection() throws Exception {
        try (StreamingClient client = client("cancel", 30, false)) {
            RequestResult r = send(client, 50_000_000L);
            assertThat(r.error()).as("error of %s", r).isNotNull();
            assertThat(r.error().type()).as("error type").isEqualTo(ErrorTypes.CANCELLED);
            closedSeen("cancel").get(10, TimeUnit.SECONDS); // the server saw the client gone
        }
    }

    @Test
    void aNotFoundBodyGivesTheServersMessage() throws Exception {
        try (StreamingClient client = client("notfound", 10, true)) {
            RequestResult r = send(client, -1);
            assertThat(r.httpStatus()).as("status").isEqualTo(404);
            assertThat(r.error().type()).as("error type of %s", r).isEqualTo(ErrorTypes.HTTP_ERROR);
            assertThat(r.error().message()).as("error message").contains("HTTP Error 404: Not Found")
                    .contains("model m-x does not exist");
            RequestResult again = send(client, -1);
            assertThat(again.phases().connectionReused()).as("the 404's connection reused after its body")
                    .isTrue();
        }
    }

    @Test
    void aJsonBodyToAStreamRequestFails() throws Exception {
        try (StreamingClient client = client("json", 10, false)) {
            RequestResult r = send(client, -1);
            assertThat(r.error().type()).as("error type of %s", r).isEqualTo(ErrorTypes.VALUE_ERROR);
            assertThat(r.error().message()).as("error message").contains("endpoint did not stream")
                    .contains("application/json");
        }
    }

    @Test
    void httpsWithASelfSignedCertificate() throws Exception {
        String base = "https://localhost:" + tls.actualPort() + "/v1";
        try (StreamingClient insecure = client(base, 10, false, new ClientTls(true, null));
             StreamingClient ca = client(base, 10, false, new ClientTls(false, Path.of(cert.certificatePath())));
             StreamingClient strict = client(base, 10, false, ClientTls.DEFAULT)) {
            RequestResult r = send(insecure, -1);
            assertWholeStream(r);
            assertThat(r.phases().tlsNs()).as("TLS handshake phase").isPositive();
            assertWholeStream(send(ca, -1));
            RequestResult refused = send(strict, -1);
            assertThat(refused.error()).as("error without --insecure or --ca-cert").isNotNull();
            assertThat(refused.error().message()).as("error message").contains("CERTIFICATE_VERIFY_FAILED")
                    .contains("--ca-cert");
        }
    }

    @Test
    void anIpAddressAndANameConnectTheSameWay() throws Exception {
        // 127.0.0.1 is connected to directly, a name through Netty's Bootstrap and Vert.x's resolver
        String path = "/split/v1";
        try (StreamingClient ip = client("http://127.0.0.1:" + raw.actualPort() + path, 10, false, ClientTls.DEFAULT);
             StreamingClient name = client("http://localhost:" + raw.actualPort() + path, 10, false,
                     ClientTls.DEFAULT);
             StreamingClient ipTls = client("https://127.0.0.1:" + tls.actualPort() + "/v1", 10, false,
                     new ClientTls(true, null))) {
            for (StreamingClient c : List.of(ip, name, ipTls)) {
                RequestResult r = send(c, -1);
                assertWholeStream(r);
                assertThat(r.phases().connectionReused()).as("a new connection").isFalse();
                assertThat(r.phases().connectNs()).as("TCP connect phase of %s", r.phases()).isNotNegative();
            }
            assertThat(send(ipTls, -1).phases().tlsNs()).as("TLS handshake phase on an IP address").isPositive();
        }
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (StreamingClient ip = client("http://127.0.0.1:" + closed + "/v1", 10, false, ClientTls.DEFAULT);
             StreamingClient name = client("http://localhost:" + closed + "/v1", 10, false, ClientTls.DEFAULT)) {
            RequestResult byIp = send(ip, -1);
            RequestResult byName = send(name, -1);
            assertThat(byIp.error()).as("refused connection to an IP address").isNotNull();
            assertThat(byIp.error()).as("refused: the same error by address and by name").isEqualTo(byName.error());
            assertThat(byIp.error().message()).as("refused connection's message").contains("Connection refused");
        }
    }
}
