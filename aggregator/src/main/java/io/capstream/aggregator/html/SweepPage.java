package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The HTML page of one sweep, from its {@code sweep.json} ({@code io.capstream.schemas.report.SweepJson}):
 * the largest load meeting the SLOs as a headline, capacity-curve charts (TTFT, E2E and ITL percentiles
 * against achieved throughput, with the SLO thresholds and the max-load step marked), throughput against
 * the offered load, and a table of every step. Stateless.
 */
public final class SweepPage {
    private static final List<String> HEADER = List.of("step", "run id", "load", "achieved load", "req/s",
            "output tokens/s", "TTFT p50 (ms)", "TTFT p95 (ms)", "TTFT p99 (ms)", "E2E p50 (ms)", "E2E p95 (ms)",
            "E2E p99 (ms)", "ITL p95 (ms)", "inter-chunk p95 (ms)", "error rate", "goodput", "goodput (req/s)",
            "meets SLOs", "notes");

    private SweepPage() {
    }

    /**
     * Renders a sweep's page without links to the steps' run pages.
     *
     * @param sweep the sweep's JSON tree ({@code sweep.json}, {@code io.capstream.schemas.report.SweepJson}); not null
     * @return a self-contained HTML document
     */
    public static String render(JsonNode sweep) {
        return render(sweep, runId -> null);
    }

    /**
     * Renders a sweep's page.
     *
     * @param sweep   the sweep's JSON tree; not null
     * @param runLink a step's run id to a relative link to its run page (e.g. {@code id + ".html"}), or to
     *                null for no link; not null
     * @return a self-contained HTML document
     * @throws IllegalArgumentException when a link is not relative
     */
    public static String render(JsonNode sweep, Function<String, String> runLink) {
        String axis = sweep.path("axis").asText("");
        HtmlPage page = HtmlPage.titled("capstream sweep " + sweep.path("sweep_id").asText(""));
        JsonNode points = sweep.path("points");
        List<String> slos = new ArrayList<>();
        sweep.path("slos").forEach(s -> slos.add(s.asText()));
        JsonNode planned = sweep.path("steps_planned");
        page.paragraph("Axis " + axis + " (" + unit(axis) + "), mode " + sweep.path("mode").asText("") + ", "
                + points.size() + " step" + (points.size() == 1 ? "" : "s")
                + (planned.isNumber() ? " of " + planned.asInt() + " planned" : "") + ". SLOs: "
                + (slos.isEmpty() ? "none" : String.join(", ", slos)) + ".");
        JsonNode auto = sweep.path("auto");
        if (auto.isObject()) {
            List<String> rates = new ArrayList<>();
            auto.path("rates").forEach(r -> rates.add(Fmt.value(r)));
            page.paragraph("Rates chosen by --rate auto (as GuideLLM's sweep): the synchronous step (1 request at a"
                    + " time, run " + auto.path("synchronous_run_id").asText("-") + ") completed "
                    + numberOrDash(auto.path("synchronous_rps")) + " req/s, the throughput step ("
                    + auto.path("throughput_slots").asText("-") + " requests at once, run "
                    + auto.path("throughput_run_id").asText("-") + ") " + numberOrDash(auto.path("throughput_rps"))
                    + " req/s; the steps ran at " + (rates.isEmpty() ? "no rate" : String.join(", ", rates)
                    + " req/s") + ", evenly spaced above the synchronous rate up to the throughput rate.");
        }
        if (sweep.path("max_load_meeting_slos").isObject() || slos.isEmpty()) {
            page.headline(headline(sweep, axis, slos));
        } else {
            page.warning(headline(sweep, axis, slos));
        }

        SweepCurveSeries curve = new SweepCurveSeries(sweep);
        page.heading("Capacity curve");
        if (curve.points().isEmpty()) {
            page.note("No step has a measured throughput yet: no capacity curve.");
        } else {
            page.beginGrid();
            addOrNote(page, curve.latency("ttft-curve", "TTFT percentiles against throughput", "ttft",
                    List.of("TTFT p50", "TTFT p95", "TTFT p99"), List.of("ttft_p50_ms", "ttft_p95_ms", "ttft_p99_ms")),
                    "TTFT");
            addOrNote(page, curve.latency("e2e-curve", "E2E percentiles against throughput", "e2e",
                    List.of("E2E p50", "E2E p95", "E2E p99"), List.of("e2e_p50_ms", "e2e_p95_ms", "e2e_p99_ms")), "E2E");
            addOrNote(page, curve.latency("itl-curve", "ITL percentiles against throughput", "itl",
                    List.of("ITL p50 (per-request mean)", "ITL p95 (per-request mean)", "ITL p99 (per-request mean)",
                            "inter-chunk p50", "inter-chunk p95", "inter-chunk p99"),
                    List.of("itl_p50_ms", "itl_p95_ms", "itl_p99_ms", "inter_chunk_p50_ms", "inter_chunk_p95_ms",
                            "inter_chunk_p99_ms")), "ITL");
            page.chart(throughputByLoad(sweep, axis));
            page.endGrid();
        }

        page.heading("Steps");
        List<List<HtmlPage.Cell>> rows = new ArrayList<>();
        for (JsonNode p : points) {
            String runId = p.path("run_id").asText("");
            List<HtmlPage.Cell> r = new ArrayList<>();
            r.add(HtmlPage.Cell.text(Fmt.value(p.get("step"))));
            r.add(HtmlPage.Cell.link(runId, runLink.apply(runId)));
            for (String k : List.of("load", "achieved_load", "requests_per_s", "output_tok_s", "ttft_p50_ms",
                    "ttft_p95_ms", "ttft_p99_ms", "e2e_p50_ms", "e2e_p95_ms", "e2e_p99_ms", "itl_p95_ms",
                    "inter_chunk_p95_ms")) {
                r.add(HtmlPage.Cell.text(Fmt.value(p.get(k))));
            }
            r.add(HtmlPage.Cell.text(Fmt.percent(p.get("error_rate"))));
            r.add(HtmlPage.Cell.text(Fmt.percent(p.get("goodput"))));
            r.add(HtmlPage.Cell.text(Fmt.value(p.get("goodput_rps"))));
            JsonNode met = p.path("meets_slos");
            r.add(HtmlPage.Cell.text(met.isBoolean() ? (met.booleanValue() ? "yes" : "no") : ""));
            r.add(HtmlPage.Cell.text(notes(p)));
            rows.add(r);
        }
        page.tableCells(HEADER, rows);
        return page.render();
    }

