package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiKey;

/**
 * Settings of {@link StreamingClient}.
 *
 * @param baseUrl        endpoint base URL (a trailing "/" is removed; {@code /chat/completions} is appended)
 * @param timeoutS       socket timeout for the connect and for each read (not a total deadline), seconds (spec §2.4)
 * @param keepAlive      reuse connections; false (the reference) opens one connection per request and
 *                       sends {@code Connection: close}
 * @param maxConnections connection pool size; at least the number of requests in flight, else requests
 *                       would wait for a connection inside their measured time
 * @param apiKey         key for the Authorization header ({@link ApiKey#none()} for none)
 */
public record ClientConfig(String baseUrl, double timeoutS, boolean keepAlive, int maxConnections, ApiKey apiKey) {
}
