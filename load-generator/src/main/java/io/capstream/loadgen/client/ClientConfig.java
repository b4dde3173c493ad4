package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.workload.ApiKey;
import java.util.List;

/**
 * Settings of {@link StreamingClient}.
 *
 * @param baseUrl        endpoint base URL (a trailing "/" is removed; the endpoint's path, e.g.
 *                       {@code /chat/completions}, is appended)
 * @param timeoutS       socket timeout for the connect and for each read (not a total deadline), seconds (spec §2.4)
 * @param keepAlive      reuse connections; false (the reference) opens one connection per request and
 *                       sends {@code Connection: close}
 * @param maxConnections connection pool size; at least the number of requests in flight, else requests
 *                       would wait for a connection inside their measured time
 * @param apiKey         key for the Authorization header ({@link ApiKey#none()} for none)
 * @param endpoint       chat or completions ({@code --endpoint}); null means chat
 * @param headers        {@code -H} headers sent with every request, in order; null means none
 */
public record ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey,
                           ApiEndpoint endpoint, List<ExtraHeader> headers) {
    /** Fills the defaults: chat, no extra headers. */
    public ClientConfig {
        endpoint = endpoint == null ? ApiEndpoint.CHAT : endpoint;
        headers = headers == null ? List.of() : List.copyOf(headers);
    }

    /**
     * The reference's client: the chat endpoint, no extra headers.
     *
     * @param baseUrl        endpoint base URL
     * @param timeoutS       socket timeout per connect and read, seconds
     * @param keepAlive      reuse connections
     * @param maxConnections connection pool size
     * @param apiKey         key for the Authorization header
     */
    public ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey) {
        this(baseUrl, timeoutS, keepAlive, maxConnections, apiKey, ApiEndpoint.CHAT, List.of());
    }
}
