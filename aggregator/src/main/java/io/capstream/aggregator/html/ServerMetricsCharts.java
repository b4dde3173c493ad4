package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The run page's server-side section, from {@code capstream.server_metrics}: the endpoint's own queue
 * (requests running and waiting), KV-cache usage and token rates (from its counters) over the run's time
 * axis, beside the client's throughput and in-flight charts, and a table of every series' min/p50/max/last.
 * A one-line note when the report has none.
 */
final class ServerMetricsCharts {
    private final HtmlPage page;
    private final JsonNode metrics;

    /**
     * @param page     the page to add to
     * @param artifact the report's artifact
     */
    ServerMetricsCharts(HtmlPage page, JsonNode artifact) {
        this.page = page;
        this.metrics = artifact.path("capstream").path("server_metrics");
    }

    /** Adds the section. */
    void add() {
        page.subheading("Server metrics");
        if (!metrics.isObject() || !metrics.path("series").isObject()) {
            page.note("No server metrics in this report: the endpoint's /metrics was not scraped (--server-metrics off,"
                    + " no Prometheus text at <base URL>/metrics, or an imported or older report).");
            return;
        }
        double[] timeS = times();
        JsonNode series = metrics.path("series");
        page.paragraph("Scraped from " + metrics.path("url").asText() + ": " + metrics.path("scrapes").asInt()
                + " scrapes about every " + Fmt.number(metrics.path("interval_ms").asDouble() / 1000) + " s"
                + (metrics.path("failed_scrapes").asInt() > 0 ? ", " + metrics.path("failed_scrapes").asInt()
                + " failed (first: " + metrics.path("first_error").asText() + ")" : "") + ".");
        page.beginGrid();
        lines("server-queue", "Requests running and waiting (server)", "requests", timeS, series,
                List.of("requests_running", "requests_waiting"), false);
        lines("server-kv-cache", "KV cache usage (server)", "used share of the KV cache", timeS, series,
                List.of("kv_cache_usage"), false);
        lines("server-token-rate", "Token throughput (server counters)", "tokens/s", timeS, series,
                List.of("generation_tokens", "prompt_tokens"), true);
        page.endGrid();
        List<List<String>> rows = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = series.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode s = e.getValue();
            rows.add(List.of(e.getKey(), s.path("source").asText(), s.path("kind").asText(), Fmt.value(s.get("min")),
                    Fmt.value(s.get("p50")), Fmt.value(s.get("max")), Fmt.value(s.get("last")),
                    s.path("increase").isNumber() ? Fmt.value(s.get("increase")) : "-"));
        }
        page.table(List.of("series", "engine's name", "kind", "min", "p50", "max", "last", "increase during the run"),
                rows);
    }

    private double[] times() {
        JsonNode t = metrics.path("t_ms");
        double[] out = new double[t.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = t.get(i).asDouble() / 1000;
        }
        return out;
    }

    /**
     * One chart of the named series present (none present: nothing); counters as rates per second between
     * consecutive kept scrapes.
     */
    private void lines(String id, String title, String yLabel, double[] timeS, JsonNode series, List<String> names,
                       boolean rates) {
        List<Chart.Series> drawn = new ArrayList<>();
        for (String name : names) {
            JsonNode s = series.get(name);
            if (s == null || !s.path("values").isArray() || s.path("values").size() != timeS.length) {
                continue;
            }
            double[] v = new double[timeS.length];
            for (int i = 0; i < v.length; i++) {
                JsonNode x = s.path("values").get(i);
                v[i] = x.isNumber() ? x.doubleValue() : Double.NaN;
            }
            drawn.add(new Chart.Series(rates ? name + "/s" : name, rates ? rate(timeS, v) : v));
        }
        if (drawn.isEmpty() || timeS.length == 0) {
            return;
        }
        page.chart(new Chart(id, title, "time since start (s)", yLabel, rates ? Chart.Kind.STEP : Chart.Kind.LINE,
                timeS, drawn), ChartOptions.NONE.withCaption(rates
                ? "Increase of the engine's counter between consecutive scrapes, per second."
                : "The engine's own gauge at each scrape."));
    }

    /** Per-second increase of a counter between consecutive points (NaN at the first point and across gaps). */
    static double[] rate(double[] timeS, double[] counter) {
        double[] r = new double[counter.length];
        if (r.length > 0) {
            r[0] = Double.NaN;
        }
        for (int i = 1; i < counter.length; i++) {
            double dt = timeS[i] - timeS[i - 1];
            double dv = counter[i] - counter[i - 1];
            r[i] = dt > 0 && !Double.isNaN(dv) && dv >= 0 ? dv / dt : Double.NaN;
        }
        return r;
    }
}
