package io.capstream.aggregator.api;

import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The request parameters of the {@link ApiServer}'s query routes: the time range ({@code from}/{@code to}),
 * the flags ({@code local}, {@code active}: {@code true} or {@code false}, any case, absent meaning false;
 * any other value is a bad parameter, answered 400) and the query text forwarded to peer instances.
 * Stateless.
 */
final class ApiParams {
    /** Span of a range without {@code from}: the last 24 h before {@code to}. */
    static final Duration DEFAULT_SPAN = Duration.ofHours(24);

    private ApiParams() {
    }

    /**
     * @param ctx   the request
     * @param clock gives {@code to} when absent
     * @return {@code {from, to}} in epoch ms, or null after answering 400 for a bad value or for a {@code from} after
     *         the given {@code to} (a {@code from} after the default {@code to}, now, is an empty range: a client's
     *         clock may run ahead of this one)
     */
    static long[] range(RoutingContext ctx, Clock clock) {
        long now = clock.millis();
        try {
            String toText = ctx.queryParams().get("to");
            long to = parseTime(toText, now);
            String fromText = ctx.queryParams().get("from");
            long from = parseTime(fromText, to - DEFAULT_SPAN.toMillis());
            if (from > to && toText != null && !toText.isBlank()) {
                throw new IllegalArgumentException("from '" + fromText.trim() + "' is after to '" + toText.trim()
                        + "': give from <= to");
            }
            return new long[] {from, to};
        } catch (IllegalArgumentException e) {
            ApiResponses.error(ctx, 400, e.getMessage());
            return null;
        }
    }

    /**
     * @param value epoch ms or ISO-8601 instant, or null/blank
     * @param dflt  value when absent
     * @return epoch ms
     * @throws IllegalArgumentException when the value is neither (the message shows the expected forms)
     */
    static long parseTime(String value, long dflt) {
        if (value == null || value.isBlank()) {
            return dflt;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(value.trim()).toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException("bad time '" + value
                        + "': expected epoch milliseconds or an ISO-8601 instant like 2026-08-01T12:00:00Z");
            }
        }
    }

    /**
     * @return whether to answer from this instance's stores only (forwarded by a peer, or {@code local=true})
     * @throws BadParameterException when {@code local} is neither true nor false
     */
    static boolean localOnly(RoutingContext ctx) {
        boolean local = flag(ctx, "local"); // checked even when forwarded: a bad value is answered 400 everywhere
        return local || ctx.request().getHeader(PeerClient.FORWARDED_HEADER) != null;
    }

    /**
     * @param ctx  the request
     * @param name the flag's query parameter
     * @return true for {@code true}, false for {@code false} (any case) or when absent or blank
     * @throws BadParameterException for any other value (the message names the parameter, the value and the expected ones)
     */
    static boolean flag(RoutingContext ctx, String name) {
        String value = ctx.queryParams().get(name);
        if (value == null || value.isBlank() || "false".equalsIgnoreCase(value.trim())) {
            return false;
        }
        if ("true".equalsIgnoreCase(value.trim())) {
            return true;
        }
        throw new BadParameterException("bad " + name + " '" + value + "': expected true or false");
    }

    /** A query parameter with a value the route does not accept: answered 400 ({@link ApiResponses#fail}). */
    static final class BadParameterException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadParameterException(String message) {
            super(message);
        }
    }

    /** @return {@code s} URL-encoded for a query string (spaces as {@code %20}) */
    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** @return {@code s}, or null when null or blank */
    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
