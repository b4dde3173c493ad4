package io.capstream.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --csv}: one row per request, parsed back with the CSV mapper. */
class RequestCsvTest {
    private static final String MESSAGE = "HTTP 500: \"boom\", then\nthe connection closed";

    private static JsonNode json(String text) throws Exception {
        return ArtifactJson.parse(text.replace('\'', '"'));
    }

    /** Requests 0 and 2 succeeded, 1 failed with a message holding a quote, a comma and a line break. */
    private static JsonNode artifact(boolean timeline) throws Exception {
        JsonNode a = json("{'run_id':'r','request_timings':["
                + "{'e2e_ms':12.5,'request_index':2,'ttft_ms':3.25},"
                + "{'e2e_ms':10.0,'request_index':0,'ttft_ms':2.0}],"
                + "'failures':[{'request_index':1,'error_type':'HTTPError','error_message':'MSG'}],"
                + "'capstream':{" + (timeline ? "'timeline':{'request_index':[0,1,2],'start_ms':[0.0,1.0,2.0],"
                + "'queue_ms':[0.0,0.5,0.25],'first_token_ms':[2.0,null,5.25],'end_ms':[10.0,4.0,14.5],"
                + "'error_type':[null,'HTTPError',null]}" : "'timeline':null") + "}}");
        ((com.fasterxml.jackson.databind.node.ObjectNode) a.path("failures").get(0)).put("error_message", MESSAGE);
        return a;
    }

