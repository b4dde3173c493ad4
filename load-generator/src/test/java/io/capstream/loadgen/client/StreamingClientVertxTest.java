package io.capstream.loadgen.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link StreamingClientTest}'s tests against Vert.x's HTTP client ({@link HttpClientKind#VERTX}). */
class StreamingClientVertxTest extends StreamingClientTest {
    @BeforeAll
    static void vertxClient() {
        TestTransports.kind = HttpClientKind.VERTX;
    }

    @AfterAll
    static void defaultClient() {
        TestTransports.kind = HttpClientKind.DEFAULT;
    }
}
