package io.capstream.loadgen.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link ApiEndpointStreamsTest}'s tests against Vert.x's HTTP client ({@link HttpClientKind#VERTX}). */
class ApiEndpointStreamsVertxTest extends ApiEndpointStreamsTest {
    @BeforeAll
    static void vertxClient() {
        TestTransports.kind = HttpClientKind.VERTX;
    }

    @AfterAll
    static void defaultClient() {
        TestTransports.kind = HttpClientKind.DEFAULT;
    }
}
