package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import org.junit.jupiter.api.Test;

/** Issue 32: the run page's percentile chart carries each percentile's 95% interval as an error bar. */
class PercentileIntervalsTest {
    private static JsonNode stats(String json) throws Exception {
        return ArtifactJson.parse(json.replace('\'', '"'));
    }

    @Test
    void eachPercentileWithAnIntervalGetsAnErrorBarAndOneWithoutGetsNone() throws Exception {
        JsonNode s = stats("{'ttft_ms':{'count':200,'p50':100.0,'p50_ci':[95.0,104.5],'p95':180.0,"
                + "'p95_ci':[160.0,210.0],'p99':250.0,'ci_unavailable':{'p99':'too few (needs at least 368)'}},"
                + "'e2e_ms':{'count':200,'p50':900.0,'p50_ci':[880.0,915.0],'p95':1100.0,'p99':1300.0},"
                + "'ttfo_ms':{'count':200,'p50':100.0}}");
        Chart c = PercentileIntervals.chart("percentile-intervals", s);
        assertThat(c.series()).as("series").extracting(Chart.Series::label).containsExactly("TTFT", "E2E");
        ObjectNode json = ChartJson.of(c, ChartOptions.NONE.withCategories(PercentileIntervals.PERCENTILES));
        assertThat(json.path("series").get(0).path("errors").toString()).as("TTFT error bars")
                .isEqualTo("[[95,104.5],[160,210],null]");
        assertThat(json.path("series").get(1).path("errors").toString()).as("E2E error bars")
                .isEqualTo("[[880,915],null,null]");
        assertThat(json.path("series").get(0).path("y").toString()).as("TTFT values").isEqualTo("[100,180,250]");
        assertThat(json.path("categories").toString()).isEqualTo("[\"p50\",\"p95\",\"p99\"]");
    }

    @Test
    void aReportWithoutPercentilesHasNoChartAndOtherChartsNoErrors() throws Exception {
        assertThat(PercentileIntervals.chart("p", stats("{}"))).as("no statistics").isNull();
        assertThat(PercentileIntervals.chart("p", stats("{'ttft_ms':{'count':9,'p50':1.0,'p95':2.0}}")))
                .as("a report from before intervals").isNull();
        Chart plain = new Chart("x", "t", "x", "y", Chart.Kind.LINE, new double[] {1},
                java.util.List.of(new Chart.Series("s", new double[] {2})));
        assertThat(ChartJson.of(plain, ChartOptions.NONE).path("series").get(0).has("errors"))
                .as("a series without error bars has no errors key").isFalse();
    }

    @Test
    void theRunPageHasThePercentileChart() throws Exception {
        String page = RunPage.render(ArtifactJson.parse(("{'capstream':{'statistics':{'ttft_ms':{'count':40,"
                + "'p50':10.5,'p50_ci':[9.0,12.0],'p95':20.0}}}}").replace('\'', '"')));
        assertThat(page).as("run page").contains("data-chart=\"percentile-intervals\"",
                "\"errors\":[[9,12],null,null]", "p95 needs 72, p99 368");
    }
}
