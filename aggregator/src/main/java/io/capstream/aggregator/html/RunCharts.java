package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.stats.QuantileInterval;
import io.capstream.schemas.load.RateSchedule;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The charts of a run's page, added to a {@link HtmlPage}: each chart only when the report has its data,
 * otherwise a one-line note saying why. What goes to the browser is capped so that a large run's page
 * stays a few MB (see the constants).
 */
final class RunCharts {
    /** Most points per CDF curve (nearest-rank values at evenly spaced ranks). */
    static final int MAX_CDF_POINTS = 2_000;
    /** Most requests on the timeline (every k-th request beyond). */
    static final int MAX_TIMELINE_REQUESTS = 20_000;
    /** Most throughput buckets (the bucket grows beyond 1 s). */
    static final int MAX_BUCKETS = 600;
    /** Most in-flight steps (binned beyond, the maximum per bin). */
    static final int MAX_IN_FLIGHT_POINTS = 5_000;

    private final HtmlPage page;
    private final JsonNode artifact;

    RunCharts(HtmlPage page, JsonNode artifact) {
        this.page = page;
        this.artifact = artifact;
    }

    /** Adds every chart (or its note) to the page. */
    void addAll() {
        JsonNode rows = artifact.path("request_timings");
        String noRows = rows.isArray() ? "no successful request in this report"
                : "no per-request rows in this report (summary-only artifact)";
        page.subheading("Latency distributions");
        page.beginGrid();
        cdf("ttft-cdf", "TTFT and TTFO distribution (CDF)", "latency (ms)", rows,
                List.of("TTFT", "TTFO"), List.of("ttft_ms", "time_to_first_output_ms"), noRows);
        cdf("e2e-cdf", "E2E latency distribution (CDF)", "E2E (ms)", rows, List.of("E2E"), List.of("e2e_ms"), noRows);
        cdf("itl-cdf", "Per-request mean ITL distribution (CDF)", "mean inter-token latency (ms)", rows,
                List.of("ITL (per-request mean)"), List.of("mean_inter_token_latency_ms"), noRows);
        percentileIntervals();
        histogram();
        httpPhases();
        serverTtft();
        page.endGrid();

        page.subheading("Over time");
        Timeline timeline = timeline();
        if (timeline == null) {
            page.note(noTimelineReason());
        } else {
            TimelineSeries t = TimelineSeries.of("timeline", timeline, MAX_TIMELINE_REQUESTS);
            String caption = t.stride() == 1
                    ? "All " + count(t.total()) + " requests; failed requests are marked with crosses at their end,"
                            + " one colour per error type."
                    : "Every " + ordinal(t.stride()) + " request (" + count(t.drawn()) + " of " + count(t.total())
                    + "); failed requests are marked with crosses at their end, one colour per error type.";
            page.chart(t.chart(), ChartOptions.NONE.withCaption(caption));
            page.beginGrid();
            arrivalRate(timeline);
            throughput(timeline, rows);
            InFlightSeries f = InFlightSeries.of(timeline, MAX_IN_FLIGHT_POINTS);
            page.chart(new Chart("in-flight", "Requests in flight", "time since start (s)", "requests in flight",
                    Chart.Kind.STEP, f.timeS(), List.of(new Chart.Series("in flight", f.inFlight()))),
                    f.binS() == 0 ? ChartOptions.NONE : ChartOptions.NONE.withCaption(
                            "The most requests in flight per " + Fmt.number(f.binS()) + " s bin."));
            page.endGrid();
        }
        new ServerMetricsCharts(page, artifact).add();
    }

    /** Adds the error breakdown chart (when there are failures). */
    void errors(ErrorBreakdown breakdown) {
        if (breakdown.counts().isEmpty()) {
            return;
        }
        page.chart(breakdown.chart("errors"), ChartOptions.NONE.withCategories(breakdown.types()));
    }

