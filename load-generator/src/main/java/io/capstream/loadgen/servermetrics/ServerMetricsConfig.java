package io.capstream.loadgen.servermetrics;

import java.net.URI;

/**
 * Whether and where a run scrapes the endpoint's own Prometheus metrics ({@code --server-metrics}).
 *
 * @param mode       off, auto (probe {@code <base URL without /v1>/metrics} once before the run) or a URL
 * @param url        the metrics URL when {@code mode} is {@link Mode#URL}, else null
 * @param intervalMs scrape period, ms, &gt;= 100
 */
public record ServerMetricsConfig(Mode mode, String url, int intervalMs) {
    /** Default scrape period, ms (about once a second). */
    public static final int DEFAULT_INTERVAL_MS = 1000;
    /** Scrape only when {@code <base>/metrics} answers with Prometheus text. */
    public static final ServerMetricsConfig AUTO = new ServerMetricsConfig(Mode.AUTO, null, DEFAULT_INTERVAL_MS);
    /** No scraping. */
    public static final ServerMetricsConfig OFF = new ServerMetricsConfig(Mode.OFF, null, DEFAULT_INTERVAL_MS);

    /** How the metrics URL is chosen. */
    public enum Mode {
        /** Not scraped. */
        OFF,
        /** {@code <base URL without /v1>/metrics}, when it answers with Prometheus text. */
        AUTO,
        /** The given URL (a failing scrape is counted, the run goes on). */
        URL
    }

    /**
     * @throws IllegalArgumentException when a URL mode has no http(s) URL or the period is below 100 ms
     */
    public ServerMetricsConfig {
        if (mode == null) {
            throw new IllegalArgumentException("mode is required");
        }
        if (mode == Mode.URL) {
            String scheme = url == null ? null : schemeOf(url);
            if (!"http".equals(scheme) && !"https".equals(scheme)) {
                throw new IllegalArgumentException("--server-metrics must be off, auto or an http(s) URL, got '" + url + "'");
            }
        }
        if (intervalMs < 100) {
            throw new IllegalArgumentException("the server metrics interval must be at least 100 ms, got " + intervalMs);
        }
    }

    /**
     * Parses the option's value.
     *
     * @param value {@code off}, {@code auto} or an http(s) URL; null is {@link #AUTO}
     * @return the setting
     * @throws IllegalArgumentException for anything else (an empty value too)
     */
    public static ServerMetricsConfig parse(String value) {
        if (value == null || value.strip().equalsIgnoreCase("auto")) {
            return AUTO;
        }
        if (value.strip().equalsIgnoreCase("off")) {
            return OFF;
        }
        return new ServerMetricsConfig(Mode.URL, value.strip(), DEFAULT_INTERVAL_MS);
    }

    /**
     * @param baseUrl the run's endpoint base URL (usually ending in /v1); not null
     * @return where {@link Mode#AUTO} looks: the base URL without a trailing {@code /v1} (and slash), plus
     *         {@code /metrics}, without any user:password@
     */
    public static String defaultUrl(String baseUrl) {
        String b = baseUrl.strip();
        while (b.endsWith("/")) {
            b = b.substring(0, b.length() - 1);
        }
        if (b.endsWith("/v1")) {
            b = b.substring(0, b.length() - 3);
        }
        URI u = URI.create(b + "/metrics");
        if (u.getRawUserInfo() != null) {
            return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort()) + u.getRawPath();
        }
        return u.toString();
    }

    /** @return the setting as the option spells it: off, auto or the URL */
    public String label() {
        return mode == Mode.URL ? url : mode.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String schemeOf(String url) {
        try {
            String s = URI.create(url).getScheme();
            return s == null ? null : s.toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
