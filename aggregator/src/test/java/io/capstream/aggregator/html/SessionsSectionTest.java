package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** The run page's conversations section ({@code capstream.sessions}): its tables and by-turn charts, only with conversations. */
class SessionsSectionTest {
    private static final String SESSIONS = "{'conversations':3,'turns_mean':2.6666666666666665,'turns_max':3,"
            + "'tool_calls':2,'ended_early':1,'end_reasons':[{'conversation_id':'r-c2','request_index':7,'turn':2,"
            + "'unsent_turns':1,'reason':'the answer failed (HTTPError)'}],'conversation_latency_p50_ms':760.0,"
            + "'conversation_latency_p95_ms':980.0,'by_turn':["
            + "{'turn':1,'requests':3,'ttft_p50_ms':120.0,'ttft_p95_ms':140.0,'prompt_tokens_p50':110.0,'cached_prompt_tokens_p50':null},"
            + "{'turn':2,'requests':3,'ttft_p50_ms':50.0,'ttft_p95_ms':70.0,'prompt_tokens_p50':220.0,'cached_prompt_tokens_p50':100.0},"
            + "{'turn':3,'requests':2,'ttft_p50_ms':60.0,'ttft_p95_ms':80.0,'prompt_tokens_p50':350.0,'cached_prompt_tokens_p50':220.0}],"
            + "'per_request':null}";

    @Test
    void conversationsTableAndByTurnCharts() throws Exception {
        JsonNode artifact = RunArtifacts.artifact(8, true);
        ((ObjectNode) artifact.path("capstream")).set("sessions", ArtifactJson.parse(SESSIONS.replace('\'', '"')));
        Document doc = Jsoup.parse(RunPage.render(artifact));

        assertThat(doc.select("h2").eachText()).as("section headings").contains("Conversations");
        assertThat(doc.text()).as("page text").contains("conversations 3", "tool calls 2", "ended early 1",
                "the answer failed (HTTPError)", "760 / 980");
        Map<String, JsonNode> charts = RunPageTest.charts(doc);
        JsonNode ttft = charts.get("turn-ttft");
        assertThat(ttft).as("TTFT by turn chart").isNotNull();
        assertThat(ttft.get("x").toString()).as("positions on x").isEqualTo("[0,1,2]");
        assertThat(ttft.get("categories").toString()).as("turn labels on x").isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(ttft.get("series").get(0).get("y").toString()).as("TTFT p50 by turn").isEqualTo("[120,50,60]");
        assertThat(ttft.get("series").get(1).get("y").toString()).as("TTFT p95 by turn").isEqualTo("[140,70,80]");
        JsonNode tokens = charts.get("turn-prompt-tokens");
        assertThat(tokens.get("series").get(0).get("y").toString()).as("prompt tokens p50 by turn")
                .isEqualTo("[110,220,350]");
        assertThat(tokens.get("series").get(1).get("y").toString()).as("cached prompt tokens p50 (turn 1: gap)")
                .isEqualTo("[null,100,220]");
    }

    @Test
    void aSingleTurnPageHasNoConversationsSection() throws Exception {
        Document doc = Jsoup.parse(RunPage.render(RunArtifacts.artifact(8, true)));

        assertThat(doc.select("h2").eachText()).as("section headings").doesNotContain("Conversations");
        assertThat(RunPageTest.charts(doc)).as("charts").doesNotContainKeys("turn-ttft", "turn-prompt-tokens");
    }
}