    private static List<Map<String, String>> parse(String csv) throws Exception {
        CsvMapper mapper = new CsvMapper();
        try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class)
                .with(mapper.schemaWithHeader()).readValues(csv)) {
            return it.readAll();
        }
    }

    private static List<String> header(String csv) throws Exception {
        CsvMapper mapper = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<List<String>> it = mapper.readerFor(List.class).readValues(csv)) {
            return it.next();
        }
    }

    @Test
    void oneRowPerRequestInRequestOrderWithTheFailureAndTheTimeline() throws Exception {
        String csv = RequestCsv.render(artifact(true));
        assertEquals(List.of("e2e_ms", "request_index", "ttft_ms", "status", "error_type", "error_message", "start_ms",
                "first_token_ms", "end_ms", "queue_ms"), header(csv), "the rows' keys in their order, then ours");
        List<Map<String, String>> rows = parse(csv);
        assertEquals(3, rows.size());
        assertEquals(List.of("0", "1", "2"), rows.stream().map(r -> r.get("request_index")).toList());
        Map<String, String> ok = rows.get(2);
        assertEquals("12.5", ok.get("e2e_ms"));
        assertEquals("3.25", ok.get("ttft_ms"));
        assertEquals("ok", ok.get("status"));
        assertEquals("", ok.get("error_type"));
        assertEquals("2.0", ok.get("start_ms"));
        assertEquals("5.25", ok.get("first_token_ms"));
        assertEquals("14.5", ok.get("end_ms"));
        assertEquals("0.25", ok.get("queue_ms"));
        Map<String, String> failed = rows.get(1);
        assertEquals("failed", failed.get("status"));
        assertEquals("HTTPError", failed.get("error_type"));
        assertEquals(MESSAGE, failed.get("error_message"), "quote, comma and line break survive the quoting");
        assertEquals("", failed.get("e2e_ms"));
        assertEquals("", failed.get("ttft_ms"));
        assertEquals("1.0", failed.get("start_ms"));
        assertEquals("", failed.get("first_token_ms"));
        assertEquals("4.0", failed.get("end_ms"));
    }

    @Test
    void conversationColumnsOnlyForARunWithConversations() throws Exception {
        JsonNode a = artifact(true);
        ((com.fasterxml.jackson.databind.node.ObjectNode) a.path("capstream")).set("sessions", json("{'conversations':2,"
                + "'per_request':{'conversation_ids':['r-c0','r-c1'],'request_index':[0,1,2],'conversation':[0,0,1],"
                + "'turn':[1,2,1],'tool_calls':[1,null,0]}}"));
        String csv = RequestCsv.render(a);
        org.assertj.core.api.Assertions.assertThat(header(csv)).as("header of a run with conversations")
                .containsExactly("e2e_ms", "request_index", "ttft_ms", "status", "error_type", "error_message",
                        "start_ms", "first_token_ms", "end_ms", "queue_ms", "conversation_id", "turn", "tool_calls");
        List<Map<String, String>> rows = parse(csv);
        org.assertj.core.api.Assertions.assertThat(rows).as("conversation, turn and tool calls of each request")
                .extracting(r -> r.get("request_index"), r -> r.get("conversation_id"), r -> r.get("turn"),
                        r -> r.get("tool_calls"))
                .containsExactly(org.assertj.core.api.Assertions.tuple("0", "r-c0", "1", "1"),
                        org.assertj.core.api.Assertions.tuple("1", "r-c0", "2", ""),
                        org.assertj.core.api.Assertions.tuple("2", "r-c1", "1", "0"));
        org.assertj.core.api.Assertions.assertThat(header(RequestCsv.render(artifact(true))))
                .as("header of a single-turn run").doesNotContain("conversation_id", "turn", "tool_calls");
    }

    @Test
    void httpPhaseColumnsWithK6NamesOnlyForARunWithPhases() throws Exception {
        JsonNode a = artifact(true);
        ((com.fasterxml.jackson.databind.node.ObjectNode) a.path("capstream")).set("statistics", json("{'http_phases':"
                + "{'requests':2,'reused_connections':1,'per_request':{'request_index':[0,2],"
                + "'connection_reused':[false,true],'http_req_blocked':[0.5,0.25],'http_req_dns':[0.0,0.0],"
                + "'http_req_connecting':[0.75,0.0],'http_req_tls_handshaking':[3.0,0.0],'http_req_sending':[0.125,0.25],"
                + "'http_req_waiting':[1.5,2.5],'first_chunk':[0.1,-1.0],'first_content':[0.0,-1.0]}}}"));
        String csv = RequestCsv.render(a);
        org.assertj.core.api.Assertions.assertThat(header(csv)).as("header of a run with phases")
                .endsWith("http_req_blocked", "http_req_dns", "http_req_connecting", "http_req_tls_handshaking",
                        "http_req_sending", "http_req_waiting", "first_chunk", "first_content", "connection_reused");
        org.assertj.core.api.Assertions.assertThat(parse(csv)).as("connecting, tls, waiting, first chunk, reuse")
                .extracting(r -> r.get("request_index"), r -> r.get("http_req_connecting"),
                        r -> r.get("http_req_tls_handshaking"), r -> r.get("http_req_waiting"), r -> r.get("first_chunk"),
                        r -> r.get("connection_reused"))
                .containsExactly(org.assertj.core.api.Assertions.tuple("0", "0.75", "3.0", "1.5", "0.1", "false"),
                        org.assertj.core.api.Assertions.tuple("1", "", "", "", "", ""),
                        org.assertj.core.api.Assertions.tuple("2", "0.0", "0.0", "2.5", "", "true"));
        org.assertj.core.api.Assertions.assertThat(header(RequestCsv.render(artifact(true))))
                .as("header of a report without phases").doesNotContain("http_req_waiting", "connection_reused");
    }

    /** Issue 33 (fresh-user pass): each request's server view (ids, server TTFT and its source, llama.cpp timings). */
    @Test
    void serverViewColumnsOnlyForARunWithTheServersView() throws Exception {
        JsonNode a = artifact(true);
        ((com.fasterxml.jackson.databind.node.ObjectNode) a.path("capstream")).set("statistics", json("{'server_view':"
                + "{'request_index':[0,2],'request_id':['r-0','r-2'],'trace_id':['t0','t2'],"
                + "'response_id':['chatcmpl-a','chatcmpl-b'],'client_first_token_ms':[2.0,3.25],"
                + "'server_ttft_ms':[1.5,null],'client_minus_server_ttft_ms':[0.5,null],"
                + "'server_ttft_source':['timings.prompt_ms',null],'prompt_ms':[1.5,null],'predicted_ms':[7.25,null],"
                + "'cache_n':[12,null]}}"));
        String csv = RequestCsv.render(a);
        org.assertj.core.api.Assertions.assertThat(header(csv)).as("header of a run with the server's view")
                .endsWith("request_id", "trace_id", "response_id", "server_ttft_ms", "server_ttft_source",
                        "client_minus_server_ttft_ms", "server_prompt_ms", "server_predicted_ms", "server_cache_n");
        org.assertj.core.api.Assertions.assertThat(parse(csv)).as("ids, server TTFT, source, llama.cpp timings")
                .extracting(r -> r.get("request_index"), r -> r.get("request_id"), r -> r.get("response_id"),
                        r -> r.get("server_ttft_ms"), r -> r.get("server_ttft_source"), r -> r.get("server_prompt_ms"),
                        r -> r.get("server_predicted_ms"), r -> r.get("server_cache_n"))
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple("0", "r-0", "chatcmpl-a", "1.5", "timings.prompt_ms",
                                "1.5", "7.25", "12"),
                        org.assertj.core.api.Assertions.tuple("1", "", "", "", "", "", "", ""),
                        org.assertj.core.api.Assertions.tuple("2", "r-2", "chatcmpl-b", "", "", "", "", ""));
        org.assertj.core.api.Assertions.assertThat(header(RequestCsv.render(artifact(true))))
                .as("header of a report without the server's view").doesNotContain("request_id", "server_ttft_ms");
    }

    @Test
    void withoutATimelineItsColumnsAreEmpty() throws Exception {
        List<Map<String, String>> rows = parse(RequestCsv.render(artifact(false)));
        assertEquals(3, rows.size());
        rows.forEach(r -> assertEquals("", r.get("start_ms"), r.toString()));
    }

    @Test
    void aReportWithoutRequestsHasTheHeaderOnly() throws Exception {
        String csv = RequestCsv.render(json("{'run_id':'r','request_timings':[],'failures':[]}"));
        assertEquals("request_index,status,error_type,error_message,start_ms,first_token_ms,end_ms,queue_ms\n", csv);
    }

    @Test
    void severalRunsGetTheirRunIdAndStep() throws Exception {
        JsonNode one = json("{'run_id':'s-s1','request_timings':[{'request_index':0,'ttft_ms':1.0}]}");
        JsonNode two = json("{'run_id':'s-s2','request_timings':[{'request_index':0,'ttft_ms':2.0,'e2e_ms':3.0},"
                + "{'request_index':1,'ttft_ms':4.0,'e2e_ms':5.0}]}");
        String csv = RequestCsv.render(List.of(new RequestCsv.Run("s-s1", 1, one), new RequestCsv.Run("s-s2", 2, two)));
        assertEquals(List.of("run_id", "step", "request_index", "ttft_ms", "e2e_ms", "status", "error_type",
                "error_message", "start_ms", "first_token_ms", "end_ms", "queue_ms"), header(csv));
        List<Map<String, String>> rows = parse(csv);
        assertEquals(List.of("s-s1", "s-s2", "s-s2"), rows.stream().map(r -> r.get("run_id")).toList());
        assertEquals(List.of("1", "2", "2"), rows.stream().map(r -> r.get("step")).toList());
        assertEquals("", rows.get(0).get("e2e_ms"), "a column of another run's rows is empty");
        assertEquals("4.0", rows.get(2).get("ttft_ms"));
    }

    /** Before: Jackson quoted every string over 24 characters ("mean_inter_token_latency_ms", long run ids). */
    @Test
    void longFieldsAreQuotedOnlyWhenTheyNeedIt() throws Exception {
        JsonNode r = json("{'run_id':'r','request_timings':[{'request_index':0,'mean_inter_token_latency_ms':1.5}],"
                + "'failures':[{'request_index':1,'error_type':'HTTPError','error_message':'a long message, with a comma'}]}");
        String csv = RequestCsv.render(List.of(new RequestCsv.Run("sweep-20261201T210000Z-s1", 1, r)));
        assertEquals("run_id,step,request_index,mean_inter_token_latency_ms,status,error_type,error_message,start_ms,"
                + "first_token_ms,end_ms,queue_ms", csv.lines().findFirst().orElseThrow());
        assertEquals("sweep-20261201T210000Z-s1,1,1,,failed,HTTPError,\"a long message, with a comma\",,,,",
                csv.lines().toList().get(2));
    }

    /** Issue 30: a request the client cancelled is a row of its own kind, with what the timeline has of it. */
    @Test
    void aCancelledRequestIsARowWithStatusCancelledAndItsTimeline() throws Exception {
        JsonNode a = json("{'run_id':'r','request_timings':[{'e2e_ms':10.0,'request_index':0,'ttft_ms':2.0}],"
                + "'failures':[],'capstream':{'cancelled':{'requests':1,'with_first_token':1,'content_chunks':3,"
                + "'cancel_after_p50_ms':100.0,'request_indices':[1]},'timeline':{'request_index':[0,1],"
                + "'start_ms':[0.0,1.0],'queue_ms':[0.0,0.5],'first_token_ms':[2.0,40.0],'end_ms':[10.0,101.0],"
                + "'error_type':[null,'Cancelled']}}}");
        List<Map<String, String>> rows = parse(RequestCsv.render(a));
        org.assertj.core.api.Assertions.assertThat(rows).as("rows").hasSize(2);
        Map<String, String> c = rows.get(1);
        org.assertj.core.api.Assertions.assertThat(c).as("the cancelled request's row")
                .containsEntry("request_index", "1").containsEntry("status", "cancelled")
                .containsEntry("error_type", "Cancelled").containsEntry("first_token_ms", "40.0")
                .containsEntry("end_ms", "101.0").containsEntry("ttft_ms", "");
    }
}
