package io.capstream.aggregator.api;

import java.util.Objects;

/**
 * Settings of the HTTP API.
 *
 * @param host address to bind; not null (default 127.0.0.1: loopback only)
 * @param port TCP port (0 = a free port; default 8088)
 */
public record ApiConfig(String host, int port) {
    /** Default bind address: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default port. */
    public static final int DEFAULT_PORT = 8088;

    /** Validates. */
    public ApiConfig {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535: " + port);
        }
    }
}
