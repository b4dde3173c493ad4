package io.capstream.loadgen.client;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;

/**
 * How a {@link StreamingClient} sends a streamed request and reports its response to its {@link StreamExchange}
 * ({@link HttpClientKind}): the connection handed over ({@link StreamExchange#obtained}), the request written
 * ({@link StreamExchange#sentAt}), the head, body bytes, end or failure. Every report runs on the request's event
 * loop, within its Vert.x context (the exchange's timers and promise belong there).
 */
interface StreamTransport {
    /**
     * Starts one request. Must be called on a Vert.x event-loop context; a connect failure is reported to
     * {@code ex}.
     *
     * @param ex   the request's exchange, its t0 taken and timers armed
     * @param ro   the request's options (URL, headers; the timeouts are the exchange's)
     * @param body the serialised body
     * @throws RuntimeException when the address cannot be used at all (the caller fails the request with it)
     */
    void send(StreamExchange ex, RequestOptions ro, Buffer body);

    /** Closes the transport's connections; requests in flight fail. */
    void close();
}
