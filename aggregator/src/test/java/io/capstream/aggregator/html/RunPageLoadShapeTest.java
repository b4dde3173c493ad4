package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** Issue 30 on the run page: the offered and achieved arrival rate chart, the stages table, the steady state. */
class RunPageLoadShapeTest {

    private static List<Double> values(JsonNode a) {
        List<Double> out = new ArrayList<>();
        a.forEach(v -> out.add(v.isNumber() ? v.asDouble() : Double.NaN));
        return out;
    }

    /**
     * {@link RunArtifacts}' 40 requests start 8 per second, the last at 4.53 s; as an open loop under the schedule
     * 0s:4,4s:12 the chart has 1 s buckets to the last start: offered = the schedule's mean over each bucket
     * (5, 7, 9, 11, then 12), achieved = starts per bucket (8 each, the last 8 over 0.53 s).
     */
    @Test
    void anOpenLoopWithAScheduleDrawsOfferedAgainstAchievedRate() throws Exception {
        ObjectNode artifact = (ObjectNode) RunArtifacts.artifact(40, true);
        ObjectNode c = (ObjectNode) artifact.get("capstream");
        ObjectNode load = (ObjectNode) c.get("load");
        load.put("arrival", "poisson").put("offered_rate_rps", 4.0).put("interarrival_cv", 1.93)
                .put("configured_interarrival_cv", 2.0);
        load.putArray("stages").addObject().put("start_s", 0.0).put("end_s", 4.0).put("offered_rate_rps", 8.0)
                .put("achieved_rate_rps", 8.0).put("requests", 32);
        c.with("run").put("rate_schedule", "0s:4,4s:12");
        String html = RunPage.render(artifact);
        Files.createDirectories(RunPageTest.SAMPLES);
        Files.writeString(RunPageTest.SAMPLES.resolve("run-rate-schedule.html"), html, StandardCharsets.UTF_8);
        Document doc = Jsoup.parse(html);
        Map<String, JsonNode> charts = RunPageTest.charts(doc);
        JsonNode chart = charts.get("arrival-rate");
        assertThat(chart).as("charts: %s", charts.keySet()).isNotNull();
        assertThat(values(chart.get("x"))).as("bucket edges to the last start")
                .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 4.53);
        assertThat(chart.get("series").get(0).get("label").asText()).isEqualTo("offered req/s");
        List<Double> offered = values(chart.get("series").get(0).get("y"));
        assertThat(offered.get(0)).as("offered in [0, 1): mean of 4..6").isCloseTo(5.0, within(1e-9));
        assertThat(offered.get(3)).as("offered in [3, 4)").isCloseTo(11.0, within(1e-9));
        assertThat(offered.get(4)).as("offered after the last point").isCloseTo(12.0, within(1e-9));
        List<Double> achieved = values(chart.get("series").get(1).get("y"));
        assertThat(achieved.subList(0, 4)).as("8 starts per second").containsOnly(8.0);
        assertThat(achieved.get(4)).as("8 starts over the last 0.53 s").isCloseTo(8 / 0.53, within(1e-9));
        assertThat(doc.select("div.chart[data-chart=arrival-rate]")).as("its container").hasSize(1);
        String text = doc.text();
        assertThat(text).contains("Rate schedule stages: offered against achieved")
                .contains("inter-arrival CV (achieved, stddev / mean of the start gaps) 1.93")
                .contains("inter-arrival CV (configured) 2");
        assertThat(text).as("the stages are a table, not a joined cell").doesNotContain("start_s=");
    }

    @Test
    void aClosedLoopHasNoRateChartButItsSteadyStateRows() throws Exception {
        ObjectNode artifact = (ObjectNode) RunArtifacts.artifact(40, true);
        JsonNode load = artifact.path("capstream").path("load");
        assertThat(load.path("steady_state").isObject()).as("4 slots: computed from the events: %s", load).isTrue();
        Document doc = Jsoup.parse(RunPage.render(artifact));
        assertThat(RunPageTest.charts(doc)).as("a closed loop offers slots, not a rate").doesNotContainKey("arrival-rate");
        assertThat(doc.text()).contains("steady state: request throughput")
                .contains("steady state: rule all-slots-busy-to-last-start");
    }
}
