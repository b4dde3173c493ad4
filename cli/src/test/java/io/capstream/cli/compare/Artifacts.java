package io.capstream.cli.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.UncheckedIOException;

/** Small report artifacts for the comparison tests, written as JSON text. */
final class Artifacts {
    private Artifacts() {
    }

    /** @return the tree of the JSON text (single quotes allowed for readability: they become double quotes) */
    static JsonNode json(String text) {
        try {
            return ArtifactJson.parse(text.replace('\'', '"'));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A capstream report with statistics: TTFT p50/p90/p95/p99 = ttft, ttft+10, ttft+20, ttft+30 ms.
     */
    static JsonNode report(String runId, double ttft, int concurrency, Double goodput) {
        return json("{'schema':'anvil-serving.benchmark/v1','run_id':'" + runId + "','base_url':'http://127.0.0.1:1/v1',"
                + "'model':'m','engine':'capstream-sim','requests':10,'completed':9,'failed':1,'concurrency':"
                + concurrency + ",'context_tokens':256,'max_tokens':32,"
                + "'metrics':{'ttft_p50_ms':" + (ttft + 1) + ",'ttft_p95_ms':" + (ttft + 21) + ",'throughput_tok_s':100.0},"
                + "'request_timings':[{'request_index':0,'ttft_ms':" + ttft + ",'e2e_ms':" + (ttft * 2) + "},"
                + "{'request_index':1,'ttft_ms':" + (ttft + 30) + ",'e2e_ms':" + (ttft * 3) + "}],"
                + "'capstream':{'run':{'arrival':'closed','rate_rps':null},"
                + "'statistics':{'ttft_ms':{'count':9,'p50':" + ttft + ",'p90':" + (ttft + 10) + ",'p95':" + (ttft + 20)
                + ",'p99':" + (ttft + 30) + "},'request_throughput_rps':2.0,'total_token_throughput_tok_s':500.0}"
                + (goodput == null ? "" : ",'slo':{'goodput':" + goodput + ",'goodput_rps':1.5}") + "}}");
    }
}
