package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The run page's HTTP phases chart (issue 30): for p50, p95 and p99, a bar stacking each phase's percentile of
 * {@code capstream.statistics.http_phases} (k6's names), in the order the phases happen.
 */
final class HttpPhaseBars {
    /** The bars' labels, in order. */
    static final List<String> PERCENTILES = List.of("p50", "p95", "p99");
    private static final List<String> KEYS = List.of("http_req_blocked_ms", "http_req_dns_ms",
            "http_req_connecting_ms", "http_req_tls_handshaking_ms", "http_req_sending_ms", "http_req_waiting_ms",
            "first_chunk_ms", "first_content_ms");
    private static final List<String> LABELS = List.of("blocked", "DNS", "connect", "TLS", "sending", "waiting",
            "first chunk", "first content");

    private HttpPhaseBars() {
    }

    /**
     * @param id    the chart's id
     * @param stats {@code capstream.statistics.http_phases}, possibly missing
     * @return the chart, or null when the report has no phases
     */
    static Chart chart(String id, JsonNode stats) {
        if (!stats.isObject() || stats.path("requests").asInt() == 0) {
            return null;
        }
        List<Chart.Series> series = new ArrayList<>();
        for (int k = 0; k < KEYS.size(); k++) {
            JsonNode d = stats.path(KEYS.get(k));
            double[] y = new double[PERCENTILES.size()];
            for (int p = 0; p < y.length; p++) {
                JsonNode v = d.path(PERCENTILES.get(p));
                y[p] = v.isNumber() ? v.doubleValue() : 0;
            }
            series.add(new Chart.Series(LABELS.get(k), y));
        }
        return new Chart(id, "Where the time to first content went (HTTP phases)", "percentile", "ms",
                Chart.Kind.STACKED, new double[] {0, 1, 2}, series);
    }
}
