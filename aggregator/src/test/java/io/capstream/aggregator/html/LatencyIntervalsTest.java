package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 32: the run page's latency table shows each percentile's 95% interval, or why it has none. */
class LatencyIntervalsTest {
    @Test
    void percentilesCarryTheirIntervalsOrTheMarkerOfTooFewValues() throws Exception {
        String dist = "{'count':200,'mean':849.8,'p50':827.601176,'p50_ci':[795.150398,832.861994],'p90':1032.0,"
                + "'p90_ci':[980.8,1356.7],'p95':1464.275177,'p95_ci':[1046.306036,2163.983032],'p99':2264.9,"
                + "'ci_unavailable':{'p99':'200 values are too few for a 95% interval of p99 (needs at least 368)'},"
                + "'max':2472.7}";
        List<List<String>> rows = RunTables.latency(ArtifactJson.parse(("{'capstream':{'statistics':{'ttft_ms':"
                + dist + "}}}").replace('\'', '"')));
        assertThat(rows).as("rows").containsExactly(List.of("TTFT", "200", "849.8", "827.6 [795.2 – 832.9]",
                "1,032 [980.8 – 1,356.7]", "1,464.3 [1,046.3 – 2,164.0]", "2,264.9 [n<368]", "2,472.7"));
    }

    @Test
    void thePageExplainsTheBracketsOnlyWhenThereAreIntervals() throws Exception {
        String with = ("{'capstream':{'statistics':{'ttft_ms':{'count':40,'p50':10.5,'p50_ci':[9.0,12.0],'p95':20.0,"
                + "'ci_unavailable':{'p95':'40 values are too few for a 95% interval of p95 (needs at least 72)'}}}}}")
                .replace('\'', '"');
        String without = "{'capstream':{'statistics':{'ttft_ms':{'count':40,'p50':10.5,'p95':20.0}}}}"
                .replace('\'', '"');
        assertThat(RunPage.render(ArtifactJson.parse(with))).as("page with intervals")
                .contains("<td>20 [n&lt;72]</td>", "In brackets: the 95% confidence interval of each percentile");
        assertThat(RunPage.render(ArtifactJson.parse(without))).as("page of a report from before intervals")
                .doesNotContain("In brackets");
    }
}
