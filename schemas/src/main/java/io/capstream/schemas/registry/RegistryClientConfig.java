package io.capstream.schemas.registry;

import java.time.Duration;
import java.util.Map;

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

    /** Confluent serde setting: {@code user:password} for basic auth. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    /** Confluent serde setting: static bearer token. */
    public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
    /** capstream setting: per-request timeout of registry calls, ms. */
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    /** capstream setting: retries on 5xx / connection errors. */
    public static final String MAX_RETRIES = "schema.registry.max.retries";
    /** capstream setting: first retry backoff, ms (doubled after each retry). */
    public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";

    /**
     * Reads the settings from serde/client properties, falling back to {@link #defaults()} for
     * missing keys: {@value #BASIC_AUTH_USER_INFO}, {@value #BEARER_AUTH_TOKEN} (Confluent names),
     * {@value #REQUEST_TIMEOUT_MS}, {@value #MAX_RETRIES}, {@value #RETRY_BACKOFF_MS}.
     *
     * @param props properties (values may be strings or numbers); never null
     * @return the config
     * @throws IllegalArgumentException when a number does not parse
     */
    public static RegistryClientConfig fromProperties(Map<String, ?> props) {
        RegistryClientConfig d = defaults();
        return new RegistryClientConfig(
                props.containsKey(REQUEST_TIMEOUT_MS) ? Duration.ofMillis(number(props, REQUEST_TIMEOUT_MS)) : d.requestTimeout(),
                props.containsKey(MAX_RETRIES) ? (int) number(props, MAX_RETRIES) : d.maxRetries(),
                props.containsKey(RETRY_BACKOFF_MS) ? Duration.ofMillis(number(props, RETRY_BACKOFF_MS)) : d.retryBackoff(),
                text(props, BASIC_AUTH_USER_INFO),
                text(props, BEARER_AUTH_TOKEN));
    }

    /**
     * @param retries retries on 5xx and connection errors (0 = one attempt only); negative counts as 0
     * @return a copy with this number of retries
     */
    public RegistryClientConfig withMaxRetries(int retries) {
        return new RegistryClientConfig(requestTimeout, Math.max(0, retries), retryBackoff, basicAuthUserInfo, bearerToken);
    }

    /**
     * @param timeout per-request timeout (connect and answer); not null, positive
     * @return a copy with this timeout
     * @throws IllegalArgumentException when the timeout is not positive
     */
    public RegistryClientConfig withRequestTimeout(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("registry request timeout must be positive: " + timeout);
        }
        return new RegistryClientConfig(timeout, maxRetries, retryBackoff, basicAuthUserInfo, bearerToken);
    }

    private static long number(Map<String, ?> props, String key) {
        String v = String.valueOf(props.get(key)).trim();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'", e);
        }
    }

    private static String text(Map<String, ?> props, String key) {
        Object v = props.get(key);
        return v == null || v.toString().isBlank() ? null : v.toString();
    }

    @Override
    public String toString() {
        return "RegistryClientConfig[requestTimeout=" + requestTimeout + ", maxRetries=" + maxRetries
                + ", retryBackoff=" + retryBackoff + ", basicAuth=" + (basicAuthUserInfo == null ? "none" : "***")
                + ", bearer=" + (bearerToken == null ? "none" : "***") + "]";
    }
}
