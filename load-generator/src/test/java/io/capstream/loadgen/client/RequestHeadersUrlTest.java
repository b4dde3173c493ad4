package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.capstream.loadgen.workload.ApiKey;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestHeaders} parses its URL once (issue 33 item 4); each request's options are those that
 * {@code setAbsoluteURI(String)} on every request gave, and a URL Vert.x cannot parse still fails each request alike.
 */
class RequestHeadersUrlTest {
    private static RequestOptions perRequestParse(String url) {
        return new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url).setConnectTimeout(5000)
                .setIdleTimeout(5000).putHeader("Content-Type", "application/json")
                .putHeader("Accept-Encoding", "identity").putHeader("User-Agent", "capstream")
                .putHeader("Connection", "close");
    }

    private static RequestHeaders headers(String url) {
        return new RequestHeaders(url, new ClientConfig(url, 5, false, 1, ApiKey.none(), null, List.of()), 5000);
    }

    @Test
    void theOptionsAreThoseOfAParsePerRequest() {
        for (String url : List.of("http://127.0.0.1:18490/v1/chat/completions", "https://example.com/v1/completions",
                "http://localhost/v1/chat/completions?api-version=2024-10-21", "http://[::1]:8000/x",
                "https://host.example:8443", "http://user:pw@host:1/p", "HTTP://Host:80/a%20b")) {
            RequestOptions expected = perRequestParse(url);
            RequestOptions got = headers(url).options();
            assertThat(got.toJson().encode()).as("options for %s", url).isEqualTo(expected.toJson().encode());
            assertThat(List.of(got.getHost(), got.getPort(), got.getURI(), got.isSsl(), got.getMethod().name()))
                    .as("host, port, uri, ssl, method for %s", url)
                    .isEqualTo(List.of(expected.getHost(), expected.getPort(), expected.getURI(), expected.isSsl(),
                            expected.getMethod().name()));
            assertThat(got.getHeaders().entries().stream().map(e -> e.getKey() + ": " + e.getValue()).toList())
                    .as("headers for %s", url)
                    .isEqualTo(expected.getHeaders().entries().stream().map(e -> e.getKey() + ": " + e.getValue())
                            .toList());
        }
    }

    @Test
    void aUrlThatCannotBeParsedFailsEachRequestAsBefore() {
        for (String url : List.of("not a url", "ftp://host/x", "http://host:99999999999/x")) {
            Throwable expected = catchThrowable(() -> perRequestParse(url));
            Throwable got = catchThrowable(() -> headers(url).options());
            assertThat(got).as("failure for %s (expected %s)", url, expected).isNotNull();
            assertThat(got.getClass()).as("type for %s", url).isEqualTo(expected.getClass());
            assertThat(got.getMessage()).as("message for %s", url).isEqualTo(expected.getMessage());
        }
    }
}
