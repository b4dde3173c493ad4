package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The run page's latency table of an embeddings or rerank run (issue 30). */
class InputsLatencyTableTest {
    @Test
    void anEmbeddingsRunShowsItsRequestLatencyAndAChatRunDoesNot() throws Exception {
        String dist = "{'count':40,'mean':120.0,'p50':115.4,'p90':150.0,'p95':157.2,'p99':171.7,'max':180.0}";
        List<List<String>> rows = RunTables.latency(ArtifactJson.parse(("{'capstream':{'statistics':{"
                + "'request_latency_ms':" + dist + "}}}").replace('\'', '"')));
        assertThat(rows).as("rows").containsExactly(List.of("request latency (embeddings, rerank)", "40", "120",
                "115.4", "150", "157.2", "171.7", "180"));
        assertThat(RunTables.latency(ArtifactJson.parse(("{'capstream':{'statistics':{'e2e_ms':" + dist + "}}}")
                .replace('\'', '"')))).as("a chat run's rows").extracting(r -> r.get(0)).containsExactly("E2E");
    }
}
