package io.capstream.aggregator.api;

import java.util.Objects;

/**
 * Settings of the HTTP API.
 *
 * @param host       address to bind; not null (default 127.0.0.1: loopback only)
 * @param port       TCP port (0 = a free port; default 8088)
 * @param advertised the address other aggregator instances of the same application id reach this one under
 *                   (Kafka Streams {@code application.server}, used to forward queries), or null for
 *                   {@link AdvertisedUrl#forBind(String, int) the bind address and the actual port}
 */
public record ApiConfig(String host, int port, AdvertisedUrl advertised) {
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

    /**
     * Settings that advertise the bind address and the actual port.
     *
     * @param host address to bind; not null
     * @param port TCP port (0 = a free port)
     */
    public ApiConfig(String host, int port) {
        this(host, port, null);
    }

    /**
     * @param actualPort the port the API listens on (differs from {@link #port()} when that is 0)
     * @return {@link #advertised()}, or the default for the bind address and {@code actualPort}
     */
    public AdvertisedUrl advertisedOr(int actualPort) {
        return advertised != null ? advertised : AdvertisedUrl.forBind(host, actualPort);
    }
}
