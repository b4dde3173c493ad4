package io.capstream.loadgen.client;

import io.vertx.core.http.HttpConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP client's connections opened and not yet used by a request (issue 30): the client's connect handler
 * records each new connection with the instant it was ready ({@link #opened}); the first request handed that
 * connection claims it ({@link #claim}), so a request whose connection is not here went over a reused one. An entry
 * of a connection closed before any request used it is dropped on close. Thread-safe: connections of several event
 * loops; one map operation per request.
 */
final class NewConnections {
    /** A new connection: when it was ready and its channel's stamp (null without {@link TimedTransport}). */
    record Opened(long readyAt, ConnectStamp stamp) {
    }

    private final Map<HttpConnection, Opened> unused = new ConcurrentHashMap<>();

    /** @param conn a connection the HTTP client just established (its connect handler) */
    void opened(HttpConnection conn) {
        unused.put(conn, new Opened(System.nanoTime(), ConnectStamp.of(conn)));
        conn.closeHandler(v -> unused.remove(conn));
    }

    /**
     * @param conn the connection a request was handed, or null
     * @return how it was opened, when this is its first request; null for a reused connection
     */
    Opened claim(HttpConnection conn) {
        return conn == null ? null : unused.remove(conn);
    }
}
