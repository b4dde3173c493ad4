package io.capstream.loadgen.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ServerMetricsConfigTest {
    @Test
    void offAutoAndAUrl() {
        assertEquals(ServerMetricsConfig.AUTO, ServerMetricsConfig.parse(null));
        assertEquals(ServerMetricsConfig.AUTO, ServerMetricsConfig.parse(" Auto "));
        assertEquals(ServerMetricsConfig.OFF, ServerMetricsConfig.parse("off"));
        ServerMetricsConfig u = ServerMetricsConfig.parse("http://127.0.0.1:8080/metrics");
        assertEquals(ServerMetricsConfig.Mode.URL, u.mode());
        assertEquals("http://127.0.0.1:8080/metrics", u.label());
    }

    @Test
    void anythingElseIsAOneLineUsageError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerMetricsConfig.parse("127.0.0.1:8080/metrics"));
        assertEquals("--server-metrics must be off, auto or an http(s) URL, got '127.0.0.1:8080/metrics'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerMetricsConfig.parse("ftp://h/metrics"));
        assertEquals("--server-metrics must be off, auto or an http(s) URL, got ''",
                assertThrows(IllegalArgumentException.class, () -> ServerMetricsConfig.parse("")).getMessage());
    }

    @Test
    void autoLooksBesideV1WithoutCredentials() {
        assertEquals("http://127.0.0.1:8000/metrics", ServerMetricsConfig.defaultUrl("http://127.0.0.1:8000/v1"));
        assertEquals("http://127.0.0.1:8000/metrics", ServerMetricsConfig.defaultUrl("http://127.0.0.1:8000/v1/"));
        assertEquals("https://h/proxy/metrics", ServerMetricsConfig.defaultUrl("https://h/proxy"));
        assertEquals("http://h:9/metrics", ServerMetricsConfig.defaultUrl("http://u:secret@h:9/v1"));
    }
}
