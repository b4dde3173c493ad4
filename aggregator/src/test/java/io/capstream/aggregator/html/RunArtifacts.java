package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;

/**
 * Report artifacts for page tests, computed by {@link ReportCalculator} from run events: {@code n}
 * requests on 4 slots, every 10th failing (TimeoutError or HTTPError), a model name with markup in it,
 * SLOs and a client self-check; plus the timeline and inter-chunk histogram keys written from the same
 * events.
 */
final class RunArtifacts {
    static final String MODEL = "evil</script><b>model & co";

    private RunArtifacts() {
    }

    /** Request i: starts at (i / 4) * 500 ms + (i % 4) * 10 ms, TTFT 100 + i ms, E2E 400 + 2 i ms, 20 + i tokens. */
    static JsonNode artifact(int n, boolean withNewKeys) throws Exception {
        List<Integer> plan = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            plan.add(1024);
        }
        RunStarted st = RunStarted.newBuilder().setBaseUrl("http://127.0.0.1:8000/v1").setModel(MODEL)
                .setEngine("vllm").setRequests(n).setConcurrency(4).setContextTokens(1024).setMaxTokens(128)
                .setPlannedContextTokens(plan).setStartedAt("2026-12-01T20:00:00Z")
                .setStartedAtEpochMs(1_796_155_200_000L).setSlos(new ArrayList<>(List.of("ttft_p95_ms<=200",
                        "e2e_p99_ms<=1000"))).build();
        List<RequestCompleted> ok = new ArrayList<>();
        List<RequestFailed> failed = new ArrayList<>();
        ArrayNode idx = ArtifactJson.nodes().arrayNode();
        ArrayNode start = ArtifactJson.nodes().arrayNode();
        ArrayNode queue = ArtifactJson.nodes().arrayNode();
        ArrayNode first = ArtifactJson.nodes().arrayNode();
        ArrayNode end = ArtifactJson.nodes().arrayNode();
        ArrayNode type = ArtifactJson.nodes().arrayNode();
        for (int i = 0; i < n; i++) {
            long startMs = (i / 4) * 500L + (i % 4) * 10L;
            idx.add(i);
            start.add((double) startMs);
            queue.add(0.0);
            if (i % 10 == 9) {
                String t = i % 20 == 9 ? "TimeoutError" : "HTTPError";
                failed.add(RequestFailed.newBuilder().setRequestIndex(i).setPlannedContextTokens(1024)
                        .setErrorType(t).setErrorMessage("boom <" + i + "> & </script>").setErrorMessageTruncated(false)
                        .setStartNs(startMs * 1_000_000L).setElapsedNs(300_000_000L).build());
                first.addNull();
                end.add(startMs + 300.0);
                type.add(t);
            } else {
                long ttft = 100 + i;
                long e2e = 400 + 2L * i;
                long tokens = 20 + i;
                List<Integer> gaps = new ArrayList<>();
                for (int g = 0; g < 5; g++) {
                    gaps.add(1000 * (g + 1));
                }
                ok.add(RequestCompleted.newBuilder().setRequestIndex(i).setPlannedContextTokens(1024)
                        .setStartNs(startMs * 1_000_000L).setTtftNs(ttft * 1_000_000L).setE2eNs(e2e * 1_000_000L)
                        .setPromptTokens(1000L).setCompletionTokens(tokens).setOutputTokenSource("usage")
                        .setContentChunks((int) tokens).setReasoningChunks(0).setOutputChunkGapsUs(gaps).build());
                first.add((double) (startMs + ttft));
                end.add((double) (startMs + e2e));
                type.addNull();
            }
        }
        long wallNs = ((n - 1) / 4 * 500L + 30 + 500) * 1_000_000L;
        ClientCheck check = ClientCheck.newBuilder().setDistorted(true)
                .setWarnings(new ArrayList<>(List.of("event-loop delay p99 7.5 ms > 5 ms"))).setDelayP99Ms(7.5)
                .setEventDelivery("live").build();
        RunFinished fin = RunFinished.newBuilder().setWallClockNs(wallNs).setStartedAt("2026-12-01T20:00:00Z")
                .setFinishedAt("2026-12-01T20:00:10Z").setStartedAtEpochMs(1_796_155_200_000L)
                .setFinishedAtEpochMs(1_796_155_210_000L).setRequestsSent(n).setClientCheck(check).build();
        String json = ReportCalculator.compute(new RunData("run-html-1", st, ok, failed, fin, null),
                ReportSlos::parse).getArtifactJson();
        ObjectNode root = (ObjectNode) ArtifactJson.parse(json);
        if (withNewKeys) {
            ObjectNode c = (ObjectNode) root.get("capstream");
            ObjectNode tl = c.putObject("timeline");
            tl.set("request_index", idx);
            tl.set("start_ms", start);
            tl.set("queue_ms", queue);
            tl.set("first_token_ms", first);
            tl.set("end_ms", end);
            tl.set("error_type", type);
            ObjectNode h = ((ObjectNode) c.get("statistics")).putObject("inter_chunk_histogram");
            h.putArray("lower_ms").add(1.0).add(1.2589254117941673).add(1.5848931924611136);
            h.putArray("upper_ms").add(1.2589254117941673).add(1.5848931924611136).add(1.9952623149688795);
            h.putArray("count").add(10).add(0).add(7);
        } else {
            // as a report from before capstream.timeline and the inter-chunk histogram existed
            ObjectNode c = (ObjectNode) root.get("capstream");
            c.remove("timeline");
            ((ObjectNode) c.get("statistics")).remove("inter_chunk_histogram");
        }
        return root;
    }
}
