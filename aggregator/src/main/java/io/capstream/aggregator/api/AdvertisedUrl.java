package io.capstream.aggregator.api;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Objects;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The HTTP address under which one aggregator instance is reachable by the others
 * ({@code http://HOST:PORT}), advertised to them through Kafka Streams' {@code application.server}
 * so that each instance can forward a query to the instance that owns the data.
 *
 * @param host host name or IP literal (IPv6 without brackets); not blank
 * @param port TCP port, 1..65535
 */
public record AdvertisedUrl(String host, int port) {
    /** Validates. */
    public AdvertisedUrl {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535: " + port);
        }
    }

    /**
     * Parses {@code http://HOST:PORT} (a trailing {@code /} is allowed).
     *
     * @param url the URL; not null
     * @return the address
     * @throws IllegalArgumentException when it is not {@code http://HOST:PORT} (one-line message, e.g.
     *         {@code expected http://HOST:PORT, got 'h:8088'}); wildcard hosts (0.0.0.0, ::) are refused: other
     *         instances cannot connect to them
     */
    public static AdvertisedUrl parse(String url) {
        Objects.requireNonNull(url, "url");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw bad(url);
        }
        String path = uri.getRawPath();
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1
                || (path != null && !path.isEmpty() && !"/".equals(path)) || uri.getRawQuery() != null
                || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw bad(url);
        }
        String host = unbracket(uri.getHost());
        if (isWildcard(host)) {
            throw new IllegalArgumentException("expected an address the other instances can connect to, got the"
                    + " wildcard address in '" + url + "'");
        }
        return new AdvertisedUrl(host, uri.getPort());
    }

    /**
     * The default advertised address of an API bound to {@code bindHost:port}: the bind address itself, or for a
     * wildcard bind address (0.0.0.0, ::, empty) this machine's host name ({@link InetAddress#getLocalHost()},
     * 127.0.0.1 when it has none).
     *
     * @param bindHost the address the API binds to; not null
     * @param port     the port it listens on (the actual port, not 0)
     * @return the address
     */
    public static AdvertisedUrl forBind(String bindHost, int port) {
        String host = unbracket(Objects.requireNonNull(bindHost, "bindHost").strip());
        if (isWildcard(host)) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = ApiConfig.DEFAULT_HOST;
            }
        }
        return new AdvertisedUrl(host, port);
    }

    /**
     * @param info a Kafka Streams instance's {@code application.server}; not null
     * @return the same address
     */
    public static AdvertisedUrl of(HostInfo info) {
        return new AdvertisedUrl(unbracket(info.host()), info.port());
    }

    /**
     * @param host a host name or IP literal, IPv6 with or without brackets
     * @return true for 0.0.0.0, ::, 0:0:0:0:0:0:0:0 and blank
     */
    static boolean isWildcard(String host) {
        String h = unbracket(host);
        return h.isBlank() || "0.0.0.0".equals(h) || "::".equals(h) || "0:0:0:0:0:0:0:0".equals(h);
    }

    private static String unbracket(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static IllegalArgumentException bad(String url) {
        return new IllegalArgumentException("expected http://HOST:PORT, got '" + url + "'");
    }

    /** @return the Kafka Streams {@code application.server} value, {@code HOST:PORT} (IPv6 in brackets) */
    public String endpoint() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** @return whether {@code info} (an instance's {@code application.server}) is this address */
    boolean is(HostInfo info) {
        return info != null && port == info.port() && unbracket(info.host()).equalsIgnoreCase(host);
    }

    /** @return {@code http://HOST:PORT} */
    @Override
    public String toString() {
        return "http://" + endpoint();
    }
}
