package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTML page of one run, from its report artifact: summary, latency percentiles, SLOs and goodput,
 * load health, the conversations of a multi-turn run ({@link SessionsSection}: by-turn TTFT and prompt tokens), charts (TTFT/TTFO, E2E and ITL CDFs, the inter-chunk histogram, the per-request timeline,
 * throughput and requests in flight over time, failures by error type), the first failures, the
 * configuration and the client self-check. Keys missing from older or imported reports leave out their
 * section or chart with a note. Stateless.
 */
public final class RunPage {
    /** Most failures listed with their messages. */
    static final int MAX_FAILURE_ROWS = 20;

    private RunPage() {
    }

    /**
     * Renders a run's page.
     *
     * @param artifact the report artifact JSON tree (a report file, or {@code /api/runs/{id}}); not null
     * @return a self-contained HTML document
     * @throws java.io.UncheckedIOException when an embedded asset is missing from the classpath
     */
    public static String render(JsonNode artifact) {
        JsonNode c = artifact.path("capstream");
        HtmlPage page = HtmlPage.titled("capstream run " + artifact.path("run_id").asText(""));
        page.paragraph("Model " + artifact.path("model").asText("?") + " at " + artifact.path("base_url").asText("?")
                + ", engine " + (artifact.path("engine").isTextual() ? artifact.get("engine").asText() : "unknown")
                + ".");
        JsonNode client = c.path("client");
        if (client.path("distorted").asBoolean(false)) {
            page.warning("The client self-check flagged this run: the client may have added to the measured times"
                    + " (see Client self-check).");
        }
        JsonNode stopped = c.path("stopped");
        if (stopped.isObject()) {
            // issue 30: a stop rule ended the run early
            page.warning("A stop rule ended this run early: " + stopped.path("rule").asText("?") + " at "
                    + Fmt.number(stopped.path("at_ms").asDouble() / 1000) + " s after T0: "
                    + stopped.path("detail").asText("") + "; " + stopped.path("requests_ended").asInt()
                    + " requests had ended" + (stopped.path("requests_not_sent").isNumber() ? ", "
                    + stopped.path("requests_not_sent").asInt() + " planned were not sent" : "") + ".");
        }

        page.heading("Summary");
        page.table(RunTables.KEY_VALUE, RunTables.summary(artifact).stream().filter(r -> !r.get(1).isEmpty()).toList());
        List<List<String>> latency = RunTables.latency(artifact);
        if (latency.isEmpty()) {
            page.note("No latency statistics in this report.");
        } else {
            page.table(RunTables.LATENCY_HEADER, latency);
            if (latency.stream().anyMatch(r -> r.stream().anyMatch(cell -> cell.contains(" [")))) {
                page.note("In brackets: the 95% confidence interval of each percentile (distribution-free, from the"
                        + " order statistics of the run's values); [n<72]: too few values for one (p95 needs 72, p99"
                        + " 368).");
            }
        }

        JsonNode slo = c.path("slo");
        if (slo.isObject()) {
            page.heading("SLOs");
            page.table(List.of("SLO", "metric", "threshold", "observed", "met", "attainment"), RunTables.slos(slo));
            page.headline(RunTables.goodput(slo));
        }
        JsonNode load = c.path("load");
        if (load.isObject()) {
            page.heading("Load health");
            if (load.path("behind_schedule").asBoolean(false)) {
                page.warning("The run fell behind its arrival schedule: the offered load was not achieved.");
            }
            labelled(page, RunTables.load(load));
            List<List<String>> stages = StageTable.rows(load);
            if (!stages.isEmpty()) {
                page.subheading("Rate schedule stages: offered against achieved");
                page.table(StageTable.HEADER, stages);
            }
        }

        new SessionsSection(page, artifact).add();

        page.heading("Charts");
        RunCharts charts = new RunCharts(page, artifact);
        charts.addAll();

        ErrorBreakdown errors = ErrorBreakdown.of(artifact.path("failures"));
        if (artifact.path("failed").asInt(0) > 0 || !errors.counts().isEmpty()) {
            page.heading("Errors");
            List<List<String>> rows = new ArrayList<>();
            errors.counts().forEach((type, n) -> rows.add(List.of(type, Integer.toString(n))));
            page.table(List.of("error type", "failures"), rows);
            charts.errors(errors);
            JsonNode failures = artifact.path("failures");
            page.subheading(failures.size() > MAX_FAILURE_ROWS
                    ? "First " + MAX_FAILURE_ROWS + " of " + failures.size() + " failures" : "Failures");
            page.table(List.of("request", "error type", "message"),
                    RunTables.firstFailures(failures, MAX_FAILURE_ROWS));
        }

        page.heading("Configuration");
        RunTables.config(artifact).forEach((section, rows) -> {
            page.subheading(section);
            labelled(page, rows);
        });
        if (RunTables.CAPSTREAM_CLOCK.equals(RunTables.clock(artifact))
                && artifact.path("timing_methodology").path("clock").isTextual()) {
            page.note("The report's timing_methodology.clock keeps the reference's text (\""
                    + artifact.path("timing_methodology").path("clock").asText() + "\") for parity with its"
                    + " artifacts; capstream's client measured with " + RunTables.CAPSTREAM_CLOCK + ".");
        }

        page.heading("Client self-check");
        if (client.isObject()) {
            if (client.path("distorted").asBoolean(false)) {
                page.warning("distorted: the self-check saw conditions under which the client may have added to"
                        + " the measured times.");
            }
            for (JsonNode w : client.path("warnings")) {
                page.warning("warning: " + w.asText());
            }
            if (!client.path("distorted").asBoolean(false) && client.path("warnings").isEmpty()) {
                page.paragraph("No self-check warnings.");
            }
            labelled(page, RunTables.client(client));
        } else {
            page.note("No client self-check in this report (imported or older report).");
        }
        return page.render();
    }

    /** A labelled table of [label, value, unit] rows; without the unit column when no row has a unit. */
    private static void labelled(HtmlPage page, List<List<String>> rows) {
        if (rows.stream().allMatch(r -> r.get(2).isEmpty())) {
            page.table(List.of("", "value"), rows.stream().map(r -> r.subList(0, 2)).toList());
        } else {
            page.table(FieldRows.HEADER, rows);
        }
    }
}
