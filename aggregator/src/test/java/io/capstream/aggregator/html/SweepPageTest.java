package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import io.capstream.schemas.report.SweepJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class SweepPageTest {
    /** Concurrency 1, 2, 4, 8: req/s 2, 3.5, 6, 6.5; TTFT p95 100, 150, 280, 900 ms; the SLO ttft_p95_ms<=300. */
    static JsonNode sweep(boolean met) {
        double[] load = {1, 2, 4, 8};
        double[] rps = {2, 3.5, 6, 6.5};
        double[] p95 = {100, 150, 280, 900};
        List<SweepPoint> points = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            boolean ok = p95[i] <= 300;
            points.add(SweepPoint.newBuilder().setStep(i + 1).setRunId("run-" + (i + 1) + "<x>").setLoad(load[i])
                    .setRequests(20).setCompleted(20).setFailed(0).setErrorRate(0.0).setRequestsPerS(rps[i])
                    .setOutputTokS(rps[i] * 100).setTotalTokS(rps[i] * 1100).setTtftP50Ms(p95[i] / 2)
                    .setTtftP95Ms(p95[i]).setTtftP99Ms(p95[i] * 1.2).setItlP50Ms(5.0).setItlP95Ms(6.0)
                    .setItlP99Ms(7.0).setInterChunkP50Ms(4.0).setInterChunkP95Ms(9.0).setInterChunkP99Ms(12.0)
                    .setE2eP50Ms(500 + p95[i]).setE2eP95Ms(700 + p95[i]).setE2eP99Ms(800 + p95[i])
                    .setGoodput(ok ? 1.0 : 0.25).setGoodputRps(ok ? rps[i] : rps[i] / 4).setOfferedLoad(load[i])
                    .setAchievedLoad(load[i] * 0.9).setBehindSchedule(false).setMeetsSlos(ok).build());
        }
        SweepCurve c = SweepCurve.newBuilder().setSweepId("sweep-<1>").setAxis("concurrency").setMode("grid")
                .setSlos(new ArrayList<>(List.of("ttft_p95_ms<=300"))).setStepsPlanned(4).setPoints(points)
                .setMaxLoadMeetingSlos(met ? 4.0 : null).setMaxLoadRunId(met ? "run-3<x>" : null)
                .setUpdatedAtMs(1L).build();
        return SweepJson.toJson(c);
    }

    @Test
    void aSweepPageShowsTheCapacityCurveSlosAndMaxLoad() throws Exception {
        String html = SweepPage.render(sweep(true), id -> id + ".html");
        Files.createDirectories(RunPageTest.SAMPLES);
        Files.writeString(RunPageTest.SAMPLES.resolve("sweep.html"), html, StandardCharsets.UTF_8);
        Document doc = Jsoup.parse(html);
        assertEquals("capstream sweep sweep-<1>", doc.title());
        assertEquals("Largest load meeting the SLOs: concurrency 4 (step 3, run run-3<x>), achieving 6 req/s"
                + " and 600 output tokens/s.", doc.selectFirst("p.headline").text());
        assertThat(doc.text()).contains("Axis concurrency (requests in flight), mode grid, 4 steps of 4 planned."
                + " SLOs: ttft_p95_ms<=300.");
        RunPageTest.assertOffline(doc);

        Map<String, JsonNode> charts = RunPageTest.charts(doc);
        assertEquals(List.of("e2e-curve", "itl-curve", "throughput-by-load", "ttft-curve"),
                charts.keySet().stream().sorted().toList());
        JsonNode ttft = charts.get("ttft-curve");
        assertEquals("[2,3.5,6,6.5]", ttft.get("x").toString());
        assertEquals("achieved request throughput (req/s)", ttft.get("xLabel").asText());
        JsonNode series = ttft.get("series");
        assertEquals("TTFT p95", series.get(1).get("label").asText());
        assertEquals("[100,150,280,900]", series.get(1).get("y").toString());
        assertEquals("SLO ttft_p95_ms<=300", series.get(3).get("label").asText());
        assertEquals("DASHED", series.get(3).get("style").asText());
        assertEquals("[300,300,300,300]", series.get(3).get("y").toString());
        assertEquals(SweepCurveSeries.MARKER, series.get(4).get("label").asText());
        assertEquals("MARKERS", series.get(4).get("style").asText());
        assertEquals("[null,null,280,null]", series.get(4).get("y").toString(), "on TTFT p95 of step 3");
        JsonNode e2e = charts.get("e2e-curve");
        assertEquals(4, e2e.get("series").size(), "3 percentiles and the marker: no E2E SLO");
        assertEquals("[null,null,980,null]", e2e.get("series").get(3).get("y").toString());
        assertEquals("[1,2,4,8]", charts.get("throughput-by-load").get("x").toString());

        List<Element> rows = doc.select("tbody").last().select("tr");
        assertEquals(4, rows.size());
        Element link = rows.get(2).selectFirst("a");
        assertEquals("run-3<x>.html", link.attr("href"));
        assertEquals("run-3<x>", link.text());
        assertEquals("yes", rows.get(2).select("td").get(17).text());
        assertEquals("no", rows.get(3).select("td").get(17).text());
        assertEquals("25.0%", rows.get(3).select("td").get(15).text());
    }

    @Test
    void withoutLinksOrAMetLoadThePageSaysSo() throws Exception {
        Document doc = Jsoup.parse(SweepPage.render(sweep(false)));
        assertThat(doc.select("a")).isEmpty();
        assertEquals("No load met the SLOs (ttft_p95_ms<=300).", doc.selectFirst("p.warning").text());
        assertNull(doc.selectFirst("p.headline"), "not shown as a success");
        JsonNode ttft = RunPageTest.charts(doc).get("ttft-curve");
        assertEquals(4, ttft.get("series").size(), "no marker series");
    }

    /** Before: "No load met the SLOs" (as a success headline) although steps 2 and 3 met them above a cold step 1. */
    @Test
    void higherStepsThatMetTheSlosAboveAMissedLowerStepAreNamed() throws Exception {
        ObjectNode sweep = (ObjectNode) sweep(false);
        ((ObjectNode) sweep.get("points").get(0)).put("meets_slos", false);
        Document doc = Jsoup.parse(SweepPage.render(sweep));
        assertEquals("No load met the SLOs with every lower load meeting them too: concurrency 1 (step 1) missed them;"
                + " 2, 4 met them (ttft_p95_ms<=300).", doc.selectFirst("p.warning").text());
    }

    /** Issue 30: a sweep with --rate auto names the probes' rates and the rates it chose. */
    @Test
    void anAutoSweepShowsTheRatesItChose() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode sw = (com.fasterxml.jackson.databind.node.ObjectNode) sweep(true);
        com.fasterxml.jackson.databind.node.ObjectNode auto = sw.putObject("auto");
        auto.put("synchronous_run_id", "sw-sync").put("synchronous_rps", 1.92).put("throughput_run_id", "sw-max")
                .put("throughput_slots", 40).put("throughput_rps", 30.5);
        auto.putArray("rates").add(11.45).add(20.97).add(30.5);
        String text = Jsoup.parse(SweepPage.render(sw)).text();
        assertThat(text).contains("Rates chosen by --rate auto (as GuideLLM's sweep): the synchronous step (1 request"
                + " at a time, run sw-sync) completed 1.92 req/s, the throughput step (40 requests at once, run sw-max)"
                + " 30.50 req/s; the steps ran at 11.45, 20.97, 30.50 req/s");
        assertThat(Jsoup.parse(SweepPage.render(sweep(true))).text()).as("not for a grid")
                .doesNotContain("--rate auto");
    }
}
