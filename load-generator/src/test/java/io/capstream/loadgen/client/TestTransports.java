package io.capstream.loadgen.client;

/**
 * The HTTP client the StreamingClient tests build their clients with ({@link HttpClientKind}): the default, or
 * {@link HttpClientKind#VERTX} while a {@code *VertxTest} subclass runs the same tests against Vert.x's client.
 */
final class TestTransports {
    static volatile HttpClientKind kind = HttpClientKind.DEFAULT;

    private TestTransports() {
    }

    /** @return {@code c} with the tests' HTTP client */
    static ClientConfig with(ClientConfig c) {
        return c.withHttpClient(kind);
    }
}
