package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.ServerView;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 33: the server's TTFT next to the client's, per request and as distributions. */
class ServerViewCalculatorTest {
    private static RequestCompleted viewed(int index, long ttftMs, Long ttfoMs, Double serverMs) {
        return Fixtures.ok(index, ttftMs, ttftMs + 50, 10, 5)
                .setTtfoNs(ttfoMs == null ? null : ttfoMs * 1_000_000L)
                .setServerView(ServerView.newBuilder().setRequestId("run-" + index).setTraceId("t" + index)
                        .setResponseId("chatcmpl-" + index).setServerTtftMs(serverMs)
                        .setServerTtftSource(serverMs == null ? null : "timings.prompt_ms").setPromptMs(serverMs)
                        .setPredictedMs(serverMs == null ? null : 40.0 + index).setCacheN(serverMs == null ? null : index)
                        .build())
                .build();
    }

    private static RunStatistics.Builder stats(List<RequestCompleted> ok) {
        return ServerViewCalculator.addTo(RunStatistics.newBuilder(), ok);
    }

    @Test
    void theDifferenceIsPerRequestAndItsDistributionBuiltAsTheOthers() {
        // client first token: 110, 120 (TTFO 120 before a TTFT of 300), 140 ms; server 100, 100, 130: differences 10,
        // 20, 10; request 3 has no server TTFT (a row with nulls), request 4 no server view at all
        List<RequestCompleted> ok = List.of(viewed(2, 140, null, 130.0), viewed(0, 110, null, 100.0),
                viewed(1, 300, 120L, 100.0), viewed(3, 150, null, null), Fixtures.ok(4, 99, 150, 10, 5).build());
        RunStatistics.Builder s = stats(ok);
        assertThat(s.getServerTtftMs().getCount()).as("server_ttft_ms count").isEqualTo(3);
        assertThat(s.getServerTtftMs().getP50()).as("server_ttft_ms p50").isEqualTo(100.0);
        assertThat(s.getClientMinusServerTtftMs()).as("client_minus_server_ttft_ms")
                .isEqualTo(Distributions.of(new double[] {10, 20, 10}));
        var rows = s.getServerView();
        assertThat(rows.getRequestIndex()).as("rows in request order").containsExactly(0, 1, 2, 3);
        assertThat(rows.getRequestId()).as("request ids").containsExactly("run-0", "run-1", "run-2", "run-3");
        assertThat(rows.getResponseId()).as("response ids").containsExactly("chatcmpl-0", "chatcmpl-1", "chatcmpl-2",
                "chatcmpl-3");
        assertThat(rows.getClientFirstTokenMs()).as("client first token (TTFO when known)")
                .containsExactly(110.0, 120.0, 140.0, 150.0);
        assertThat(rows.getServerTtftMs()).as("server TTFT").containsExactly(100.0, 100.0, 130.0, null);
        assertThat(rows.getClientMinusServerTtftMs()).as("difference").containsExactly(10.0, 20.0, 10.0, null);
        // issue 33 (fresh-user pass): the per-request CSV shows the TTFT's source and llama.cpp's timings too
        assertThat(rows.getServerTtftSource()).as("server TTFT source").containsExactly("timings.prompt_ms",
                "timings.prompt_ms", "timings.prompt_ms", null);
        assertThat(rows.getPromptMs()).as("prompt_ms").containsExactly(100.0, 100.0, 130.0, null);
        assertThat(rows.getPredictedMs()).as("predicted_ms").containsExactly(40.0, 41.0, 42.0, null);
        assertThat(rows.getCacheN()).as("cache_n").containsExactly(0, 1, 2, null);
    }

    @Test
    void withoutServerViewsTheFieldsStayNull() {
        RunStatistics.Builder s = stats(List.of(Fixtures.ok(0, 100, 150, 10, 5).build()));
        assertThat(Arrays.asList(s.getServerTtftMs(), s.getClientMinusServerTtftMs(), s.getServerView()))
                .as("server_ttft_ms, client_minus_server_ttft_ms, server_view").containsOnlyNulls();
        RunStatistics.Builder idsOnly = stats(List.of(viewed(0, 100, null, null)));
        assertThat(idsOnly.getServerView().getRequestId()).as("ids without a server TTFT").containsExactly("run-0");
        assertThat(idsOnly.getServerTtftMs()).as("no server TTFT: no distribution").isNull();
    }
}
