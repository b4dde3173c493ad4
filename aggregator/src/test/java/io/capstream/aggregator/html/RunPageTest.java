package io.capstream.aggregator.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            assertFalse(url.toLowerCase().startsWith("http") || url.startsWith("//"), e.outerHtml());
        }
        assertTrue(doc.select("link[href]:not([href^=data:]), img, iframe, script[src]").isEmpty(), "only inline (data:) links");
    }

    @Test
    void aRunPageHasTheSummaryAndEveryChartWithData() throws Exception {
        JsonNode artifact = RunArtifacts.artifact(40, true);
        String html = RunPage.render(artifact);
        Files.createDirectories(SAMPLES);
        Files.writeString(SAMPLES.resolve("run.html"), html, StandardCharsets.UTF_8);
        Document doc = Jsoup.parse(html);
        assertEquals("capstream run run-html-1", doc.title());
        assertTrue(doc.text().contains("Model " + RunArtifacts.MODEL + " at http://127.0.0.1:8000/v1, engine vllm."),
                doc.text());
        assertTrue(doc.select("b").isEmpty(), "the model's markup stays text");
        assertFalse(html.contains(RunArtifacts.MODEL));
        assertOffline(doc);

        Map<String, JsonNode> charts = charts(doc);
        assertEquals(List.of("e2e-cdf", "errors", "in-flight", "inter-chunk-histogram", "itl-cdf",
                "output-throughput", "request-throughput", "timeline", "ttft-cdf"),
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
        assertEquals(List.of("start", "first token", "end", "failed: HTTPError", "failed: TimeoutError"),
                labels(timeline));
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
        assertTrue(text.contains("Goodput:"), text);
        assertTrue(text.contains("ttft_p95_ms<=200"));
        assertTrue(text.contains("distorted: the self-check saw conditions"));
        assertTrue(text.contains("warning: event-loop delay p99 7.5 ms > 5 ms"));
        assertTrue(text.contains("boom <9> & </script>"), "failure messages are listed as text");
        assertTrue(text.contains("All 40 requests; failures marked at their end by error type."));
        Element summary = doc.selectFirst("table");
        assertTrue(summary.text().contains("requests 40 completed 36 failed 4 concurrency 4"), summary.text());
        Element latency = doc.select("table").get(1);
        assertEquals("TTFT", latency.selectFirst("tbody tr td").text());
        assertTrue(doc.select("td.num").size() > 20, "numbers are right-aligned");
    }

    @Test
    void anOlderArtifactWithoutTheNewKeysRendersWithNotes() throws Exception {
        JsonNode artifact = RunArtifacts.artifact(12, false);
        Document doc = Jsoup.parse(RunPage.render(artifact));
        Map<String, JsonNode> charts = charts(doc);
        assertEquals(List.of("e2e-cdf", "errors", "itl-cdf", "ttft-cdf"), charts.keySet().stream().sorted().toList());
        String text = doc.text();
        assertTrue(text.contains("No per-request timeline in this report (older report)"), text);
        assertTrue(text.contains("no per-token inter-chunk histogram in this report"), text);
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
        assertTrue(charts(doc).keySet().stream().allMatch(id -> id.equals("errors")));
        String text = doc.text();
        assertTrue(text.contains("No per-request timeline in this report (imported)"), text);
        assertTrue(text.contains("no per-request rows in this report (summary-only artifact)"), text);
        assertTrue(text.contains("No client self-check in this report"), text);
        assertNotNull(doc.selectFirst("table"), "the summary falls back to metrics");
        assertTrue(doc.select("table").get(1).text().contains("TTFT"), "p50/p95 from metrics");
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
        assertTrue(doc.text().contains("Every 5th request (20,000 of 100,000)"), doc.text());
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
            assertTrue(doc.text().contains("No per-request timeline in this report"), f.toString());
            withCdf += charts(doc).containsKey("e2e-cdf") ? 1 : 0;
        }
        assertTrue(withCdf >= 59, "every artifact with rows has an E2E CDF: " + withCdf);
    }

    private static List<String> labels(JsonNode chart) {
        return java.util.stream.StreamSupport.stream(chart.get("series").spliterator(), false)
                .map(s -> s.get("label").asText()).toList();
    }
}
