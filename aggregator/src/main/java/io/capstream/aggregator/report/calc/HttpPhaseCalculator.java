package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.HttpPhaseRows;
import io.capstream.schemas.avro.HttpPhaseStats;
import io.capstream.schemas.avro.HttpPhases;
import io.capstream.schemas.avro.RequestCompleted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The report's {@code capstream.statistics.http_phases} (issue 30): where the successful requests' time went before
 * their first content, with k6's names. Each request's phases follow one another and add up to its TTFT: blocked,
 * DNS, TCP connect, TLS handshake, sending (connection handed over to request written), waiting (request written to
 * response head), first chunk (head to first body chunk), first content (first chunk to TTFT). A phase whose end
 * point is missing (-1) is left out of its distribution. Stateless.
 */
public final class HttpPhaseCalculator {
    private static final double MS = 1e6;

    private HttpPhaseCalculator() {
    }

    /**
     * @param successes the successful requests, any order; not null
     * @return the statistics with the per-request rows (in request_index order), or null when no request carries
     *         {@code http_phases} (imports, older events)
     */
    public static HttpPhaseStats compute(List<RequestCompleted> successes) {
        List<RequestCompleted> measured = new ArrayList<>();
        for (RequestCompleted c : successes) {
            if (c.getHttpPhases() != null) {
                measured.add(c);
            }
        }
        if (measured.isEmpty()) {
            return null;
        }
        measured.sort(Comparator.comparingInt(RequestCompleted::getRequestIndex));
        int n = measured.size();
        List<Integer> index = new ArrayList<>(n);
        List<Boolean> reused = new ArrayList<>(n);
        List<List<Double>> cols = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            cols.add(new ArrayList<>(n));
        }
        int reusedCount = 0;
        for (RequestCompleted c : measured) {
            HttpPhases p = c.getHttpPhases();
            double[] v = phasesMs(p, c.getTtftNs());
            index.add(c.getRequestIndex());
            reused.add(p.getConnectionReused());
            reusedCount += p.getConnectionReused() ? 1 : 0;
            for (int i = 0; i < v.length; i++) {
                cols.get(i).add(v[i]);
            }
        }
        return HttpPhaseStats.newBuilder()
                .setRequests(n)
                .setReusedConnections(reusedCount)
                .setHttpReqBlockedMs(Distributions.of(present(cols.get(0))))
                .setHttpReqDnsMs(Distributions.of(present(cols.get(1))))
                .setHttpReqConnectingMs(Distributions.of(present(cols.get(2))))
                .setHttpReqTlsHandshakingMs(Distributions.of(present(cols.get(3))))
                .setHttpReqSendingMs(Distributions.of(present(cols.get(4))))
                .setHttpReqWaitingMs(Distributions.of(present(cols.get(5))))
                .setFirstChunkMs(Distributions.of(present(cols.get(6))))
                .setFirstContentMs(Distributions.of(present(cols.get(7))))
                .setPerRequest(HttpPhaseRows.newBuilder().setRequestIndex(index).setConnectionReused(reused)
                        .setHttpReqBlocked(cols.get(0)).setHttpReqDns(cols.get(1)).setHttpReqConnecting(cols.get(2))
                        .setHttpReqTlsHandshaking(cols.get(3)).setHttpReqSending(cols.get(4))
                        .setHttpReqWaiting(cols.get(5)).setFirstChunk(cols.get(6)).setFirstContent(cols.get(7))
                        .build())
                .build();
    }

    /**
     * One request's phases in ms: blocked, dns, connecting, tls, sending, waiting, first chunk, first content; a
     * phase whose end point is missing is -1.
     *
     * @param p      the event's phases; not null
     * @param ttftNs the request's TTFT, ns, or -1
     * @return eight values, ms (-1 for missing)
     */
    static double[] phasesMs(HttpPhases p, long ttftNs) {
        long connection = p.getBlockedNs() + p.getDnsNs() + p.getConnectNs() + p.getTlsNs();
        long sent = p.getSentNs();
        long head = p.getHeadersNs();
        long chunk = p.getFirstChunkNs();
        return new double[] {p.getBlockedNs() / MS, p.getDnsNs() / MS, p.getConnectNs() / MS, p.getTlsNs() / MS,
            sent < 0 ? -1 : (sent - connection) / MS,
            sent < 0 || head < 0 ? -1 : (head - sent) / MS,
            head < 0 || chunk < 0 ? -1 : (chunk - head) / MS,
            chunk < 0 || ttftNs < 0 ? -1 : (ttftNs - chunk) / MS};
    }

    private static List<Double> present(List<Double> values) {
        return values.stream().filter(v -> v >= 0).toList();
    }
}
