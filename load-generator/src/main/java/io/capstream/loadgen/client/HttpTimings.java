package io.capstream.loadgen.client;

/**
 * Where one request's time went before its first content (issue 30), as k6 splits it: the connection (blocked,
 * DNS, TCP connect, TLS handshake), the request written, the response head (time to first byte) and the first body
 * chunk. Durations are ns; points are ns after the request's t0. Mirrors the events' {@code HttpPhases}.
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
}
