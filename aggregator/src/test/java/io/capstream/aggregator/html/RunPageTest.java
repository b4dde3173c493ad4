package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class RunPageTest {
    static final Path SAMPLES = Path.of("target", "html-samples");

    static Map<String, JsonNode> charts(Document doc) throws Exception {
        Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode c : ArtifactJson.parse(doc.getElementById("capstream-charts").data()).get("charts")) {
            byId.put(c.get("id").asText(), c);
        }
        return byId;
    }

    static int finite(JsonNode chart) {
        int n = 0;
        for (JsonNode s : chart.get("series")) {
            for (JsonNode v : s.get("y")) {
                n += v.isNumber() ? 1 : 0;
            }
        }
        return n;
    }

    static void assertOffline(Document doc) {
        for (Element e : doc.select("[src], [href]")) {
            String url = e.hasAttr("src") ? e.attr("src") : e.attr("href");
            assertThat(url.toLowerCase()).as(e.outerHtml()).doesNotStartWith("http");
            assertThat(url).as(e.outerHtml()).doesNotStartWith("//");
        }
        assertThat(doc.select("link[href]:not([href^=data:]), img, iframe, script[src]")).as("only inline (data:) links")
                .isEmpty();
    }

    @Test
    void aRunPageHasTheSummaryAndEveryChartWithData() throws Exception {
        JsonNode artifact = RunArtifacts.artifact(40, true);
        String html = RunPage.render(artifact);
        Files.createDirectories(SAMPLES);
        Files.writeString(SAMPLES.resolve("run.html"), html, StandardCharsets.UTF_8);
        Document doc = Jsoup.parse(html);
        assertEquals("capstream run run-html-1", doc.title());
        assertThat(doc.text()).contains("Model " + RunArtifacts.MODEL + " at http://127.0.0.1:8000/v1, engine vllm.");
        assertThat(doc.select("b")).as("the model's markup stays text").isEmpty();
        assertThat(html).doesNotContain(RunArtifacts.MODEL);
        assertOffline(doc);

        Map<String, JsonNode> charts = charts(doc);
        assertEquals(List.of("e2e-cdf", "errors", "in-flight", "inter-chunk-histogram", "itl-cdf",
                "output-throughput", "percentile-intervals", "request-throughput", "timeline", "ttft-cdf"),
                charts.keySet().stream().sorted().toList());
        assertEquals(charts.size(), doc.select("div.chart[data-chart][data-points=0]").size());
        for (JsonNode c : charts.values()) {
            assertTrue(finite(c) > 0, c.get("id").asText());
        }
        // 36 successes and 4 failures: TTFT CDF ends at 1, the timeline has 40 starts and 4 failure marks
        JsonNode ttft = charts.get("ttft-cdf");
        assertEquals("TTFT", ttft.get("series").get(0).get("label").asText());
        assertEquals(1.0, ttft.get("series").get(0).get("y").get(ttft.get("x").size() - 1).asDouble());
        assertEquals(100.0, ttft.get("x").get(0).asDouble(), "the smallest TTFT (request 0)");
        JsonNode timeline = charts.get("timeline");
        assertEquals(List.of("start", "first token", "end", "failed: HTTPError (2)", "failed: TimeoutError (2)"),
                labels(timeline));
        List<String> styles = new java.util.ArrayList<>();
        timeline.get("series").forEach(se -> styles.add(se.get("style").asText()));
        assertEquals(List.of("DEFAULT", "DEFAULT", "DEFAULT", "FAILURE", "FAILURE"), styles,
                "failures are drawn as crosses in their own colours");
        JsonNode throughput = charts.get("request-throughput");
        double lastEnd = 0;
        for (JsonNode e : artifact.path("capstream").path("timeline").path("end_ms")) {
            lastEnd = Math.max(lastEnd, e.asDouble() / 1000);
        }
        assertEquals(lastEnd, throughput.get("x").get(throughput.get("x").size() - 1).asDouble(), 1e-9,
                "the last bucket is drawn to the run's end: " + throughput.get("x"));
        assertEquals(40 + 36 + 36 + 4, finite(timeline));
        JsonNode errors = charts.get("errors");
        assertEquals("[\"HTTPError\",\"TimeoutError\"]", errors.get("categories").toString());
        assertEquals("[2,2]", errors.get("series").get(0).get("y").toString());
        assertTrue(charts.get("inter-chunk-histogram").get("xLog").asBoolean());
        assertEquals("[10,0,7]", charts.get("inter-chunk-histogram").get("series").get(0).get("y").toString());
        JsonNode inFlight = charts.get("in-flight");
        double max = 0;
        for (JsonNode v : inFlight.get("series").get(0).get("y")) {
            max = Math.max(max, v.asDouble());
        }
        assertEquals(4.0, max, "4 slots");

        String text = doc.text();
        assertThat(text).contains("Goodput:");
        assertThat(text).contains("ttft_p95_ms<=200");
        assertThat(text).contains("distorted: the self-check saw conditions");
        assertThat(text).contains("warning: event-loop delay p99 7.5 ms > 5 ms");
        assertThat(text).as("failure messages are listed as text").contains("boom <9> & </script>");
        assertThat(text).contains("All 40 requests; failed requests are marked with crosses at their end,");
        Element summary = doc.selectFirst("table");
        assertThat(summary.text()).contains("requests 40 completed 36 failed 4 concurrency 4");
        Element latency = doc.select("table").get(1);
        assertEquals("TTFT", latency.selectFirst("tbody tr td").text());
        assertTrue(doc.select("td.num").size() > 20, "numbers are right-aligned");
    }

    @Test
    void loadHealthConfigurationAndSelfCheckAreLabelledTablesWithUnitsAndNoEmptyValues() throws Exception {
        ObjectNode artifact = (ObjectNode) RunArtifacts.artifact(12, true);
        ObjectNode load = ((ObjectNode) artifact.get("capstream")).putObject("load");
        load.put("arrival", "closed").put("offered_concurrency", 4).put("achieved_concurrency", 3.91)
                .putNull("offered_rate_rps").putNull("scheduled_rate_rps").put("behind_schedule", false)
                .put("queue_p99_ms", 4.17);
        artifact.putNull("gpu");
        artifact.put("tier", "");
        ObjectNode methodology = artifact.putObject("timing_methodology");
        methodology.put("clock", "client time.perf_counter").put("ttft", "request start through the first delta");
        Document doc = Jsoup.parse(RunPage.render(artifact));

        Map<String, String> loadRows = rows(tableAfter(doc, "Load health"));
        assertEquals("4|requests in flight", loadRows.get("offered concurrency"), loadRows.toString());
        assertEquals("3.91|requests in flight", loadRows.get("achieved concurrency (mean in flight)"));
        assertEquals("4.17|ms", loadRows.get("client queue p99"), loadRows.toString());
        assertEquals("no|", loadRows.get("behind schedule"), loadRows.toString());
        assertThat(loadRows).as("a null value is left out: " + loadRows).doesNotContainKey("offered rate");
        assertThat(loadRows.keySet()).as("labels, not keys: " + loadRows).noneMatch(k -> k.contains("_"));

        Map<String, String> config = new java.util.LinkedHashMap<>();
        for (Element h : doc.select("h3")) {
            Element t = h.nextElementSibling();
            if (t != null && t.tagName().equals("table")
                    && List.of("Target and workload", "Load generator settings", "Measurement").contains(h.text())) {
                config.putAll(rows(t));
            }
        }
        assertEquals("4|requests in flight", config.get("concurrency"), config.toString());
        assertEquals("128|tokens", config.get("max_tokens (output cap)"), config.toString());
        assertThat(config).as("null values are left out: " + config).doesNotContainKey("GPU");
        assertThat(config).as("empty values are left out: " + config).doesNotContainKey("tier");
        assertThat(config.values()).as("no row without a value: " + config).noneMatch(v -> v.startsWith("|"));
        assertThat(config.get("clock")).as("capstream's clock: " + config).startsWith(RunTables.CAPSTREAM_CLOCK);
        assertThat(doc.select("td")).as("the reference's clock is not shown as the clock of a capstream run")
                .noneMatch(td -> td.text().equals("client time.perf_counter"));
        assertEquals("request start through the first delta|", config.get("timing methodology: ttft"), config.toString());

        Map<String, String> client = rows(tableAfter(doc, "Client self-check"));
        assertEquals("7.50|ms", client.get("event-loop delay p99"), client.toString());
        assertThat(client).doesNotContainKey("warnings");
        assertThat(client).doesNotContainKey("distorted");

        ObjectNode imported = artifact.deepCopy();
        ((ObjectNode) imported.get("capstream")).put("origin", "import");
        Map<String, String> importedConfig = rows(tableAfter(Jsoup.parse(RunPage.render(imported)), "Measurement"));
        assertThat(importedConfig.get("clock")).as("an imported report was measured by the reference: " + importedConfig)
                .startsWith("client time.perf_counter");
    }

    /** The first table after the heading (h2 or h3) with this text. */
    private static Element tableAfter(Document doc, String heading) {
        Element h = doc.select("h2, h3").stream().filter(e -> e.text().equals(heading)).findFirst()
                .orElseThrow(() -> new AssertionError("no heading " + heading + ": " + doc.select("h2, h3").eachText()));
        for (Element e = h.nextElementSibling(); e != null; e = e.nextElementSibling()) {
            if (e.tagName().equals("table")) {
                return e;
            }
        }
        throw new AssertionError("no table after " + heading);
    }

    /** label to "value|unit" of a labelled table (or "value|" for a two-column one). */
    private static Map<String, String> rows(Element table) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (Element tr : table.select("tbody tr")) {
            List<String> cells = tr.select("td").eachText();
            m.put(cells.get(0), cells.get(1) + "|" + (cells.size() > 2 ? cells.get(2) : ""));
        }
        return m;
    }

    @Test
    void anOlderArtifactWithoutTheNewKeysRendersWithNotes() throws Exception {
        JsonNode artifact = RunArtifacts.artifact(12, false);
        Document doc = Jsoup.parse(RunPage.render(artifact));
        Map<String, JsonNode> charts = charts(doc);
        assertEquals(List.of("e2e-cdf", "errors", "itl-cdf", "percentile-intervals", "ttft-cdf"),
                charts.keySet().stream().sorted().toList(), "the report's statistics have intervals (issue 32)");
        String text = doc.text();
        assertThat(text).contains("No per-request timeline in this report (older report)");
        assertThat(text).contains("no per-token inter-chunk histogram in this report");
        assertOffline(doc);
    }

    @Test
    void anImportedSummaryOnlyArtifactRendersWithNotes() throws Exception {
        ObjectNode a = (ObjectNode) RunArtifacts.artifact(4, false);
        a.remove("request_timings");
        ObjectNode c = (ObjectNode) a.get("capstream");
        c.put("kind", "imported");
        c.remove(List.of("statistics", "client", "slo", "load", "run"));
        Document doc = Jsoup.parse(RunPage.render(a));
        assertThat(charts(doc).keySet()).allMatch(id -> id.equals("errors"));
        String text = doc.text();
        assertThat(text).contains("No per-request timeline in this report (imported)");
        assertThat(text).contains("no per-request rows in this report (summary-only artifact)");
        assertThat(text).contains("No client self-check in this report");
        assertNotNull(doc.selectFirst("table"), "the summary falls back to metrics");
        assertThat(doc.select("table").get(1).text()).as("p50/p95 from metrics").contains("TTFT");
    }

    @Test
    void aLargeRunPageStaysSmall() throws Exception {
        int n = 100_000;
        ObjectNode a = (ObjectNode) RunArtifacts.artifact(8, true);
        ArrayNode rows = a.putArray("request_timings");
        ObjectNode tl = ((ObjectNode) a.get("capstream")).putObject("timeline");
        ArrayNode idx = tl.putArray("request_index");
        ArrayNode start = tl.putArray("start_ms");
        ArrayNode first = tl.putArray("first_token_ms");
        ArrayNode end = tl.putArray("end_ms");
        ArrayNode type = tl.putArray("error_type");
        tl.putArray("queue_ms");
        for (int i = 0; i < n; i++) {
            double s = i * 3.7;
            double ttft = 80 + (i * 7919 % 1000) / 10.0;
            double e2e = ttft + 500 + (i % 97);
            rows.addObject().put("request_index", i).put("ttft_ms", ttft).put("time_to_first_output_ms", ttft)
                    .put("e2e_ms", e2e).put("mean_inter_token_latency_ms", 5 + (i % 13) / 10.0)
                    .put("output_tokens", 100);
            idx.add(i);
            start.add(s);
            first.add(s + ttft);
            end.add(s + e2e);
            type.addNull();
        }
        a.put("failed", 0);
        a.putArray("failures");
        String html = RunPage.render(a);
        Files.createDirectories(SAMPLES);
        Files.writeString(SAMPLES.resolve("run-100k.html"), html, StandardCharsets.UTF_8);
        assertTrue(html.length() < 6_000_000, "page size " + html.length());
        Document doc = Jsoup.parse(html);
        assertThat(doc.text()).contains("Every 5th request (20,000 of 100,000)");
        Map<String, JsonNode> charts = charts(doc);
        assertTrue(charts.get("e2e-cdf").get("x").size() <= 2_000);
        assertTrue(charts.get("ttft-cdf").get("x").size() <= 4_000);
        assertTrue(charts.get("output-throughput").get("x").size() <= 600);
        assertTrue(charts.get("in-flight").get("x").size() <= RunCharts.MAX_IN_FLIGHT_POINTS);
    }

    @Test
    void everyCorpusArtifactRenders() throws Exception {
        String dir = System.getProperty("capstream.testdata.dir");
        Path corpus = (dir != null ? Path.of(dir) : Path.of("..", "testdata")).resolve("corpus");
        List<Path> files;
        try (var s = Files.walk(corpus)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() > 100, "corpus at " + corpus.toAbsolutePath());
        int withCdf = 0;
        for (Path f : files) {
            JsonNode a = ArtifactJson.read(f);
            Document doc = Jsoup.parse(RunPage.render(a));
            assertEquals("capstream run " + a.path("run_id").asText(), doc.title(), f.toString());
            assertThat(doc.text()).as(f.toString()).contains("No per-request timeline in this report");
            withCdf += charts(doc).containsKey("e2e-cdf") ? 1 : 0;
        }
        assertTrue(withCdf >= 59, "every artifact with rows has an E2E CDF: " + withCdf);
    }

    private static List<String> labels(JsonNode chart) {
        return java.util.stream.StreamSupport.stream(chart.get("series").spliterator(), false)
                .map(s -> s.get("label").asText()).toList();
    }

    @Test
    void aRunAStopRuleEndedSaysSoAtTheTop() throws Exception {
        ObjectNode artifact = (ObjectNode) RunArtifacts.artifact(40, true);
        assertThat(Jsoup.parse(RunPage.render(artifact)).text()).as("not stopped").doesNotContain("stop rule");
        ObjectNode stopped = ((ObjectNode) artifact.get("capstream")).putObject("stopped");
        stopped.put("rule", "max_error_rate").put("at_ms", 2310.0).put("detail", "26 of the last 50 requests failed"
                + " (52%), over the 50% limit").put("requests_ended", 50).put("requests_not_sent", 1950);
        assertThat(Jsoup.parse(RunPage.render(artifact)).text()).contains("A stop rule ended this run early:"
                + " max_error_rate at 2.31 s after T0: 26 of the last 50 requests failed (52%), over the 50% limit; 50"
                + " requests had ended, 1950 planned were not sent.");
    }
}
