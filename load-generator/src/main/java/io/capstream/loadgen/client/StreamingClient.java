package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.workload.ModelsProbe;
import java.util.List;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * Non-blocking streaming chat-completion client on the Vert.x {@link HttpClient} (spec §2.2, §2.4,
 * §4). For each request: the body is already serialised; {@code t0 = System.nanoTime()} is read just
 * before the connection is requested; every body chunk gets one {@code System.nanoTime()} when it
 * arrives, which stamps the lines it completes ({@link ChunkAccumulator}); e2e is read at the end of
 * the body or at {@code [DONE]}. The {@code --timeout} is the connect timeout and an idle timeout
 * for the response head and for each read, not a total deadline. Every failure is returned as a
 * {@link RequestResult} with an {@link RequestError}: the future never fails.
 *
 * <p>A body that is not a stream is read up to {@link NonStreamBody#MAX_BYTES} (under the same
 * idle timeout) for the server's message: a non-2xx status fails as {@code HTTPError} with the
 * elapsed time of the status; a 2xx whose Content-Type is JSON ({@link NonStreamBody#isJson})
 * fails as {@code ValueError} "endpoint did not stream" at the end of its body. With keep-alive,
 * the rest of a longer body is read and discarded so that the connection can be reused.
 *
 * <p>Headers: {@code Content-Type: application/json}, {@code Accept-Encoding: identity},
 * {@code Authorization: Bearer <key>} when a key is configured, {@code Connection: close}
 * unless keep-alive is on, then the {@code -H} headers ({@link ExtraHeader}). For the Messages API
 * ({@link ApiEndpoint#MESSAGES}): {@code anthropic-version: 2023-06-01}, and the {@code --api-key-env} key as
 * {@code x-api-key} instead of {@code Authorization}. The path is the configured
 * endpoint's ({@link ApiEndpoint#path()}). Callbacks run on the event loop of the context the request was started
 * from; call {@link #execute} from the event-loop context that should own the connection.
 * <p>Embeddings and rerank (issue 30) are not streamed: an {@link InputsClient} sends them on the same connections.
 */
public final class StreamingClient implements AutoCloseable {
    /** The header naming the Messages API version (issue 29); a {@code -H} header of the same name replaces it. */
    public static final String ANTHROPIC_VERSION = "anthropic-version";
    /** The Messages API version sent: the one Anthropic's streaming format above is documented for. */
    public static final String ANTHROPIC_VERSION_VALUE = "2023-06-01";
    private final Vertx vertx;
    private final HttpClient client;
    private final String url;
    private final long timeoutMs;
    private final boolean keepAlive;
    private final String authorization;
    private final String xApiKey;
    private final List<ExtraHeader> headers;
    private final ApiEndpoint endpoint;
    private final boolean toolsSent;
    private final boolean keepReply;
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[16 * 1024]);
    private final NewConnections connections = new NewConnections();
    private final boolean https;
    private final boolean namedHost;
    private final InputsClient inputsClient; // embeddings, rerank (issue 30); null for the streamed endpoints

    /**
     * A client that checks an https endpoint against the JVM's trust store.
     *
     * @param vertx  Vert.x
     * @param config settings
     */
    public StreamingClient(Vertx vertx, ClientConfig config) {
        this(vertx, config, ClientTls.DEFAULT);
    }

    /**
     * @param vertx  Vert.x; built with {@link TimedTransport#vertx} for each new connection's DNS, connect and TLS
     *               split in {@link RequestResult#phases()} (else a new connection's setup counts as connect)
     * @param config settings
     * @param tls    how an https endpoint's certificate is checked ({@code --insecure}, {@code --ca-cert})
     */
    public StreamingClient(Vertx vertx, ClientConfig config, ClientTls tls) {
        this.vertx = vertx;
        this.url = ModelsProbe.stripSlash(config.baseUrl()) + config.endpoint().path();
        this.endpoint = config.endpoint();
        this.headers = config.headers();
        this.toolsSent = config.toolsSent();
        this.keepReply = config.keepReply();
        this.timeoutMs = Math.max(1, Math.round(config.timeoutS() * 1000));
        this.keepAlive = config.keepAlive();
        // Anthropic's Messages API takes the key as x-api-key (and a basic-auth URL's credentials stay in Authorization)
        this.xApiKey = endpoint == ApiEndpoint.MESSAGES ? config.apiKey().bareKey().orElse(null) : null;
        this.authorization = xApiKey != null ? null : config.apiKey().authorizationHeader().orElse(null);
        this.https = url.regionMatches(true, 0, "https:", 0, 6);
        this.namedHost = HostNames.isName(url);
        HttpClientOptions options = tls.apply(new HttpClientOptions())
                .setKeepAlive(keepAlive)
                .setPipelining(false)
                .setTcpNoDelay(true)
                .setDecompressionSupported(false)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs));
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(Math.max(1, config.maxConnections()))
                .setMaxWaitQueueSize(-1);
        // the connect handler marks each new connection: its first request has connect and TLS phases (issue 30)
        this.client = vertx.httpClientBuilder().with(options).with(pool).withConnectHandler(connections::opened)
                .build();
        this.inputsClient = endpoint.streamed() ? null : new InputsClient(vertx, client, timeoutMs, keepAlive, endpoint);
    }

    /**
     * Sends one streaming request. Must be called on a Vert.x event-loop context (the response is
     * processed there).
     *
     * @param body serialised request body (built before t0, so serialisation is not measured)
     * @return the result; the future always succeeds, also when the address cannot be used (then a
     *         {@code URLError})
     */
    public Future<RequestResult> execute(Buffer body) {
        return execute(body, java.util.Map.of());
    }

    /**
     * As {@link #execute(Buffer)}, with headers of this request only (e.g. a conversation's {@code --session-header}),
     * set after the run's own and {@code -H} headers.
     *
     * @param body    serialised request body
     * @param headers name to value, sent with this request only; not null (empty for none)
     * @return the result; the future always succeeds
     */
    public Future<RequestResult> execute(Buffer body, java.util.Map<String, String> headers) {
        return execute(body, headers, -1);
    }

    /**
     * As {@link #execute(Buffer, java.util.Map)}, cancelled by the client {@code cancelAfterNs} after t0 (issue 30,
     * {@code --cancel-rate}): unless it ended before, the connection is closed then (the server sees the client
     * gone) and the result has an error of type {@link ErrorTypes#CANCELLED} with what had arrived (first output and
     * content, chunks, usage).
     *
     * @param body          serialised request body
     * @param headers       name to value, sent with this request only; not null (empty for none)
     * @param cancelAfterNs when the client cancels, ns after t0; negative = never
     * @return the result; the future always succeeds
     */
    public Future<RequestResult> execute(Buffer body, java.util.Map<String, String> headers, long cancelAfterNs) {
        RequestOptions ro;
        try {
            ro = options();
            headers.forEach(ro::putHeader);
        } catch (RuntimeException e) {
            return unusable(e);
        }
        if (inputsClient != null) {
            return inputsClient.execute(ro, body);
        }
        Exchange ex = new Exchange(System.nanoTime());
        try {
            ex.armIdleTimer();
            ex.armCancel(cancelAfterNs);
            send(ex, ro, body);
        } catch (RuntimeException e) {
            // an address Vert.x cannot use (port out of range, ...) can throw here instead of failing the
            // future: it is this request's failure, never an exception on the event loop that leaves it unanswered
            ex.fail(FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0));
        }
        return ex.promise.future();
    }

    /** @return a failed request for an address that cannot even be put into the request options (malformed) */
    private Future<RequestResult> unusable(RuntimeException e) {
        Exchange ex = new Exchange(System.nanoTime());
        ex.fail(FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0));
        return ex.promise.future();
    }

    private RequestOptions options() {
        RequestOptions ro = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(url)
                .setConnectTimeout(timeoutMs)
                .setIdleTimeout(timeoutMs)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept-Encoding", "identity")
                .putHeader("User-Agent", "capstream");
        if (!keepAlive) {
            ro.putHeader("Connection", "close");
        }
        if (authorization != null) {
            ro.putHeader("Authorization", authorization);
        }
        if (endpoint == ApiEndpoint.MESSAGES) {
            ro.putHeader(ANTHROPIC_VERSION, ANTHROPIC_VERSION_VALUE);
            if (xApiKey != null) {
                ro.putHeader("x-api-key", xApiKey);
            }
        }
        ExtraHeader.apply(headers, ro.getHeaders());
        return ro;
    }

    private void send(Exchange ex, RequestOptions ro, Buffer body) {
        client.request(ro).onComplete(ar -> {
            if (ar.failed()) {
                ex.fail(FailureMapper.map(ar.cause(), FailureMapper.Phase.CONNECT, 0));
                return;
            }
            HttpClientRequest req = ar.result();
            req.exceptionHandler(t -> { }); // failures arrive through send()'s future; late ones are moot
            ex.request = req;
            ex.connected = true;
            ex.lastActivity = System.nanoTime(); // the timeout applies to each step, like a socket timeout
            ex.obtainedAt = ex.lastActivity;
            ex.opened = connections.claim(req.connection());
            if (ex.finished) { // timed out meanwhile
                ex.closeConnection();
                return;
            }
            req.end(body).onSuccess(v -> ex.sentAt = System.nanoTime());
            req.response().onComplete(ar2 -> {
                if (ar2.failed()) {
                    ex.fail(FailureMapper.map(ar2.cause(), FailureMapper.Phase.HEADERS, 0));
                } else {
                    ex.onResponse(ar2.result());
                }
            });
        });
    }

    @Override
    public void close() {
        client.close();
    }

    /** One request/response in flight. Used only on its event loop. */
    private final class Exchange implements Handler<Buffer> {
        final long t0;
        final io.vertx.core.Promise<RequestResult> promise = io.vertx.core.Promise.promise();
        final ChunkAccumulator acc;
        final SseLineSplitter splitter;
        HttpClientRequest request;
        HttpClientResponse response;
        int status = -1;
        boolean finished;
        boolean connected;
        long lastActivity;
        long timerId = -1;
        long cancelTimerId = -1;
        long doneAt = -1;
        long obtainedAt = -1; // HTTP phases (issue 30): the connection handed over, request written, first chunk
        NewConnections.Opened opened; // the connection was opened for this request (null: reused)
        long sentAt = -1;
        long headersAt = -1;
        long firstChunkAt = -1;
        NonStreamBody nonStream; // a body read for its message instead of as a stream
        long nonStreamEndAt = -1; // elapsed end of such a failure, or -1 for when the body ends

        Exchange(long t0) {
            this.t0 = t0;
            this.acc = new ChunkAccumulator(t0, endpoint, toolsSent, keepReply);
            this.splitter = new SseLineSplitter(acc);
        }

        /**
         * Per-read timeout (spec §2.4): one timer per timeout period, re-armed for the remaining
         * time when data arrived meanwhile, instead of a timer reset per chunk.
         */
        void armIdleTimer() {
            lastActivity = t0;
            timerId = vertx.setTimer(timeoutMs, this::onIdleTimer);
        }

        /** Arms the client's cancel (issue 30) {@code afterNs} after t0; nothing when negative. */
        void armCancel(long afterNs) {
            if (afterNs >= 0) {
                long ms = Math.max(1, (afterNs - (System.nanoTime() - t0) + 999_999) / 1_000_000);
                cancelTimerId = vertx.setTimer(ms, id -> cancel());
            }
        }

        /**
         * The client abandons the request (issue 30): unless it ended, it ends now as cancelled with what had arrived,
         * and its connection is closed so that the server sees the client gone. A stream whose {@code [DONE]} already
         * arrived completes normally; an error answer whose body is being read fails with the server's error.
         */
        void cancel() {
            cancelTimerId = -1;
            if (finished) {
                return;
            }
            if (doneAt >= 0) {
                finishAt(doneAt, null);
            } else if (nonStream != null) {
                endNonStream(); // an error answer being read: the server's failure, not a cancel
            } else {
                long at = System.nanoTime();
                if (response != null) {
                    endOfEvents(at);
                }
                finish(at, RequestError.of(ErrorTypes.CANCELLED, "cancelled by the client after "
                        + (at - t0) / 1_000_000 + " ms (--cancel-after)"));
            }
            closeConnection();
        }

        void onIdleTimer(long id) {
            timerId = -1;
            if (finished) {
                return;
            }
            long idleMs = (System.nanoTime() - lastActivity) / 1_000_000;
            if (idleMs >= timeoutMs) {
                if (doneAt >= 0) {
                    finishAt(doneAt, acc.failure());
                } else if (nonStream != null) {
                    endNonStream();
                } else {
                    if (response != null) {
                        endOfEvents(System.nanoTime());
                    }
                    finish(System.nanoTime(), connected || request != null
                            ? RequestError.of(ErrorTypes.TIMEOUT_ERROR, "timed out")
                            : RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error timed out>"));
                }
                closeConnection();
            } else {
                timerId = vertx.setTimer(Math.max(1, timeoutMs - idleMs), this::onIdleTimer);
            }
        }

        void onResponse(HttpClientResponse resp) {
            long statusAt = System.nanoTime();
            lastActivity = statusAt;
            headersAt = statusAt;
            response = resp;
            status = resp.statusCode();
            if (status < 200 || status >= 300) {
                readNonStream(resp, NonStreamBody.httpError(status, resp.statusMessage()), statusAt);
                return;
            }
            String contentType = resp.getHeader("Content-Type");
            if (NonStreamBody.isJson(contentType)) {
                readNonStream(resp, NonStreamBody.notStreamed(contentType), -1);
                return;
            }
            resp.handler(this);
            resp.exceptionHandler(t -> {
                if (doneAt >= 0) {
                    finishAt(doneAt, null);
                } else if (!finished) {
                    long at = System.nanoTime();
                    endOfEvents(at);
                    finish(at, FailureMapper.map(t, FailureMapper.Phase.BODY, splitter.bytes()));
                }
            });
            resp.endHandler(v -> {
                if (doneAt >= 0) {
                    finishAt(doneAt, null);
                } else if (!finished) {
                    long now = System.nanoTime();
                    acc.at(now);
                    splitter.finish();
                    finish(now, acc.failure());
                }
            });
        }

        @Override
        public void handle(Buffer buf) {
            if (finished || doneAt >= 0) {
                return;
            }
            long now = System.nanoTime();
            lastActivity = now;
            if (firstChunkAt < 0) {
                firstChunkAt = now;
            }
            acc.at(now);
            int len = buf.length();
            byte[] s = scratch.get();
            if (s.length < len) {
                s = new byte[Math.max(len, s.length * 2)];
                scratch.set(s);
            }
            buf.getBytes(0, len, s, 0);
            if (!splitter.feed(s, 0, len)) {
                if (keepAlive && acc.failure() == null) {
                    // [DONE]: e2e is now; complete at the end of the body so the connection can be
                    // reused, or when the server keeps it open past a short grace period
                    doneAt = now;
                    vertx.cancelTimer(timerId);
                    timerId = vertx.setTimer(Math.min(timeoutMs, 1000), id -> {
                        if (!finished) {
                            finishAt(doneAt, null);
                            closeConnection();
                        }
                    });
                } else {
                    finish(now, acc.failure());
                    closeConnection();
                }
            }
        }

        /** An event that the cut or stalled body left open still counts (spec: until the end of the stream). */
        void endOfEvents(long at) {
            acc.at(at);
            acc.onEnd();
        }

        /**
         * Reads the first {@link NonStreamBody#MAX_BYTES} of a body that is not a stream, then
         * fails with the server's message; the idle timer keeps running meanwhile.
         *
         * @param endAt the failure's end (nanoTime), or -1 for when the body read ends
         */
        void readNonStream(HttpClientResponse resp, NonStreamBody b, long endAt) {
            nonStream = b;
            nonStreamEndAt = endAt;
            resp.exceptionHandler(t -> {
                if (!finished) {
                    endNonStream();
                    closeConnection();
                }
            });
            resp.endHandler(v -> {
                if (!finished) {
                    endNonStream();
                    if (!keepAlive) {
                        closeConnection();
                    }
                }
            });
            resp.handler(buf -> {
                if (finished) {
                    return; // keep-alive: the rest of the body is discarded so that the connection can be reused
                }
                lastActivity = System.nanoTime();
                if (!b.append(buf)) {
                    endNonStream();
                    if (!keepAlive) {
                        closeConnection();
                    }
                }
            });
        }

        void endNonStream() {
            finish(nonStreamEndAt >= 0 ? nonStreamEndAt : System.nanoTime(), nonStream.error());
        }

        void closeConnection() {
            if (request != null && request.connection() != null) {
                request.connection().close();
            }
        }

        void fail(RequestError error) {
            finish(System.nanoTime(), error);
        }

        void finishAt(long at, RequestError error) {
            finish(at, error);
        }

        void finish(long now, RequestError error) {
            if (finished) {
                return;
            }
            finished = true;
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
                timerId = -1;
            }
            if (cancelTimerId >= 0) {
                vertx.cancelTimer(cancelTimerId);
                cancelTimerId = -1;
            }
            RequestError e = error != null ? error : acc.visibleContentFailure();
            promise.complete(new RequestResult(t0, acc.ttfoNs(), acc.ttftNs(), now - t0, status,
                    acc.promptTokens(), acc.completionTokens(), acc.cachedTokens(), acc.contentChunks(),
                    acc.reasoningChunks(), acc.maxGapNs(), acc.finishReason(),
                    nonStream != null ? nonStream.bytes() : splitter.bytes(), acc.outputChunkGaps(), e,
                    acc.toolCallChunks(), acc.reply(), phases()));
        }

        /** @return the HTTP phases, or null when no connection was handed over (it failed before) */
        HttpTimings phases() {
            if (obtainedAt < 0) {
                return null;
            }
            return HttpTimings.measure(t0, obtainedAt, opened != null, opened == null ? null : opened.stamp(),
                    opened == null ? -1 : opened.readyAt(), namedHost, https, sentAt, headersAt, firstChunkAt);
        }
    }
}
