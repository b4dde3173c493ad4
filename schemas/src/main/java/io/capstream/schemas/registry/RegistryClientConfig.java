package io.capstream.schemas.registry;

import java.time.Duration;

/**
 * Settings of the HTTP schema registry client.
 *
 * @param requestTimeout per-request timeout
 * @param maxRetries     retries on 5xx and connection errors (0 = none)
 * @param retryBackoff   first backoff between retries, doubled after each
 * @param basicAuthUserInfo {@code user:password} for HTTP basic auth, or null
 * @param bearerToken    bearer token, or null
 */
public record RegistryClientConfig(Duration requestTimeout, int maxRetries, Duration retryBackoff,
                                   String basicAuthUserInfo, String bearerToken) {

    /** @return 10 s timeout, 3 retries from 200 ms, no credentials */
    public static RegistryClientConfig defaults() {
        return new RegistryClientConfig(Duration.ofSeconds(10), 3, Duration.ofMillis(200), null, null);
    }

    @Override
    public String toString() {
        return "RegistryClientConfig[requestTimeout=" + requestTimeout + ", maxRetries=" + maxRetries
                + ", retryBackoff=" + retryBackoff + ", basicAuth=" + (basicAuthUserInfo == null ? "none" : "***")
                + ", bearer=" + (bearerToken == null ? "none" : "***") + "]";
    }
}
