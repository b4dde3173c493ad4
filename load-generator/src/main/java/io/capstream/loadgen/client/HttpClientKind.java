package io.capstream.loadgen.client;

import java.util.Locale;

/**
 * Which HTTP client sends the streamed requests ({@code --http-client}, issue 33): Netty's HTTP/1.1 codec directly on
 * a channel of Vert.x's own event loops ({@link NettyStreamTransport}), or Vert.x's {@code HttpClient}
 * ({@link VertxStreamTransport}). Both feed the same SSE framing and measurement; the non-streamed endpoints
 * (embeddings, rerank) always use Vert.x's.
 */
public enum HttpClientKind {
    /** Netty's HTTP/1.1 decoder and encoder on a channel per connection: no per-chunk Vert.x pipeline (the default). */
    NETTY,
    /** Vert.x's {@code HttpClient} (the client before issue 33 item 4). */
    VERTX;

    /** The default: {@link #NETTY}. */
    public static final HttpClientKind DEFAULT = NETTY;

    /**
     * @param s {@code netty} or {@code vertx} (any case)
     * @return the kind
     * @throws IllegalArgumentException for any other value, with a one-line message naming the choices
     */
    public static HttpClientKind parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--http-client: expected netty or vertx, got '" + s + "'");
        }
    }

    /** @return the option's value, lower case */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