    /**
     * Why a sweep with SLOs has no largest load meeting them. A load counts only when it and every lower
     * load met the SLOs ({@code SweepCurves.maxLoadMeetingSlos}), so steps that met them above a lower
     * step that missed (a cold first step, a noisy one) are named, with the step that blocked them.
     *
     * @param points the sweep.json points
     * @param axis   the load axis
     * @return e.g. {@code "No load met the SLOs"} or {@code "No load met the SLOs with every lower load
     *     meeting them too: concurrency 1 (step 1) missed them; 2, 4 met them"}
     */
    static String noMaxLoad(JsonNode points, String axis) {
        JsonNode lowestMiss = null;
        for (JsonNode p : points) {
            if (p.path("meets_slos").isBoolean() && !p.path("meets_slos").booleanValue()
                    && (lowestMiss == null || p.path("load").asDouble() < lowestMiss.path("load").asDouble())) {
                lowestMiss = p;
            }
        }
        List<String> metAbove = new ArrayList<>();
        for (JsonNode p : points) {
            if (p.path("meets_slos").asBoolean(false) && lowestMiss != null
                    && p.path("load").asDouble() > lowestMiss.path("load").asDouble()) {
                String load = Fmt.value(p.get("load"));
                if (!metAbove.contains(load)) {
                    metAbove.add(load);
                }
            }
        }
        if (metAbove.isEmpty()) {
            return "No load met the SLOs";
        }
        return "No load met the SLOs with every lower load meeting them too: " + axis + " "
                + Fmt.value(lowestMiss.get("load")) + " (step " + lowestMiss.path("step").asInt() + ") missed them; "
                + String.join(", ", metAbove) + " met them";
    }

