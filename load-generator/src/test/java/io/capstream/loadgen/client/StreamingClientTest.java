package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.workload.ApiKey;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The streaming client against an in-JVM server serving each stream shape real servers produce. */
class StreamingClientTest {
    private static final long MS = 1_000_000L;
    static Vertx vertx;
    static HttpServer http;
    static NetServer raw;
    static int httpPort;
    static int rawPort;
    static final List<Map<String, String>> seenHeaders = new CopyOnWriteArrayList<>();
    static final AtomicInteger connections = new AtomicInteger();
    static final Map<String, Consumer<NetSocket>> rawScripts = new java.util.concurrent.ConcurrentHashMap<>();

    static String chunk(String deltaJson) {
        return "data: {\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":" + deltaJson + "}]}\n\n";
    }

    static final String USAGE = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":3,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":64}}}\n\n";

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().connectionHandler(c -> connections.incrementAndGet()).requestHandler(req -> {
            Map<String, String> h = new java.util.HashMap<>();
            req.headers().forEach(e -> h.put(e.getKey().toLowerCase(), e.getValue()));
            String shape = req.path().split("/")[1];
            req.body().onSuccess(body -> {
                h.put("_body", body.toString());
                h.put("_path", req.path());
                h.put("_user_agents", String.valueOf(req.headers().getAll("user-agent").size()));
                seenHeaders.add(h);
                serve(shape, req.response());
            });
        });
        httpPort = http.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
        raw = vertx.createNetServer().connectHandler(StreamingClientTest::rawConnection);
        rawPort = raw.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Writes parts with a delay between them so that they arrive as separate reads. */
    static void paced(HttpServerResponse r, long delayMs, String... parts) {
        r.setChunked(true).putHeader("Content-Type", "text/event-stream");
        step(r, delayMs, parts, 0, true);
    }

    /** Like {@link #paced} but never ends the response. */
    static void pacedOpen(HttpServerResponse r, long delayMs, String... parts) {
        r.setChunked(true).putHeader("Content-Type", "text/event-stream");
        step(r, delayMs, parts, 0, false);
    }

    static void step(HttpServerResponse r, long delayMs, String[] parts, int i, boolean end) {
        if (i == parts.length) {
            if (end) {
                r.end();
            }
            return;
        }
        r.write(parts[i]);
        vertx.setTimer(delayMs, t -> step(r, delayMs, parts, i + 1, end));
    }

    static void serve(String shape, HttpServerResponse r) {
        switch (shape) {
            case "text" -> paced(r, 20, ": first bytes, no data\n\n",
                    "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n",
                    "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"lo\"}]}\n\n"
                            + "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"\"}]}\n\n",
                    "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"!\",\"finish_reason\":\"length\"}]}\n\n",
                    USAGE, "data: [DONE]\n\n");
            case "normal" -> paced(r, 30,
                    chunk("{\"role\":\"assistant\",\"content\":null}"),
                    chunk("{\"content\":\"Hel\"}"),
                    chunk("{\"content\":\"lo\"}") + chunk("{\"content\":\"!\"}"),
                    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                    USAGE, "data: [DONE]\n\n");
            case "crlf" -> {
                r.putHeader("Content-Type", "text/plain; charset=utf-8").setChunked(true);
                r.write(": comment\r\n\r\nevent: x\r\ndata:" + chunk("{\"content\":\"a\"}").substring(5).replace("\n", "\r\n"));
                r.end("data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\r\n"); // no [DONE]
            }
            case "reasoning" -> paced(r, 20,
                    chunk("{\"reasoning_content\":\"hmm\"}"), chunk("{\"reasoning\":\"so\"}"),
                    chunk("{\"content\":\"answer\"}"), "data: [DONE]\n\n");
            case "reasoningonly" -> paced(r, 5, chunk("{\"reasoning_content\":\"hmm\"}"), USAGE, "data: [DONE]\n\n");
            case "status500" -> r.setStatusCode(500).end("{\"error\":\"boom\"}");
            case "status429" -> r.setStatusCode(429).putHeader("Retry-After", "1").end();
            case "stall" -> pacedOpen(r, 10, chunk("{\"content\":\"a\"}")); // never ends
            case "trickle" -> paced(r, 300, chunk("{\"content\":\"a\"}"), chunk("{\"content\":\"b\"}"),
                    chunk("{\"content\":\"c\"}"), chunk("{\"content\":\"d\"}"), chunk("{\"content\":\"e\"}"), "data: [DONE]\n\n");
            case "headerstall" -> {
                // never answer
            }
            case "error200" -> paced(r, 5, chunk("{\"content\":\"a\"}"),
                    "data: {\"error\":{\"message\":\"CUDA out of memory\",\"type\":\"InternalServerError\",\"code\":500}}\n\n");
            case "choicesnull" -> paced(r, 5, "data: {\"choices\":null}\n\n");
            case "toolcall" -> paced(r, 20, chunk("{\"role\":\"assistant\",\"content\":null}"),
                    chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\"}}]}"),
                    chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\":\\\"Oslo\\\"}\"}}]}"),
                    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
                    USAGE, "data: [DONE]\n\n");
            case "nocontent" -> paced(r, 5, chunk("{\"role\":\"assistant\",\"content\":\"\"}"), "data: [DONE]\n\n");
            case "donehang" -> pacedOpen(r, 5, chunk("{\"content\":\"a\"}"), "data: [DONE]\n\n"); // no end
            case "multiline" -> paced(r, 30, "data: {\"choices\":[{\"delta\":\n", "data: {\"content\":\"hi\"}}]}\n",
                    "\n", chunk("{\"content\":\"!\"}"), "data: [DONE]\n\n");
            case "multilineend" -> paced(r, 30, "data: {\"choices\":[{\"delta\":\n", "data: {\"content\":\"hi\"}}]}\n");
            case "json200error" -> r.putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"message\":\"model not found\",\"type\":\"invalid_request_error\"}}");
            case "json200completion" -> r.putHeader("Content-Type", "application/json; charset=utf-8")
                    .end("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":"
                            + "[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}],"
                            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}");
            case "json200detail" -> r.putHeader("Content-Type", "application/json").end("{\"detail\":\"" + "d".repeat(5000) + "\"}");
            case "json200huge" -> r.putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"message\":\"" + "y".repeat(200_000) + "\"}}");
            case "status500oom" -> r.setStatusCode(500).putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"message\":\"CUDA out of memory\",\"type\":\"InternalServerError\",\"code\":500}}");
            case "status400message" -> r.setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end("{\"object\":\"error\",\"message\":\"max_tokens is too large\",\"type\":\"BadRequestError\",\"code\":400}");
            case "status404detail" -> r.setStatusCode(404).putHeader("Content-Type", "application/json").end("{\"detail\":\"Not Found\"}");
            case "status503text" -> r.setStatusCode(503).putHeader("Content-Type", "text/plain")
                    .end("  upstream connect error or disconnect/reset before headers\n");
            case "status500long" -> r.setStatusCode(500).end("{\"error\":{\"message\":\"" + "z".repeat(5000) + "\"}}");
            case "status500huge" -> r.setStatusCode(500).end("x".repeat(300_000));
            default -> r.setStatusCode(404).end();
        }
        if (shape.equals("stall") || shape.equals("donehang")) {
            return;
        }
    }

    static void rawConnection(NetSocket so) {
        Buffer acc = Buffer.buffer();
        boolean[] started = {false};
        so.handler(b -> {
            acc.appendBuffer(b);
            String s = acc.toString(StandardCharsets.ISO_8859_1);
            int he = s.indexOf("\r\n\r\n");
            if (started[0] || he < 0) {
                return;
            }
            int cl = 0;
            for (String line : s.substring(0, he).split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    cl = Integer.parseInt(line.substring(15).trim());
                }
            }
            if (acc.length() < he + 4 + cl) {
                return;
            }
            started[0] = true;
            String path = s.substring(s.indexOf(' ') + 1, s.indexOf(' ', s.indexOf(' ') + 1));
            rawScripts.get(path.split("/")[1]).accept(so);
        });
    }

    static {
        rawScripts.put("closedelimited", so -> {
            so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
            so.write(chunk("{\"content\":\"a\"}"));
            vertx.setTimer(20, t -> so.end(Buffer.buffer(chunk("{\"content\":\"b\"}"))));
        });
        rawScripts.put("cut", so -> {
            so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            String c = chunk("{\"content\":\"a\"}");
            so.write(Integer.toHexString(c.length()) + "\r\n" + c + "\r\n");
            // announce 100 bytes, send 10, close
            vertx.setTimer(20, t -> so.end(Buffer.buffer("64\r\ndata: {\"ch")));
        });
        rawScripts.put("closebeforehead", NetSocket::close);
        rawScripts.put("status500slowbody", so -> {
            String body = "{\"error\":{\"message\":\"CUDA out of memory\"}}";
            so.write("HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n");
            vertx.setTimer(500, t -> so.end(Buffer.buffer(body)));
        });
        // the head, then never the announced body
        rawScripts.put("status500nobody", so -> so.write(
                "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"));
        rawScripts.put("status500noreason", so -> so.end(Buffer.buffer(
                "HTTP/1.1 500 \r\nContent-Length: 16\r\nConnection: close\r\n\r\n{\"error\":\"boom\"}")));
        rawScripts.put("nocontenttype", so -> {
            so.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
            so.end(Buffer.buffer(chunk("{\"content\":\"a\"}") + "data: [DONE]\n\n"));
        });
        rawScripts.put("utf8split", so -> {
            so.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
            byte[] b = chunk("{\"content\":\"h\u00e9\u20ac\ud83d\ude00\"}").getBytes(StandardCharsets.UTF_8);
            int cut1 = new String(b, StandardCharsets.ISO_8859_1).indexOf("h") + 2; // inside é
            int cut2 = cut1 + 3; // inside the euro sign / emoji
            so.write(Buffer.buffer(java.util.Arrays.copyOfRange(b, 0, cut1)));
            vertx.setTimer(15, t -> so.write(Buffer.buffer(java.util.Arrays.copyOfRange(b, cut1, cut2))));
            vertx.setTimer(30, t -> so.end(Buffer.buffer(java.util.Arrays.copyOfRange(b, cut2, b.length))));
        });
    }

    private static RequestResult call(String base, double timeoutS, boolean keepAlive, ApiKey key) throws Exception {
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig(base, timeoutS, keepAlive, 8, key)));
        try {
            return vertx.getOrCreateContext().<RequestResult>executeBlocking(() -> null).compose(x -> {
                io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
                vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\"}")).onComplete(p));
                return p.future();
            }).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    private static RequestResult http(String shape) throws Exception {
        return call("http://127.0.0.1:" + httpPort + "/" + shape + "/v1/", 5, false, ApiKey.none());
    }

    private static RequestResult raw(String shape) throws Exception {
        return call("http://127.0.0.1:" + rawPort + "/" + shape + "/v1", 5, false, ApiKey.none());
    }

    @Test
    void anUnusableUrlFailsTheRequestInsteadOfThrowingOnTheEventLoop() throws Exception {
        // Vert.x throws from setAbsoluteURI / request(); that used to escape on the event loop, and the
        // request's future (and the run) never completed
        RequestResult bracket = call("http://[::1", 5, false, ApiKey.none());
        assertEquals(ErrorTypes.URL_ERROR, bracket.error().type());
        assertThat(bracket.error().message()).startsWith("<urlopen error ");
        RequestResult port = call("http://127.0.0.1:70000/v1", 5, false, ApiKey.none());
        assertEquals(ErrorTypes.URL_ERROR, port.error().type());
        assertThat(port.error().message()).contains("port");
    }

    @Test
    void normalStream() throws Exception {
        RequestResult r = http("normal");
        assertNull(r.error());
        assertEquals(200, r.httpStatus());
        assertTrue(r.ttftNs() >= 25 * MS, "first content comes after one 30 ms pause: " + r.ttftNs());
        assertEquals(r.ttfoNs(), r.ttftNs());
        assertTrue(r.e2eNs() >= 145 * MS && r.e2eNs() >= r.ttftNs(), "[DONE] is written after five 30 ms pauses: " + r.e2eNs());
        assertEquals(3, r.contentChunks(), "two deltas in one TCP chunk count separately");
        assertEquals(0, r.reasoningChunks());
        assertEquals(100, r.promptTokens());
        assertEquals(3, r.completionTokens());
        assertEquals(64, r.cachedTokens());
        assertEquals("usage", r.outputTokenSource());
        assertEquals("stop", r.finishReason());
        assertTrue(r.maxChunkGapNs() >= 0 && r.maxChunkGapNs() < r.e2eNs(), "gap " + r.maxChunkGapNs());
        Map<String, String> h = seenHeaders.get(seenHeaders.size() - 1);
        assertEquals("close", h.get("connection"));
        assertEquals("application/json", h.get("content-type"));
        assertEquals("identity", h.get("accept-encoding"));
        assertNull(h.get("authorization"));
        assertNull(h.get("accept"));
    }

    /**
     * {@code --endpoint completions} and {@code -H} (issue 15): the path is {@code /completions}, each non-empty
     * {@code choices[].text} is an output chunk (the empty one is not), the extra headers arrive after
     * capstream's own; the same stream read as chat has no content (text is not a chat field).
     */
    @Test
    void theCompletionsEndpointReadsChoicesTextAndSendsTheExtraHeaders() throws Exception {
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig("http://127.0.0.1:" + httpPort + "/text/v1",
                5, false, 8, ApiKey.none(), io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS,
                List.of(new io.capstream.loadgen.workload.ExtraHeader("X-Tenant", "team-a"),
                        new io.capstream.loadgen.workload.ExtraHeader("Authorization", "Token abc"),
                        new io.capstream.loadgen.workload.ExtraHeader("user-agent", "mine")))));
        RequestResult r;
        try {
            io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
            vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\",\"prompt\":\"hi\"}")).onComplete(p));
            r = p.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
        assertNull(r.error());
        assertEquals(3, r.contentChunks(), "Hel, lo and ! (the empty text is no output)");
        assertEquals("length", r.finishReason());
        assertEquals(3, r.completionTokens());
        assertTrue(r.ttftNs() >= 15 * MS, "the first text comes after one 20 ms pause: " + r.ttftNs());
        Map<String, String> h = seenHeaders.get(seenHeaders.size() - 1);
        assertEquals("/text/v1/completions", h.get("_path"));
        assertEquals("team-a", h.get("x-tenant"));
        assertEquals("Token abc", h.get("authorization"));
        assertEquals("mine", h.get("user-agent"));
        assertEquals("1", h.get("_user_agents"), "-H User-Agent replaces capstream's (it was sent twice)");
        assertEquals("application/json", h.get("content-type"));

        RequestResult chat = http("text");
        assertEquals("/text/v1/chat/completions", seenHeaders.get(seenHeaders.size() - 1).get("_path"));
        assertEquals(0, chat.contentChunks(), "read as chat, choices[].text is not content");
        assertEquals(ErrorTypes.VALUE_ERROR, chat.error().type());
    }

    @Test
    void crlfCommentsTextPlainAndNoDone() throws Exception {
        RequestResult r = http("crlf");
        assertNull(r.error());
        assertEquals(2, r.contentChunks());
        assertEquals("content_chunks", r.outputTokenSource());
        assertEquals(-1, r.completionTokens());
    }

    @Test
    void reasoningThenContent() throws Exception {
        RequestResult r = http("reasoning");
        assertNull(r.error());
        assertEquals(2, r.reasoningChunks());
        assertEquals(1, r.contentChunks());
        assertTrue(r.ttfoNs() <= r.ttftNs(), r.ttfoNs() + " <= " + r.ttftNs());
        assertTrue(r.ttftNs() >= 38 * MS, "content is written after two 20 ms pauses: " + r.ttftNs());
    }

    /**
     * Issue 29: a tool-call-only answer is a success of kind tool_call with its call and the tool-call deltas
     * when the run sends tools (the first tool-call delta is the first output and token); without tools it fails
     * saying the model answered with a tool call; a kept reply has the answer's text.
     */
    @Test
    void aToolCallAnswerIsOutputOnlyWhenToolsAreSentAndTheKeptReplyHasTheText() throws Exception {
        ClientConfig base = new ClientConfig("http://127.0.0.1:" + httpPort + "/toolcall/v1", 5, false, 8,
                ApiKey.none());
        RequestResult tools = execute(base.withReplies(true, false));
        assertThat(tools.error()).as("error").isNull();
        assertThat(tools.reply().kind()).isEqualTo("tool_call");
        assertThat(tools.reply().toolCalls()).containsExactly(new ToolCall("call_1", "get_weather", "{\"city\":\"Oslo\"}"));
        assertThat(tools.toolCallChunks()).isEqualTo(2);
        assertThat(tools.ttftNs()).as("TTFT: the tool call's first delta, also the first output")
                .isPositive().isEqualTo(tools.ttfoNs());
        assertThat(tools.contentChunks()).isZero();
        assertThat(tools.completionTokens()).isEqualTo(3);

        RequestResult noTools = execute(base);
        assertThat(noTools.error().type()).isEqualTo(ErrorTypes.VALUE_ERROR);
        assertThat(noTools.error().message()).isEqualTo("stream completed without visible content: the model"
                + " answered with a tool call (1 tool call, no text); send --tools to measure tool calls");
        assertThat(noTools.ttftNs()).isEqualTo(-1);
        assertThat(noTools.toolCallChunks()).isEqualTo(2);

        RequestResult text = execute(new ClientConfig("http://127.0.0.1:" + httpPort + "/normal/v1", 5, false, 8,
                ApiKey.none()).withReplies(false, true));
        assertThat(text.reply().text()).as("kept reply").isEqualTo("Hello!");
        assertThat(text.reply().kind()).isEqualTo("text");
        assertThat(http("normal").reply()).as("not kept by default").isSameAs(Reply.NONE);
    }

    private static RequestResult execute(ClientConfig config) throws Exception {
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(config));
        try {
            io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
            vertx.runOnContext(v -> client.execute(Buffer.buffer("{\"model\":\"m\"}")).onComplete(p));
            return p.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } finally {
            client.close();
        }
    }

    @Test
    void reasoningOnlyIsNoVisibleContent() throws Exception {
        RequestResult r = http("reasoningonly");
        assertEquals(ErrorTypes.VALUE_ERROR, r.error().type());
        assertEquals("stream completed without visible content", r.error().message());
        assertEquals(1, r.reasoningChunks());
        RequestResult n = http("nocontent");
        assertEquals("stream completed without visible content", n.error().message());
    }

    @Test
    void httpErrors() throws Exception {
        RequestResult r = http("status500");
        assertEquals(ErrorTypes.HTTP_ERROR, r.error().type());
        assertEquals("HTTP Error 500: Internal Server Error: boom", r.error().message(), "error as a string");
        assertEquals(500, r.httpStatus());
        assertEquals("HTTP Error 429: Too Many Requests", http("status429").error().message(), "no body: the status alone");
    }

    @Test
    void connectionRefused() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RequestResult r = call("http://127.0.0.1:" + port + "/v1", 5, false, ApiKey.none());
        assertEquals(ErrorTypes.URL_ERROR, r.error().type());
        assertEquals("<urlopen error [Errno 111] Connection refused>", r.error().message());
        assertEquals(-1, r.httpStatus());
    }

    @Test
    void stallMidStreamTimesOutPerRead() throws Exception {
        RequestResult r = call("http://127.0.0.1:" + httpPort + "/stall/v1", 0.4, false, ApiKey.none());
        assertEquals(ErrorTypes.TIMEOUT_ERROR, r.error().type());
        assertEquals("timed out", r.error().message());
        assertEquals(1, r.contentChunks());
        assertTrue(r.e2eNs() >= 390 * MS && r.e2eNs() < 10_000 * MS, "elapsed " + r.e2eNs());
    }

    @Test
    void stallBeforeHeadersTimesOut() throws Exception {
        RequestResult r = call("http://127.0.0.1:" + httpPort + "/headerstall/v1", 0.3, false, ApiKey.none());
        assertEquals(ErrorTypes.TIMEOUT_ERROR, r.error().type());
        assertEquals("timed out", r.error().message());
    }

    @Test
    void trickleLongerThanTimeoutIsNotATimeout() throws Exception {
        // 6 reads 300 ms apart (~1.5 s in total) under a 1 s per-read timeout
        RequestResult r = call("http://127.0.0.1:" + httpPort + "/trickle/v1", 1.0, false, ApiKey.none());
        assertNull(r.error(), () -> String.valueOf(r.error()));
        assertEquals(5, r.contentChunks());
        assertTrue(r.e2eNs() > 1_400 * MS, "longer than the timeout in total: " + r.e2eNs());
    }

    @Test
    void errorObjectInside200() throws Exception {
        RequestResult r = http("error200");
        assertEquals(ErrorTypes.VALUE_ERROR, r.error().type());
        assertThat(r.error().message()).contains("CUDA out of memory");
        assertEquals(200, r.httpStatus());
    }

    @Test
    void choicesNullIsTypeError() throws Exception {
        RequestResult r = http("choicesnull");
        assertEquals(ErrorTypes.TYPE_ERROR, r.error().type());
    }

    @Test
    void doneEndsTheRequestEvenIfTheServerKeepsTheStreamOpen() throws Exception {
        RequestResult r = call("http://127.0.0.1:" + httpPort + "/donehang/v1", 8, false, ApiKey.none());
        assertNull(r.error());
        assertTrue(r.e2eNs() < 5_000 * MS, "ended at [DONE], not at the timeout: " + r.e2eNs());
        RequestResult k = call("http://127.0.0.1:" + httpPort + "/donehang/v1", 8, true, ApiKey.none());
        assertNull(k.error());
        assertTrue(k.e2eNs() < 5_000 * MS, "keep-alive: e2e at [DONE], completed after a grace period: " + k.e2eNs());
    }

    @Test
    void closeDelimitedBodyWithoutDoneIsSuccess() throws Exception {
        RequestResult r = raw("closedelimited");
        assertNull(r.error(), () -> String.valueOf(r.error()));
        assertEquals(2, r.contentChunks());
    }

    @Test
    void cutMidChunkIsIncompleteRead() throws Exception {
        RequestResult r = raw("cut");
        assertEquals(ErrorTypes.INCOMPLETE_READ, r.error().type(), () -> r.error().toString());
        assertThat(r.error().message()).startsWith("IncompleteRead(");
        assertEquals(1, r.contentChunks());
    }

    @Test
    void closeBeforeResponseHead() throws Exception {
        RequestResult r = raw("closebeforehead");
        assertEquals(ErrorTypes.REMOTE_DISCONNECTED, r.error().type(), () -> r.error().toString());
    }

    @Test
    void multiByteUtf8SplitAcrossReads() throws Exception {
        RequestResult r = raw("utf8split");
        assertNull(r.error(), () -> String.valueOf(r.error()));
        assertEquals(1, r.contentChunks());
    }

    @Test
    void authorizationHeaderAndKeepAlive() throws Exception {
        ApiKey key = ApiKey.fromEnv("K", Map.of("K", " sk-test ")::get);
        int before = connections.get();
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig(
                "http://127.0.0.1:" + httpPort + "/normal/v1", 5, true, 4, key)));
        io.vertx.core.Context ctx = ((io.vertx.core.internal.VertxInternal) vertx).createEventLoopContext();
        try {
            for (int i = 0; i < 3; i++) {
                io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
                ctx.runOnContext(v -> client.execute(Buffer.buffer("{}")).onComplete(p));
                RequestResult r = p.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertNull(r.error());
            }
        } finally {
            client.close();
        }
        assertEquals(1, connections.get() - before, "keep-alive reuses one connection");
        Map<String, String> h = seenHeaders.get(seenHeaders.size() - 1);
        assertEquals("Bearer sk-test", h.get("authorization"));
        assertTrue(h.get("connection") == null || h.get("connection").equalsIgnoreCase("keep-alive"));
        int b2 = connections.get();
        http("normal");
        http("normal");
        assertEquals(2, connections.get() - b2, "default: one connection per request");
    }

    @Test
    void multiLineDataEventOverHttp() throws Exception {
        RequestResult r = http("multiline");
        assertNull(r.error(), () -> String.valueOf(r.error()));
        assertEquals(2, r.contentChunks(), "the two-line event and the one-line event");
        assertTrue(r.ttftNs() >= 55 * MS, "the event is complete at its blank line, written after two 30 ms pauses: " + r.ttftNs());
        RequestResult e = http("multilineend");
        assertNull(e.error(), () -> String.valueOf(e.error()));
        assertEquals(1, e.contentChunks(), "an event ended by the end of the body counts");
    }

    @Test
    void jsonErrorObjectInA200IsNotAStream() throws Exception {
        RequestResult r = http("json200error");
        assertEquals(ErrorTypes.VALUE_ERROR, r.error().type());
        assertEquals("endpoint did not stream (Content-Type: application/json): model not found", r.error().message());
        assertFalse(r.error().truncated());
        assertEquals(200, r.httpStatus());
        assertEquals(0, r.contentChunks());
    }

    @Test
    void nonStreamingCompletionInA200IsNotAStream() throws Exception {
        RequestResult r = http("json200completion");
        assertEquals(ErrorTypes.VALUE_ERROR, r.error().type());
        assertEquals("endpoint did not stream (Content-Type: application/json; charset=utf-8): it answered a non-streaming "
                + "completion (object \"chat.completion\"; was \"stream\": true ignored?)", r.error().message());
        assertEquals(-1, r.ttftNs());
        assertEquals(0, r.contentChunks());
    }

    @Test
    void notStreamedMessageIsCutAt2048AndTheBodyReadIsBounded() throws Exception {
        RequestResult r = http("json200detail");
        assertEquals(ErrorTypes.VALUE_ERROR, r.error().type());
        assertEquals(ErrorTypes.MAX_MESSAGE, r.error().message().length());
        assertTrue(r.error().truncated());
        assertThat(r.error().message()).startsWith("endpoint did not stream (Content-Type: application/json): ddd");
        RequestResult h = http("json200huge"); // 200 kB: read up to the bound only
        assertEquals(ErrorTypes.VALUE_ERROR, h.error().type());
        assertTrue(h.error().truncated());
        assertThat(h.error().message()).as(h.error().message().substring(0, 100))
                .startsWith("endpoint did not stream (Content-Type: application/json): {\"error\"");
        assertTrue(h.bodyBytes() >= NonStreamBody.MAX_BYTES && h.bodyBytes() < 100_000, "read " + h.bodyBytes());
    }

    @Test
    void textPlainAndMissingContentTypeAreStreams() throws Exception {
        RequestResult r = raw("nocontenttype");
        assertNull(r.error(), () -> String.valueOf(r.error()));
        assertEquals(1, r.contentChunks());
        assertNull(http("crlf").error()); // text/plain, as openai-mock-api serves SSE
    }

    @Test
    void httpErrorKeepsTheServersMessage() throws Exception {
        RequestResult r = http("status500oom");
        assertEquals(ErrorTypes.HTTP_ERROR, r.error().type());
        assertEquals("HTTP Error 500: Internal Server Error: CUDA out of memory", r.error().message());
        assertEquals(500, r.httpStatus());
        assertEquals("HTTP Error 400: Bad Request: max_tokens is too large", http("status400message").error().message());
        assertEquals("HTTP Error 404: Not Found: Not Found", http("status404detail").error().message());
        assertEquals("HTTP Error 503: Service Unavailable: upstream connect error or disconnect/reset before headers",
                http("status503text").error().message());
        assertEquals("HTTP Error 500: boom", raw("status500noreason").error().message(), "no reason phrase");
    }

    @Test
    void httpErrorMessageIsCutAt2048() throws Exception {
        RequestError e = http("status500long").error();
        assertEquals(ErrorTypes.MAX_MESSAGE, e.message().length());
        assertTrue(e.truncated());
        assertThat(e.message()).as(e.message().substring(0, 60))
                .startsWith("HTTP Error 500: Internal Server Error: zzz");
        RequestResult h = http("status500huge");
        assertTrue(h.error().truncated());
        assertThat(h.error().message()).startsWith("HTTP Error 500: Internal Server Error: xxx");
        assertTrue(h.bodyBytes() >= NonStreamBody.MAX_BYTES && h.bodyBytes() < 300_000, "read " + h.bodyBytes());
    }

    @Test
    void httpErrorElapsedIsWhenTheStatusArrived() throws Exception {
        long w0 = System.nanoTime();
        RequestResult r = raw("status500slowbody"); // the body comes 500 ms after the head
        long wall = System.nanoTime() - w0;
        assertEquals("HTTP Error 500: Internal Server Error: CUDA out of memory", r.error().message());
        // half the body's 500 ms: a client thread late for the head on a loaded machine shortens the difference
        assertTrue(wall - r.e2eNs() >= 250 * MS, "elapsed " + r.e2eNs() + " ns is the status, not the body (" + wall + " ns)");
    }

    @Test
    void httpErrorWhoseBodyNeverComesEndsAtTheTimeout() throws Exception {
        long w0 = System.nanoTime();
        RequestResult r = call("http://127.0.0.1:" + rawPort + "/status500nobody/v1", 0.4, false, ApiKey.none());
        long wall = System.nanoTime() - w0;
        assertEquals(ErrorTypes.HTTP_ERROR, r.error().type());
        assertEquals("HTTP Error 500: Internal Server Error", r.error().message());
        assertEquals(500, r.httpStatus());
        assertTrue(wall >= 390 * MS && wall < 5_000 * MS, "waited for the body up to the 0.4 s timeout: " + wall);
        assertTrue(r.e2eNs() < wall - 200 * MS, "elapsed is the status: " + r.e2eNs() + " ns of " + wall + " ns");
    }

    @Test
    void keepAliveConnectionIsReusedAfterAnErrorBody() throws Exception {
        int before = connections.get();
        StreamingClient client = new StreamingClient(vertx, TestTransports.with(new ClientConfig(
                "http://127.0.0.1:" + httpPort + "/status500oom/v1", 5, true, 4, ApiKey.none())));
        io.vertx.core.Context ctx = ((io.vertx.core.internal.VertxInternal) vertx).createEventLoopContext();
        try {
            for (int i = 0; i < 3; i++) {
                io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
                ctx.runOnContext(v -> client.execute(Buffer.buffer("{}")).onComplete(p));
                RequestResult r = p.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertEquals("HTTP Error 500: Internal Server Error: CUDA out of memory", r.error().message());
            }
        } finally {
            client.close();
        }
        assertEquals(1, connections.get() - before, "keep-alive reuses one connection after reading each error body");
    }
}
