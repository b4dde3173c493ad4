package io.capstream.loadgen.client;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import java.util.List;

/**
 * One streamed request/response of a {@link StreamingClient} in flight: the idle timeout (spec §2.4) and the client's
 * cancel (issue 30), the response head, each body chunk stamped with one {@link System#nanoTime()} when it arrives and
 * fed to the {@link SseLineSplitter} / {@link ChunkAccumulator}, {@code [DONE]} and the end of the body, a body that
 * is not a stream ({@link NonStreamRead}), and the result with its HTTP phases ({@link ClientConnections#phases}).
 * {@link StreamingClient} reads t0 just before the connection is requested; its {@link StreamTransport} (Vert.x's
 * HTTP client or Netty's channel, {@link HttpClientKind}) hands the connection over ({@link #obtained}) and reports
 * the response: its head ({@link #onHead}), body bytes ({@link #onBytes}), end ({@link #onBodyEnd}) or failure
 * ({@link #onBodyError}, {@link #onHeadError}). The promise always succeeds, in a task of the request's context after
 * the event loop's I/O step (the result is fixed when the request ends). Used only on its event loop.
 */
final class StreamExchange implements NonStreamRead.Owner {
    /** The connection a transport handed the request: closing it is how the client cancels or gives up. */
    interface Link {
        /** Closes the connection if it still serves this request. */
        void close();
    }

    final long t0;
    final Promise<RequestResult> promise = Promise.promise();
    final ChunkAccumulator acc;
    final SseLineSplitter splitter;
    Link link; // the connection, once handed over
    boolean responded; // the response head arrived
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
    private final io.vertx.core.Context context; // the request's: its result is handed over there
    private final long timeoutMs;
    private final boolean keepAlive;
    private final ThreadLocal<byte[]> scratch;
    private final ClientConnections connections;

    /**
     * @param t0          when the request started ({@link System#nanoTime()}, just before the connection is requested)
     * @param acc         the accumulator of its stream, started at t0
     * @param vertx       Vert.x (timers); the exchange is created on the request's context (its result is handed
     *                    over there)
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
        this.context = vertx.getOrCreateContext();
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
     * Cancels the request from any thread, on its own context, as {@link #cancel(String)} does (an interrupted run
     * gives up the requests still in flight after its grace period).
     *
     * @param why the end of the error message, e.g. {@code the run was interrupted}; not null
     */
    void cancelFromAnyThread(String why) {
        context.runOnContext(v -> cancel(why));
    }

    /**
     * The client abandons the request (issue 30): unless it ended, it ends now as cancelled with what had arrived,
     * and its connection is closed so that the server sees the client gone. A stream whose {@code [DONE]} already
     * arrived completes normally; an error answer whose body is being read fails with the server's error.
     */
    void cancel() {
        cancel("--cancel-after");
    }

