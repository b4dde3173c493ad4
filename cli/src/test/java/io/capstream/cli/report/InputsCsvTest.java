package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --csv} of an embeddings or rerank run (issue 30): its completed requests have no timing row. */
class InputsCsvTest {
    @Test
    void everyCompletedRequestOfTheTimelineHasARow() throws Exception {
        JsonNode a = ArtifactJson.parse(("{'run_id':'r','request_timings':[],"
                + "'failures':[{'request_index':1,'error_type':'HTTPError','error_message':'boom'}],"
                + "'capstream':{'statistics':{'request_latency_ms':{'count':2,'p50':10.0}},"
                + "'timeline':{'request_index':[0,1,2],'start_ms':[0.0,1.0,2.0],'queue_ms':[0.0,0.5,0.25],"
                + "'first_token_ms':[null,null,null],'end_ms':[10.0,4.0,14.5],'error_type':[null,'HTTPError',null]}}}")
                .replace('\'', '"'));
        CsvMapper mapper = new CsvMapper();
        List<Map<String, String>> rows;
        try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class)
                .with(mapper.schemaWithHeader()).readValues(RequestCsv.render(a))) {
            rows = it.readAll();
        }
        assertThat(rows).as("rows").extracting(r -> r.get("request_index") + " " + r.get("status") + " "
                + r.get("start_ms") + "-" + r.get("end_ms") + " first token '" + r.get("first_token_ms") + "'")
                .containsExactly("0 ok 0.0-10.0 first token ''", "1 failed 1.0-4.0 first token ''",
                        "2 ok 2.0-14.5 first token ''");
    }
}