    private void cdf(String id, String title, String xLabel, JsonNode rows, List<String> labels, List<String> keys,
                     String noRows) {
        List<Cdf> cdfs = new java.util.ArrayList<>();
        List<String> used = new java.util.ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            Cdf c = Cdf.of(column(rows, keys.get(k)));
            if (c.count() > 0) {
                cdfs.add(c);
                used.add(labels.get(k));
            }
        }
        if (cdfs.isEmpty()) {
            page.note(title + ": " + (rows.isArray() && !rows.isEmpty() ? "no values in this report" : noRows) + ".");
            return;
        }
        int n = cdfs.get(0).count();
        String caption = n > MAX_CDF_POINTS
                ? count(n) + " requests; drawn at " + count(MAX_CDF_POINTS)
                + " evenly spaced ranks (nearest-rank values)."
                : count(n) + " requests.";
        page.chart(Cdf.chart(id, title, xLabel, used, cdfs, MAX_CDF_POINTS), ChartOptions.NONE.withCaption(caption));
    }

    /** The HTTP phases (issue 30): a stacked bar per percentile, when the report has them. */
    private void httpPhases() {
        Chart c = HttpPhaseBars.chart("http-phases", artifact.path("capstream").path("statistics").path("http_phases"));
        if (c != null) {
            page.chart(c, ChartOptions.NONE.withCategories(HttpPhaseBars.PERCENTILES).withCaption(
                    "Each phase's own percentile, stacked (blocked, DNS, connect, TLS, sending, waiting for the"
                    + " response head, first chunk, first content): a sum of percentiles, close to but not the TTFT"
                    + " percentile."));
        }
    }

    /** Issue 32: the percentiles with their 95% intervals as error bars, when the report has statistics. */
    private void percentileIntervals() {
        Chart c = PercentileIntervals.chart("percentile-intervals", artifact.path("capstream").path("statistics"));
        if (c != null) {
            page.chart(c, ChartOptions.NONE.withCategories(PercentileIntervals.PERCENTILES).withCaption(
                    "Each bar is the percentile's 95% confidence interval: with 95% confidence the endpoint's true"
                    + " percentile lies within it (a wider bar, fewer requests). A point without a bar had too few"
                    + " requests for one (p95 needs " + QuantileInterval.minimumSample(0.95, QuantileInterval.DEFAULT_LEVEL)
                    + ", p99 " + QuantileInterval.minimumSample(0.99, QuantileInterval.DEFAULT_LEVEL) + ")."));
        }
    }

    /** Issue 33: the client's first token against the server's own TTFT, per request, when responses carried it. */
    private void serverTtft() {
        Chart c = ServerTtftChart.chart("server-ttft",
                artifact.path("capstream").path("statistics").path("server_view"));
        if (c != null) {
            page.chart(c, ChartOptions.NONE.withCaption("The server's TTFT is its own clock (llama.cpp: timings.prompt_ms,"
                    + " the prefill); the difference is what it does not see: network, client, HTTP handling, the wait"
                    + " for a slot."));
        }
    }

    private void histogram() {
        HistogramSeries h;
        try {
            h = HistogramSeries.parse(artifact.path("capstream").path("statistics").get("inter_chunk_histogram"));
        } catch (IllegalArgumentException e) {
            page.note("Inter-chunk latency histogram: " + e.getMessage() + ".");
            return;
        }
        if (h == null) {
            page.note("Inter-chunk latency histogram: no per-token inter-chunk histogram in this report"
                    + (artifact.path("capstream").path("statistics").isObject() ? " (no chunk gaps recorded)."
                    : " (older or imported report)."));
            return;
        }
        page.chart(h.chart("inter-chunk-histogram"), ChartOptions.NONE.withLogX().withCaption(
                count(h.total()) + " gaps between consecutive output chunks, log buckets (10 per decade)."));
    }

    /**
     * Issue 30: offered against achieved arrival rate over time, for open loops only (a closed loop offers slots,
     * not a rate): the {@code --rate-schedule} (capstream.run.rate_schedule) or the constant rate
     * (capstream.load.offered_rate_rps).
     */
    private void arrivalRate(Timeline timeline) {
        JsonNode c = artifact.path("capstream");
        JsonNode load = c.path("load");
        String arrival = load.path("arrival").asText("closed");
        if (!load.isObject() || "closed".equals(arrival)) {
            return;
        }
        RateSchedule schedule = null;
        JsonNode text = c.path("run").path("rate_schedule");
        if (text.isTextual()) {
            try {
                schedule = RateSchedule.parse(text.asText());
            } catch (IllegalArgumentException e) {
                page.note("Offered and achieved arrival rate: the report's rate_schedule cannot be read ("
                        + e.getMessage() + ").");
                return;
            }
        }
        Double rate = load.path("offered_rate_rps").isNumber() ? load.get("offered_rate_rps").asDouble() : null;
        if (schedule == null && rate == null) {
            return; // a trace: its timestamps are the offered load, no rate to draw against
        }
        ArrivalRateSeries a = ArrivalRateSeries.of(timeline, schedule, rate, MAX_BUCKETS);
        if (a == null) {
            page.note("Offered and achieved arrival rate: the requests' starts span no time in this report.");
            return;
        }
        page.chart(a.chart(), ChartOptions.NONE.withCaption("Requests by the " + Fmt.number(a.bucketS())
                + " s bucket of their actual start, against the " + (schedule != null ? "--rate-schedule's mean rate"
                : "configured rate") + " over the bucket; up to the last start."));
    }

    private void throughput(Timeline timeline, JsonNode rows) {
        Map<Integer, Long> tokens = new HashMap<>();
        for (JsonNode r : rows) {
            if (r.path("output_tokens").isNumber()) {
                tokens.put(r.path("request_index").asInt(), r.path("output_tokens").asLong());
            }
        }
        ThroughputSeries t = ThroughputSeries.of(timeline, tokens, MAX_BUCKETS);
        String bucket = Fmt.number(t.bucketS()) + " s buckets";
        double last = t.lastWidthS();
        if (Math.abs(last - t.bucketS()) > 1e-9) {
            bucket += "; the last one is " + Fmt.number(last) + " s (it ends with the run's last request) and its"
                    + " rate is over those " + Fmt.number(last) + " s";
        }
        bucket += ".";
        double[] x = t.edgesS();
        if (t.outputTokS() == null) {
            page.note("Output throughput over time: no output token counts in this report.");
        } else {
            page.chart(new Chart("output-throughput", "Output throughput over time", "time since start (s)",
                    "output tokens/s", Chart.Kind.STEP, x, List.of(new Chart.Series("output tokens/s",
                    ThroughputSeries.stepValues(t.outputTokS())))), ChartOptions.NONE.withCaption(
                    "Each request's output tokens spread evenly from its first token to its end; " + bucket));
        }
        page.chart(new Chart("request-throughput", "Completed requests over time", "time since start (s)",
                "completed requests/s", Chart.Kind.STEP, x, List.of(new Chart.Series("completed req/s",
                ThroughputSeries.stepValues(t.completedRps())))),
                ChartOptions.NONE.withCaption("Requests by the bucket of their end; " + bucket));
    }

    private Timeline timeline() {
        try {
            return Timeline.parse(artifact.path("capstream").get("timeline"));
        } catch (IllegalArgumentException e) {
            page.note("Per-request timeline: " + e.getMessage() + ".");
            return null;
        }
    }

    private String noTimelineReason() {
        String kind = artifact.path("capstream").path("kind").asText("").toLowerCase(Locale.ROOT);
        String why = kind.contains("import") ? " (imported)" : " (older report)";
        return "No per-request timeline in this report" + why
                + ": no timeline, throughput-over-time or in-flight charts.";
    }

    static double[] column(JsonNode rows, String key) {
        double[] v = new double[rows.size()];
        int i = 0;
        for (JsonNode r : rows) {
            JsonNode x = r.get(key);
            v[i++] = x != null && x.isNumber() ? x.doubleValue() : Double.NaN;
        }
        return v;
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String ordinal(int k) {
        int mod100 = k % 100;
        String suffix = mod100 >= 11 && mod100 <= 13 ? "th"
                : switch (k % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return k + suffix;
    }
}