    /**
     * As {@link #cancel()}, with the reason the error message ends with.
     *
     * @param why e.g. {@code --cancel-after}; not null
     */
    private void cancel(String why) {
        if (cancelTimerId >= 0) {
            vertx.cancelTimer(cancelTimerId); // a no-op when it is this timer that fired
        }
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
            if (responded) {
                endOfEvents(at);
            }
            finish(at, RequestError.of(ErrorTypes.CANCELLED, "cancelled by the client after "
                    + (at - t0) / 1_000_000 + " ms (" + why + ")"));
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
                if (responded) {
                    endOfEvents(System.nanoTime());
                }
                finish(System.nanoTime(), connected
                        ? RequestError.of(ErrorTypes.TIMEOUT_ERROR, "timed out")
                        : RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error timed out>"));
            }
            closeConnection();
        } else {
            timerId = vertx.setTimer(Math.max(1, timeoutMs - idleMs), this::onIdleTimer);
        }
    }

    /**
     * The transport handed the request its connection.
     *
     * @param link   the connection
     * @param opened how it was opened for this request, or null for a reused one
     */
    void obtained(Link link, NewConnections.Opened opened) {
        this.link = link;
        connected = true;
        lastActivity = System.nanoTime(); // the timeout applies to each step, like a socket timeout
        obtainedAt = lastActivity;
        this.opened = opened;
    }

    /** Vert.x's HTTP client: the response head arrived; its body is routed to this exchange. */
    void onResponse(HttpClientResponse resp) {
        onHead(System.nanoTime(), resp.statusCode(), resp.statusMessage(), resp.getHeader("Content-Type"),
                resp.getHeader(TraceHeaders.REQUEST_ID), resp.headers().getAll("Server-Timing"));
        resp.handler(this::onBuffer);
        resp.exceptionHandler(this::onBodyError);
        resp.endHandler(v -> onBodyEnd());
    }

    /**
     * The response head arrived: a non-2xx status or a JSON body is read for its message ({@link NonStreamRead}),
     * anything else as the stream.
     *
     * @param statusAt     when it arrived, {@link System#nanoTime()} (its read's stamp)
     * @param statusCode   HTTP status
     * @param reason       the status line's reason phrase, or null
     * @param contentType  the Content-Type header, or null
     * @param requestId    the response's {@code X-Request-Id}, or null
     * @param serverTiming the response's {@code Server-Timing} values; not null
     */
    void onHead(long statusAt, int statusCode, String reason, String contentType, String requestId,
                List<String> serverTiming) {
        lastActivity = statusAt;
        headersAt = statusAt;
        responded = true;
        status = statusCode;
        acc.head(requestId, serverTiming);
        if (status < 200 || status >= 300) {
            nonStream = new NonStreamRead(NonStreamBody.httpError(status, reason), statusAt, this, keepAlive);
        } else if (NonStreamBody.isJson(contentType)) {
            nonStream = new NonStreamRead(NonStreamBody.notStreamed(contentType), -1, this, keepAlive);
        }
    }

    /** The response head could not be read (the connection closed or failed before it). */
    void onHeadError(Throwable t) {
        if (!finished) {
            fail(FailureMapper.map(t, FailureMapper.Phase.HEADERS, 0));
        }
    }

    /** The body failed (closed, reset) before its end. */
    void onBodyError(Throwable t) {
        if (nonStream != null) {
            nonStream.failed();
        } else if (doneAt >= 0) {
            finishAt(doneAt, null);
        } else if (!finished) {
            long at = System.nanoTime();
            endOfEvents(at);
            finish(at, FailureMapper.map(t, FailureMapper.Phase.BODY, splitter.bytes()));
        }
    }

    /** The body ended. */
    void onBodyEnd() {
        if (nonStream != null) {
            nonStream.ended();
        } else if (doneAt >= 0) {
            finishAt(doneAt, null);
        } else if (!finished) {
            long now = System.nanoTime();
            acc.at(now);
            splitter.finish();
            finish(now, acc.failure());
        }
    }

    /** Vert.x's HTTP client: a body chunk, stamped now and copied into the scratch buffer. */
    private void onBuffer(Buffer buf) {
        if (finished && nonStream == null) {
            return;
        }
        long now = System.nanoTime();
        int len = buf.length();
        byte[] s = scratch(len);
        buf.getBytes(0, len, s, 0);
        onBytes(now, s, 0, len);
    }

    /**
     * @param len bytes needed
     * @return the client's per-thread buffer, of at least {@code len} bytes (valid until the next call on this thread)
     */
    byte[] scratch(int len) {
        byte[] s = scratch.get();
        if (s.length < len) {
            s = new byte[Math.max(len, s.length * 2)];
            scratch.set(s);
        }
        return s;
    }

    /**
     * Body bytes arrived: the stream's lines are completed and stamped with {@code now} (one read of the clock per
     * read from the socket), or a non-stream body is kept for its message.
     *
     * @param now when they arrived, {@link System#nanoTime()}
     * @param b   the bytes (not kept)
     * @param off offset in {@code b}
     * @param len length
     */
    void onBytes(long now, byte[] b, int off, int len) {
        if (nonStream != null) {
            nonStream.data(now, b, off, len);
            return;
        }
        if (finished || doneAt >= 0) {
            return;
        }
        lastActivity = now;
        if (firstChunkAt < 0) {
            firstChunkAt = now;
        }
        acc.at(now);
        if (!splitter.feed(b, off, len)) {
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
        if (link != null) {
            link.close();
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
        RequestResult result = new RequestResult(t0, acc.ttfoNs(), acc.ttftNs(), now - t0, status,
                acc.promptTokens(), acc.completionTokens(), acc.cachedTokens(), acc.contentChunks(),
                acc.reasoningChunks(), acc.maxGapNs(), acc.finishReason(),
                nonStream != null ? nonStream.bytes() : splitter.bytes(), acc.outputChunkGaps(), e,
                acc.toolCallChunks(), acc.reply(), phases(), acc.serverReply());
        // The request's end work (its event, the closed loop's next start) runs as a task of its context, after
        // the event loop's I/O step, not inside the read that ended it: a closed loop's wave ends together, and a
        // new connection's request, written when its connect completes in that I/O step, then no longer waits
        // behind the whole wave's end work (bench/fidelity, wire.py --per-request). The result is fixed now.
        context.runOnContext(v -> promise.complete(result));
    }

    /** @return the HTTP phases, or null when no connection was handed over (it failed before) */
    HttpTimings phases() {
        if (obtainedAt < 0) {
            return null;
        }
        return connections.phases(t0, obtainedAt, opened, sentAt, headersAt, firstChunkAt);
    }
}
