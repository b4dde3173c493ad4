package io.capstream.loadgen.client;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;

/**
 * The streamed requests on Vert.x's {@link HttpClient} ({@link HttpClientKind#VERTX}): the client and its new
 * connections' phases are {@link ClientConnections}'; the response's head and body reach the exchange through
 * Vert.x's response handlers ({@link StreamExchange#onResponse}).
 */
final class VertxStreamTransport implements StreamTransport {
    private final HttpClient client;
    private final ClientConnections connections;

    /** @param connections the client's connections (its Vert.x HTTP client) */
    VertxStreamTransport(ClientConnections connections) {
        this.connections = connections;
        this.client = connections.client;
    }

    @Override
    public void send(StreamExchange ex, RequestOptions ro, Buffer body) {
        client.request(ro).onComplete(ar -> {
            if (ar.failed()) {
                ex.fail(FailureMapper.map(ar.cause(), FailureMapper.Phase.CONNECT, 0));
                return;
            }
            HttpClientRequest req = ar.result();
            req.exceptionHandler(t -> { }); // failures arrive through send()'s future; late ones are moot
            ex.obtained(() -> {
                if (req.connection() != null) {
                    req.connection().close();
                }
            }, connections.claim(req.connection()));
            if (ex.finished) { // timed out meanwhile
                ex.closeConnection();
                return;
            }
            req.end(body).onSuccess(v -> ex.sentAt = System.nanoTime());
            req.response().onComplete(ar2 -> {
                if (ar2.failed()) {
                    ex.onHeadError(ar2.cause());
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
}
