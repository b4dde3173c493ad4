package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;

/**
 * The request path of the endpoints that do not stream (issue 30): embeddings and rerank. {@link StreamingClient}
 * hands such requests here, on its own HTTP client and with its request options (URL, headers, timeouts). For each
 * request: the inputs (documents) it sends are counted from its body ({@link InputsAnswer#inputsOf}), then
 * {@code t0 = System.nanoTime()} just before the connection is requested; the whole body is read (at most
 * {@value #MAX_BODY_BYTES} bytes); the request latency (e2e) is read when the body ended; then the body is checked
 * ({@link InputsAnswer}: one embedding per input, one result per document) and {@code usage} gives the input
 * tokens. There is no first token: the result's TTFO and TTFT are -1 (not reached). A non-2xx status fails as
 * {@code HTTPError} with the server's message ({@link NonStreamBody}); the {@code --timeout} is the connect timeout
 * and an idle timeout for the head and each read, as for streams. The future never fails. Callbacks run on the
 * event loop of the calling context.
 */
public final class InputsClient {
    /** Largest answer read, bytes (a batch of 4096-dimension vectors as JSON is about 80 KB per input). */
    public static final int MAX_BODY_BYTES = 256 * 1024 * 1024;

    private final Vertx vertx;
    private final HttpClient client;
    private final long timeoutMs;
    private final boolean keepAlive;
    private final ApiEndpoint endpoint;

    /**
     * @param vertx     Vert.x (timers)
     * @param client    the HTTP client to send on (not closed here)
     * @param timeoutMs connect and idle timeout, ms (&gt;= 1)
     * @param keepAlive whether connections are reused (else each is closed after its answer)
     * @param endpoint  {@link ApiEndpoint#EMBEDDINGS} or {@link ApiEndpoint#RERANK}
     */
    public InputsClient(Vertx vertx, HttpClient client, long timeoutMs, boolean keepAlive, ApiEndpoint endpoint) {
        this.vertx = vertx;
        this.client = client;
        this.timeoutMs = timeoutMs;
        this.keepAlive = keepAlive;
        this.endpoint = endpoint;
    }

    /**
     * Sends one request. Must be called on a Vert.x event-loop context.
     *
     * @param ro   the request options (method, URL, headers, timeouts); not null
     * @param body the serialised body (built before t0): its {@code input} or {@code documents} array sets the items
     *             the answer must have
     * @return the result; always succeeds (failures are results with an error)
     */
    public Future<RequestResult> execute(RequestOptions ro, Buffer body) {
        byte[] sent = body.getBytes();
        int inputs = InputsAnswer.inputsOf(endpoint, sent, sent.length);
        Exchange ex = new Exchange(System.nanoTime(), inputs);
        try {
            ex.timerId = vertx.setTimer(timeoutMs, ex::onIdleTimer);
            client.request(ro).onComplete(ar -> {
                if (ar.failed()) {
                    ex.finish(System.nanoTime(), FailureMapper.map(ar.cause(), FailureMapper.Phase.CONNECT, 0));
                    return;
                }
                HttpClientRequest req = ar.result();
                req.exceptionHandler(t -> { });
                ex.request = req;
                ex.lastActivity = System.nanoTime();
                if (ex.finished) {
                    ex.closeConnection();
                    return;
                }
                req.send(body).onComplete(ar2 -> {
                    if (ar2.failed()) {
                        ex.finish(System.nanoTime(), FailureMapper.map(ar2.cause(), FailureMapper.Phase.HEADERS, 0));
                    } else {
                        ex.onResponse(ar2.result());
                    }
                });
            });
        } catch (RuntimeException e) {
            ex.finish(System.nanoTime(), FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0));
        }
        return ex.promise.future();
    }

    /** One request in flight; used only on its event loop. */
    private final class Exchange {
        final long t0;
        final int inputs;
        final Promise<RequestResult> promise = Promise.promise();
        HttpClientRequest request;
        long lastActivity;
        long timerId = -1;
        boolean finished;
        int status = -1;
        long promptTokens = -1;
        long bytes;
        NonStreamBody errorBody;
        Buffer answer;
        final ServerReplyCapture server = new ServerReplyCapture(); // issue 33: the response's headers only

        Exchange(long t0, int inputs) {
            this.t0 = t0;
            this.inputs = inputs;
            this.lastActivity = t0;
        }

        void onIdleTimer(long id) {
            timerId = -1;
            if (finished) {
                return;
            }
            long idleMs = (System.nanoTime() - lastActivity) / 1_000_000;
            if (idleMs >= timeoutMs) {
                finish(System.nanoTime(), request != null ? RequestError.of(ErrorTypes.TIMEOUT_ERROR, "timed out")
                        : RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error timed out>"));
                closeConnection();
            } else {
                timerId = vertx.setTimer(Math.max(1, timeoutMs - idleMs), this::onIdleTimer);
            }
        }

        void onResponse(HttpClientResponse resp) {
            long statusAt = System.nanoTime();
            lastActivity = statusAt;
            status = resp.statusCode();
            server.head(resp);
            if (status < 200 || status >= 300) {
                errorBody = NonStreamBody.httpError(status, resp.statusMessage());
            } else {
                answer = Buffer.buffer(16 * 1024);
            }
            resp.exceptionHandler(t -> {
                if (!finished) {
                    finish(System.nanoTime(), errorBody != null ? errorBody.error()
                            : FailureMapper.map(t, FailureMapper.Phase.BODY, bytes));
                    closeConnection();
                }
            });
            resp.handler(buf -> {
                if (finished) {
                    return; // the rest of an error body, read so that a kept-alive connection can be reused
                }
                lastActivity = System.nanoTime();
                bytes += buf.length();
                if (errorBody != null) {
                    errorBody.append(buf);
                } else if (answer.length() + (long) buf.length() > MAX_BODY_BYTES) {
                    finish(lastActivity, RequestError.of(ErrorTypes.VALUE_ERROR, "the " + endpoint.label()
                            + " answer is larger than " + MAX_BODY_BYTES + " bytes"));
                    closeConnection();
                } else {
                    answer.appendBuffer(buf);
                }
            });
            resp.endHandler(v -> {
                if (finished) {
                    return;
                }
                long end = System.nanoTime();
                if (errorBody != null) {
                    finish(statusAt, errorBody.error());
                } else {
                    byte[] b = answer.getBytes();
                    answer = null;
                    InputsAnswer.Read read = InputsAnswer.read(endpoint, b, b.length, inputs);
                    promptTokens = read.promptTokens();
                    finish(end, read.error());
                }
                if (!keepAlive) {
                    closeConnection();
                }
            });
        }

        void closeConnection() {
            if (request != null && request.connection() != null) {
                request.connection().close();
            }
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
            promise.complete(new RequestResult(t0, -1, -1, now - t0, status, promptTokens, -1, -1, 0, 0, -1, null,
                    bytes, OutputChunkGaps.NONE, error, 0, Reply.NONE, null, server.reply()));
        }
    }
}
