package io.capstream.loadgen.client;

import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

/**
 * One streamed request/response of a {@link StreamingClient} in flight: the idle timeout (spec §2.4) and the client's
 * cancel (issue 30), the response head, each body chunk stamped with one {@link System#nanoTime()} when it arrives and
 * fed to the {@link SseLineSplitter} / {@link ChunkAccumulator}, {@code [DONE]} and the end of the body, a body that
 * is not a stream ({@link NonStreamRead}), and the result with its HTTP phases ({@link ClientConnections#phases}).
 * {@link StreamingClient} reads t0 just before the connection is requested and sets the connection fields when the
 * connection is handed over. The promise always succeeds. Used only on its event loop.
 */
final class StreamExchange implements Handler<Buffer>, NonStreamRead.Owner {
    final long t0;
    final Promise<RequestResult> promise = Promise.promise();
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
    NonStreamRead nonStream; // a body read for its message instead of as a stream

    private final Vertx vertx;
    private final long timeoutMs;
    private final boolean keepAlive;
    private final ThreadLocal<byte[]> scratch;
    private final ClientConnections connections;

    /**
     * @param t0          when the request started ({@link System#nanoTime()}, just before the connection is requested)
     * @param acc         the accumulator of its stream, started at t0
     * @param vertx       Vert.x (timers)
     * @param timeoutMs   connect and idle timeout, ms
     * @param keepAlive   whether connections are reused
     * @param scratch     the client's per-thread buffer the body chunks are copied into
     * @param connections the client's connections (HTTP phases)
     */
    StreamExchange(long t0, ChunkAccumulator acc, Vertx vertx, long timeoutMs, boolean keepAlive,
                   ThreadLocal<byte[]> scratch, ClientConnections connections) {
        this.t0 = t0;
        this.acc = acc;
        this.splitter = new SseLineSplitter(acc);
        this.vertx = vertx;
        this.timeoutMs = timeoutMs;
        this.keepAlive = keepAlive;
        this.scratch = scratch;
        this.connections = connections;
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
            nonStream.end(); // an error answer being read: the server's failure, not a cancel
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
                nonStream.end();
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
        acc.head(resp);
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

    /** Reads a body that is not a stream for the server's message; the idle timer keeps running meanwhile. */
    void readNonStream(HttpClientResponse resp, NonStreamBody b, long endAt) {
        nonStream = new NonStreamRead(b, endAt, this);
        nonStream.start(resp, keepAlive);
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public void active(long at) {
        lastActivity = at;
    }

    @Override
    public void closeConnection() {
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

    @Override
    public void finish(long now, RequestError error) {
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
                acc.toolCallChunks(), acc.reply(), phases(), acc.serverReply()));
    }

    /** @return the HTTP phases, or null when no connection was handed over (it failed before) */
    HttpTimings phases() {
        if (obtainedAt < 0) {
            return null;
        }
        return connections.phases(t0, obtainedAt, opened, sentAt, headersAt, firstChunkAt);
    }
}
