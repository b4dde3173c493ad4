package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraHeader;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.List;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * The request options of a {@link StreamingClient}'s requests: {@code POST} to the endpoint's URL with the
 * {@code --timeout} as connect and idle timeout, and the headers {@code Content-Type: application/json},
 * {@code Accept-Encoding: identity}, {@code User-Agent: capstream}, {@code Connection: close} unless keep-alive is on,
 * {@code Authorization: Bearer <key>} when a key is configured, then the {@code -H} headers ({@link ExtraHeader}). For
 * the Messages API ({@link ApiEndpoint#MESSAGES}): {@code anthropic-version: 2023-06-01}
 * ({@link StreamingClient#ANTHROPIC_VERSION}), and the {@code --api-key-env} key as {@code x-api-key} instead of
 * {@code Authorization}. Immutable; each call of {@link #options()} builds new options.
 */
final class RequestHeaders {
    private final String url;
    /**
     * {@link #url} parsed once as {@code RequestOptions.setAbsoluteURI(String)} parses it ({@code new URL(url)}), or
     * null when that fails (each request then fails as before, with Vert.x's exception): issue 33 item 4, the parse
     * per request was ~0.35% of the event loop at 256 streams.
     */
    private final URL parsed;
    private final long timeoutMs;
    private final boolean keepAlive;
    private final String authorization;
    private final String xApiKey;
    private final List<ExtraHeader> headers;
    private final ApiEndpoint endpoint;

    /**
     * @param url       the absolute URL requested
     * @param config    settings (key, endpoint, keep-alive, {@code -H} headers)
     * @param timeoutMs connect and idle timeout, ms
     */
    RequestHeaders(String url, ClientConfig config, long timeoutMs) {
        this.url = url;
        this.parsed = parse(url);
        this.timeoutMs = timeoutMs;
        this.keepAlive = config.keepAlive();
        this.headers = config.headers();
        this.endpoint = config.endpoint();
        // Anthropic's Messages API takes the key as x-api-key (and a basic-auth URL's credentials stay in Authorization)
        this.xApiKey = endpoint == ApiEndpoint.MESSAGES ? config.apiKey().bareKey().orElse(null) : null;
        this.authorization = xApiKey != null ? null : config.apiKey().authorizationHeader().orElse(null);
    }

    /**
     * @return new options of one request, with the run's own and {@code -H} headers
     * @throws RuntimeException when the URL cannot be put into request options (malformed)
     */
    RequestOptions options() {
        RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST);
        if (parsed != null) {
            ro.setAbsoluteURI(parsed);
        } else {
            ro.setAbsoluteURI(url);
        }
        ro.setConnectTimeout(timeoutMs)
                .setIdleTimeout(timeoutMs)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept-Encoding", "identity")
                .putHeader("User-Agent", "capstream");
        if (!keepAlive) {
            ro.putHeader("Connection", "close");
        }
        if (authorization != null) {
            ro.putHeader("Authorization", authorization);
        }
        if (endpoint == ApiEndpoint.MESSAGES) {
            ro.putHeader(StreamingClient.ANTHROPIC_VERSION, StreamingClient.ANTHROPIC_VERSION_VALUE);
            if (xApiKey != null) {
                ro.putHeader("x-api-key", xApiKey);
            }
        }
        ExtraHeader.apply(headers, ro.getHeaders());
        return ro;
    }

    /** @return the URL as Vert.x parses an absolute URI, or null when it cannot be */
    @SuppressWarnings("deprecation") // exactly the parse of RequestOptions.setAbsoluteURI(String)
    private static URL parse(String url) {
        try {
            return new URL(url);
        } catch (MalformedURLException | RuntimeException e) {
            return null;
        }
    }
}