    /**
     * @param sweep the sweep.json tree
     * @param axis  its axis
     * @param slos  its SLO texts
     * @return the sentence naming the largest load meeting the SLOs (or why there is none)
     */
    static String headline(JsonNode sweep, String axis, List<String> slos) {
        if (slos.isEmpty()) {
            return "No SLOs were set, so no largest load meeting them is computed.";
        }
        JsonNode max = sweep.path("max_load_meeting_slos");
        if (!max.isObject()) {
            return noMaxLoad(sweep.path("points"), axis) + " (" + String.join(", ", slos) + ").";
        }
        String load = Fmt.value(max.get(axis));
        StringBuilder sb = new StringBuilder("Largest load meeting the SLOs: ").append(axis).append(' ').append(load);
        if (!"concurrency".equals(axis)) {
            sb.append(" req/s");
        }
        sb.append(" (step ").append(Fmt.value(max.get("step"))).append(", run ")
                .append(max.path("run_id").asText("?")).append(')');
        for (JsonNode p : sweep.path("points")) {
            if (p.path("step").asInt() == max.path("step").asInt(-1) && p.path("requests_per_s").isNumber()) {
                sb.append(", achieving ").append(Fmt.value(p.get("requests_per_s"))).append(" req/s");
                if (p.path("output_tok_s").isNumber()) {
                    sb.append(" and ").append(Fmt.value(p.get("output_tok_s"))).append(" output tokens/s");
                }
            }
        }
        return sb.append('.').toString();
    }

    private static Chart throughputByLoad(JsonNode sweep, String axis) {
        List<JsonNode> pts = new ArrayList<>();
        sweep.path("points").forEach(pts::add);
        pts.sort(java.util.Comparator.comparingDouble((JsonNode p) -> p.path("load").asDouble())
                .thenComparingInt(p -> p.path("step").asInt()));
        double[] x = new double[pts.size()];
        double[] rps = new double[pts.size()];
        double[] good = new double[pts.size()];
        boolean anyGood = false;
        for (int i = 0; i < x.length; i++) {
            JsonNode p = pts.get(i);
            x[i] = p.path("load").asDouble();
            rps[i] = p.path("requests_per_s").isNumber() ? p.path("requests_per_s").doubleValue() : Double.NaN;
            good[i] = p.path("goodput_rps").isNumber() ? p.path("goodput_rps").doubleValue() : Double.NaN;
            anyGood |= Double.isFinite(good[i]);
        }
        List<Chart.Series> series = new ArrayList<>(List.of(new Chart.Series("completed req/s", rps)));
        if (anyGood) {
            series.add(new Chart.Series("goodput req/s", good));
        }
        return new Chart("throughput-by-load", "Throughput against offered load", axis + " (" + unit(axis) + ")",
                "requests/s", Chart.Kind.LINE, x, series);
    }

    private static void addOrNote(HtmlPage page, Chart chart, String what) {
        if (chart == null) {
            page.note(what + " percentiles: no step has them.");
        } else {
            page.chart(chart);
        }
    }

    private static String notes(JsonNode p) {
        List<String> n = new ArrayList<>();
        if (p.path("repeat").asBoolean(false)) {
            n.add("repeat");
        }
        if (p.path("behind_schedule").asBoolean(false)) {
            n.add("behind schedule");
        }
        if (p.path("interrupted").asBoolean(false)) {
            n.add("interrupted");
        }
        return String.join(", ", n);
    }

    private static String unit(String axis) {
        return switch (axis.toLowerCase(Locale.ROOT)) {
            case "concurrency" -> "requests in flight";
            case "rate" -> "req/s";
            default -> "load";
        };
    }

    /** @return the number as {@link Fmt#value}, or "-" when it is not a number */
    private static String numberOrDash(JsonNode v) {
        return v.isNumber() ? Fmt.value(v) : "-";
    }
}
