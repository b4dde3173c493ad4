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
 * @param toolsSent      the run sends tools ({@code --tools}): a streamed tool-call delta is output (it sets
 *                       TTFO and TTFT and counts as an output chunk) and an answer that is only tool calls
 *                       succeeds; when false tool-call deltas change no measurement and such an answer fails
 *                       as {@code ValueError} saying the model answered with a tool call
 * @param keepReply      keep each answer's text and response id in {@link RequestResult#reply()} (conversation
 *                       runs send it back as history; costs an allocation per content delta), and take
 *                       llama.cpp's {@code timings.cache_n} as the cached tokens when usage has no
 *                       {@code prompt_tokens_details.cached_tokens}; when false only an answer's tool calls are
 *                       kept (an answer without one gets {@link Reply#NONE}) and the cached tokens are usage's,
 *                       as in the reference
 * @param httpClient     the HTTP client of the streamed requests ({@code --http-client}); null means
 *                       {@link HttpClientKind#DEFAULT}
 */
public record ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey,
                           ApiEndpoint endpoint, List<ExtraHeader> headers, boolean toolsSent, boolean keepReply,
                           HttpClientKind httpClient) {
    /** Fills the defaults: chat, no extra headers, the default HTTP client. */
    public ClientConfig {
        endpoint = endpoint == null ? ApiEndpoint.CHAT : endpoint;
        headers = headers == null ? List.of() : List.copyOf(headers);
        httpClient = httpClient == null ? HttpClientKind.DEFAULT : httpClient;
    }

    /**
     * As the canonical constructor, with the default HTTP client.
     *
     * @param baseUrl        endpoint base URL
     * @param timeoutS       socket timeout per connect and read, seconds
     * @param keepAlive      reuse connections
     * @param maxConnections connection pool size
     * @param apiKey         key for the Authorization header
     * @param endpoint       chat or completions; null means chat
     * @param headers        {@code -H} headers; null means none
     * @param toolsSent      the run sends tools
     * @param keepReply      keep each answer
     */
    public ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey,
                        ApiEndpoint endpoint, List<ExtraHeader> headers, boolean toolsSent, boolean keepReply) {
        this(baseUrl, timeoutS, keepAlive, maxConnections, apiKey, endpoint, headers, toolsSent, keepReply, null);
    }

    /**
     * A client that sends no tools and keeps no reply (single-turn runs).
     *
     * @param baseUrl        endpoint base URL
     * @param timeoutS       socket timeout per connect and read, seconds
     * @param keepAlive      reuse connections
     * @param maxConnections connection pool size
     * @param apiKey         key for the Authorization header
     * @param endpoint       chat or completions; null means chat
     * @param headers        {@code -H} headers; null means none
     */
    public ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey,
                        ApiEndpoint endpoint, List<ExtraHeader> headers) {
        this(baseUrl, timeoutS, keepAlive, maxConnections, apiKey, endpoint, headers, false, false);
    }

    /**
     * This configuration with other tool and reply settings.
     *
     * @param sendsTools  the run sends tools (see {@link #toolsSent()})
     * @param keepsReply  keep each answer for the next turn (see {@link #keepReply()})
     * @return the new configuration
     */
    public ClientConfig withReplies(boolean sendsTools, boolean keepsReply) {
        return new ClientConfig(baseUrl, timeoutS, keepAlive, maxConnections, apiKey, endpoint, headers, sendsTools,
                keepsReply, httpClient);
    }

    /**
     * This configuration with another HTTP client.
     *
     * @param kind the HTTP client of the streamed requests; null means {@link HttpClientKind#DEFAULT}
     * @return the new configuration
     */
    public ClientConfig withHttpClient(HttpClientKind kind) {
        return new ClientConfig(baseUrl, timeoutS, keepAlive, maxConnections, apiKey, endpoint, headers, toolsSent,
                keepReply, kind);
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
