package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The client's first token next to the server's own TTFT, per request (issue 33), from
 * {@code capstream.statistics.server_view}: request index on x, three point series (client, server, client minus
 * server), ms. Stateless.
 */
final class ServerTtftChart {
    private ServerTtftChart() {
    }

    /**
     * @param id   the chart's page-unique id
     * @param rows {@code capstream.statistics.server_view}, possibly missing
     * @return the chart, or null when the report has no per-request server TTFT
     */
    static Chart chart(String id, JsonNode rows) {
        JsonNode index = rows.path("request_index");
        if (!index.isArray() || index.isEmpty()) {
            return null;
        }
        int n = index.size();
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = index.get(i).asDouble();
        }
        double[] server = values(rows.path("server_ttft_ms"), n);
        boolean any = false;
        for (double v : server) {
            any |= !Double.isNaN(v);
        }
        if (!any) {
            return null;
        }
        return new Chart(id, "Client vs server TTFT per request", "request index", "ms", Chart.Kind.POINTS, x,
                List.of(new Chart.Series("client first token", values(rows.path("client_first_token_ms"), n)),
                        new Chart.Series("server TTFT", server),
                        new Chart.Series("client minus server", values(rows.path("client_minus_server_ttft_ms"), n))));
    }

    /** @return the column's values, NaN for null or missing ones */
    private static double[] values(JsonNode column, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            JsonNode e = column.path(i);
            v[i] = e.isNumber() ? e.asDouble() : Double.NaN;
        }
        return v;
    }
}
