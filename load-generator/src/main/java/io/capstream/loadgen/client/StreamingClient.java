package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
import io.capstream.loadgen.workload.ModelsProbe;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Non-blocking streaming chat-completion client on Vert.x's event loops (spec §2.2, §2.4,
 * §4). For each request: the body is already serialised; {@code t0 = System.nanoTime()} is read just
 * before the connection is requested; every body chunk gets one {@code System.nanoTime()} when it
 * arrives, which stamps the lines it completes ({@link ChunkAccumulator}); e2e is read at the end of
 * the body or at {@code [DONE]}. The {@code --timeout} is the connect timeout and an idle timeout
 * for the response head and for each read, not a total deadline. Every failure is returned as a
 * {@link RequestResult} with an {@link RequestError}: the future never fails.
 *
 * <p>Split by concern: the headers (auth, {@code anthropic-version}, {@code -H}, {@code Connection: close}) are
 * {@link RequestHeaders}'; the HTTP client, its new connections and the HTTP phases {@link ClientConnections}'; one
 * request's response, timeouts and result {@link StreamExchange}'s; a body that is not a stream is read for the
 * server's message by {@link NonStreamRead}; the streamed requests go through a {@link StreamTransport}: Netty's HTTP
 * codec on Vert.x's event loops ({@link NettyStreamTransport}) or Vert.x's {@link HttpClient}
 * ({@link VertxStreamTransport}), as {@link ClientConfig#httpClient()} says. The path is the configured endpoint's ({@link ApiEndpoint#path()}).
 * Callbacks run on the event loop of the context the request was started
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
    private final ClientConnections connections;
    private final RequestHeaders requestHeaders;
    private final long timeoutMs;
    private final boolean keepAlive;
    private final ApiEndpoint endpoint;
    private final boolean toolsSent;
    private final boolean keepReply;
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[16 * 1024]);
    private final InputsClient inputsClient; // embeddings, rerank (issue 30); null for the streamed endpoints
    private final StreamTransport transport;
    private final Set<StreamExchange> inFlight = ConcurrentHashMap.newKeySet(); // for cancelInFlight

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
        String url = ModelsProbe.stripSlash(config.baseUrl()) + config.endpoint().path();
        this.endpoint = config.endpoint();
        this.toolsSent = config.toolsSent();
        this.keepReply = config.keepReply();
        this.timeoutMs = Math.max(1, Math.round(config.timeoutS() * 1000));
        this.keepAlive = config.keepAlive();
        this.requestHeaders = new RequestHeaders(url, config, timeoutMs);
        this.connections = new ClientConnections(vertx, config, tls, url, timeoutMs);
        this.client = connections.client;
        this.inputsClient = endpoint.streamed() ? null : new InputsClient(vertx, client, timeoutMs, keepAlive, endpoint);
        this.transport = config.httpClient() == HttpClientKind.NETTY
                ? new NettyStreamTransport(vertx, url, tls, timeoutMs, keepAlive)
                : new VertxStreamTransport(connections);
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
            ro = requestHeaders.options();
            headers.forEach(ro::putHeader);
        } catch (RuntimeException e) {
            return unusable(e);
        }
        if (inputsClient != null) {
            return inputsClient.execute(ro, body);
        }
        StreamExchange ex = exchange(System.nanoTime());
        inFlight.add(ex);
        ex.promise.future().onComplete(r -> inFlight.remove(ex));
        try {
            ex.armIdleTimer();
            ex.armCancel(cancelAfterNs);
            transport.send(ex, ro, body);
        } catch (RuntimeException e) {
            // an address Vert.x cannot use (port out of range, ...) can throw here instead of failing the
            // future: it is this request's failure, never an exception on the event loop that leaves it unanswered
            ex.fail(FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0));
        }
        return ex.promise.future();
    }

    /**
     * Cancels every streamed request still in flight, each on its own event loop, as {@code --cancel-rate} cancels one
     * (the connection is closed; the result has an error of type {@link ErrorTypes#CANCELLED} with what had arrived,
     * its message ending in {@code (why)}). An interrupted run gives up its requests this way after its grace period,
     * so that the report of what ran can still be written. Requests to the embeddings and rerank endpoints are not
     * cancelled (they are not streamed). Thread-safe; may be called from any thread.
     *
     * @param why the reason the messages end with, e.g. {@code the run was interrupted}; not null
     * @return how many requests were asked to cancel (those that end meanwhile end as they would have)
     */
    public int cancelInFlight(String why) {
        int n = 0;
        for (StreamExchange ex : inFlight) {
            ex.cancelFromAnyThread(why);
            n++;
        }
        return n;
    }

    /** @return a failed request for an address that cannot even be put into the request options (malformed) */
    private Future<RequestResult> unusable(RuntimeException e) {
        StreamExchange ex = exchange(System.nanoTime());
        ex.fail(FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0));
        return ex.promise.future();
    }

    /** @return a new exchange started at {@code t0} */
    private StreamExchange exchange(long t0) {
        return new StreamExchange(t0, new ChunkAccumulator(t0, endpoint, toolsSent, keepReply), vertx, timeoutMs,
                keepAlive, scratch, connections);
    }

    @Override
    public void close() {
        transport.close();
        client.close();
    }
}
