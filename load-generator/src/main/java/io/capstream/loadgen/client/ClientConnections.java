package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ClientTls;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.PoolOptions;

/**
 * The connections of a {@link StreamingClient} (issue 30): its Vert.x {@link HttpClient} (TLS as {@code --insecure} /
 * {@code --ca-cert} say, keep-alive, no pipelining, TCP no-delay, no decompression, the {@code --timeout} as connect
 * timeout, up to {@code maxConnections} per host and an unbounded wait queue), the new connections not yet used by a
 * request ({@link NewConnections}, marked by the client's connect handler), and the HTTP phases of a request from its
 * instants ({@link HttpTimings}). Thread-safe.
 */
final class ClientConnections {
    /** The HTTP client; closed by {@link StreamingClient#close()}. */
    final HttpClient client;
    private final NewConnections connections = new NewConnections();
    private final boolean https;
    private final boolean namedHost;

    /**
     * @param vertx     Vert.x (see {@link StreamingClient#StreamingClient(Vertx, ClientConfig, ClientTls)})
     * @param config    settings (keep-alive, connections)
     * @param tls       how an https endpoint's certificate is checked
     * @param url       the absolute URL requested
     * @param timeoutMs connect timeout, ms
     */
    ClientConnections(Vertx vertx, ClientConfig config, ClientTls tls, String url, long timeoutMs) {
        this.https = url.regionMatches(true, 0, "https:", 0, 6);
        this.namedHost = HostNames.isName(url);
        HttpClientOptions options = tls.apply(new HttpClientOptions())
                .setKeepAlive(config.keepAlive())
                .setPipelining(false)
                .setTcpNoDelay(true)
                .setDecompressionSupported(false)
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMs));
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(Math.max(1, config.maxConnections()))
                .setMaxWaitQueueSize(-1);
        // the connect handler marks each new connection: its first request has connect and TLS phases (issue 30)
        this.client = vertx.httpClientBuilder().with(options).with(pool).withConnectHandler(connections::opened)
                .build();
    }

    /**
     * @param conn the connection a request was handed, or null
     * @return how it was opened, when this is its first request; null for a reused connection
     */
    NewConnections.Opened claim(HttpConnection conn) {
        return connections.claim(conn);
    }

    /**
     * The HTTP phases of a request whose connection was handed over (all instants {@link System#nanoTime()}, -1 for
     * not reached).
     *
     * @param t0           when the connection was requested
     * @param obtainedAt   when the connection was handed over
     * @param opened       how the connection was opened for this request, or null for a reused one
     * @param sentAt       when the request was written
     * @param headersAt    when the response head arrived
     * @param firstChunkAt when the first body chunk arrived
     * @return the phases
     */
    HttpTimings phases(long t0, long obtainedAt, NewConnections.Opened opened, long sentAt, long headersAt,
                       long firstChunkAt) {
        return HttpTimings.measure(t0, obtainedAt, opened != null, opened == null ? null : opened.stamp(),
                opened == null ? -1 : opened.readyAt(), namedHost, https, sentAt, headersAt, firstChunkAt);
    }
}
