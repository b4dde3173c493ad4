package io.capstream.loadgen.client;

/**
 * Where one request's time went before its first content (issue 30), as k6 splits it: the connection (blocked,
 * DNS, TCP connect, TLS handshake), the request written, the response head (time to first byte) and the first body
 * chunk. Durations are ns; points are ns after the request's t0. Mirrors the events' {@code HttpPhases}.
 *
 * <p>The phases follow one another and add up: {@code blocked + dns + connect + tls} is when the request got its
 * connection ({@link #connectionNs()}); then {@link #sendingNs()}, {@link #waitingNs()}, {@link #firstChunkPhaseNs()}
 * and, with the request's TTFT, {@link #firstContentNs(long)} end at the first content.
 *
 * @param connectionReused the request went over a kept-alive connection: {@code dnsNs}, {@code connectNs} and
 *                         {@code tlsNs} are 0
 * @param blockedNs        waiting for a connection (a free pooled one, or the start of a new one), ns
 * @param dnsNs            DNS lookup, ns (0 for an IP address or a reused connection)
 * @param connectNs        TCP connect, ns (0 for a reused connection)
 * @param tlsNs            TLS handshake, ns (0 for http or a reused connection)
 * @param sentNs           request written, ns after t0, or -1
 * @param headersNs        response head arrived, ns after t0, or -1
 * @param firstChunkNs     first body chunk arrived, ns after t0, or -1
 */
public record HttpTimings(boolean connectionReused, long blockedNs, long dnsNs, long connectNs, long tlsNs,
                          long sentNs, long headersNs, long firstChunkNs) {

    /** @return when the request got its connection, ns after t0: blocked + dns + connect + tls */
    public long connectionNs() {
        return blockedNs + dnsNs + connectNs + tlsNs;
    }

    /** @return writing the request (k6's http_req_sending), ns, or -1 when it was not written */
    public long sendingNs() {
        return sentNs < 0 ? -1 : sentNs - connectionNs();
    }

    /** @return request written to response head (k6's http_req_waiting), ns, or -1 when either is missing */
    public long waitingNs() {
        return sentNs < 0 || headersNs < 0 ? -1 : headersNs - sentNs;
    }

    /** @return response head to the first body chunk, ns, or -1 when either is missing */
    public long firstChunkPhaseNs() {
        return headersNs < 0 || firstChunkNs < 0 ? -1 : firstChunkNs - headersNs;
    }

    /**
     * @param ttftNs the request's TTFT, ns after t0, or -1
     * @return the first body chunk to the first content, ns, or -1 when either is missing
     */
    public long firstContentNs(long ttftNs) {
        return ttftNs < 0 || firstChunkNs < 0 ? -1 : ttftNs - firstChunkNs;
    }

    /**
     * The phases from the instants one request saw ({@link System#nanoTime()} values; -1 for one that did not
     * happen). A new connection's stamps are clipped to [t0, obtainedAt]: a connection another request started
     * before this one's t0 counts only from t0, so that the phases add up to {@code obtainedAt - t0}; what the
     * stamps do not cover is blocked.
     *
     * @param t0          the request's start
     * @param obtainedAt  when the HTTP client handed the request a connection; not -1
     * @param opened      the connection was opened for the pool since its last use (false: reused)
     * @param stamp       when a new connection was created, connected to (DNS done) and connected (TCP done), or
     *                    null when unknown (then its whole setup, from t0, counts as connect)
     * @param readyAt     when a new connection was ready (TLS done), or -1 when unknown (then obtainedAt)
     * @param named       the host is a name, not an IP address: the time from the connection's start to the connect
     *                    to its resolved address is the DNS lookup (for an IP address it is part of the connect:
     *                    Netty registering the channel)
     * @param tls         the connection is https: the time from TCP connected to ready is the TLS handshake (for
     *                    http it is the last of the connect)
     * @param sentAt      request written, or -1
     * @param headersAt   response head arrived, or -1
     * @param firstChunkAt first body chunk arrived, or -1
     * @return the phases
     */
    public static HttpTimings measure(long t0, long obtainedAt, boolean opened, ConnectStamp stamp, long readyAt,
                                      boolean named, boolean tls, long sentAt, long headersAt, long firstChunkAt) {
        long got = Math.max(t0, obtainedAt);
        long head = headersAt < 0 ? -1 : Math.max(got, headersAt);
        long sent = sentAt < 0 ? -1 : Math.max(got, head >= 0 ? Math.min(sentAt, head) : sentAt);
        long chunk = firstChunkAt < 0 ? -1 : Math.max(head >= 0 ? head : got, firstChunkAt);
        long dns = 0;
        long connect = 0;
        long handshake = 0;
        if (opened) {
            long ready = clip(readyAt < 0 ? got : readyAt, t0, got);
            long created = stamp == null ? t0 : clip(stamp.createdAt(), t0, got);
            long resolved = stamp == null || stamp.connectAt() < 0 ? created : clip(stamp.connectAt(), created, ready);
            long connected = stamp == null || stamp.connectedAt() < 0 ? ready
                    : clip(stamp.connectedAt(), resolved, ready);
            dns = named ? resolved - created : 0;
            long connectFrom = named ? resolved : created;
            if (tls && stamp != null) {
                connect = connected - connectFrom;
                handshake = ready - connected;
            } else {
                connect = ready - connectFrom;
            }
        }
        long blocked = got - t0 - dns - connect - handshake;
        return new HttpTimings(!opened, blocked, dns, connect, handshake, sent < 0 ? -1 : sent - t0,
                head < 0 ? -1 : head - t0, chunk < 0 ? -1 : chunk - t0);
    }

    private static long clip(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
