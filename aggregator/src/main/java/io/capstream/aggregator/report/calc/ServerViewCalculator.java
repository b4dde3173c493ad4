package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.ServerView;
import io.capstream.schemas.avro.ServerViewRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The report's server-view statistics (issue 33), every field of them mapped here: {@code server_ttft_ms} (the
 * server's own TTFT, {@code RequestCompleted.server_view.server_ttft_ms}, e.g. llama.cpp's {@code timings.prompt_ms}),
 * {@code client_minus_server_ttft_ms} (per request, the client's time to its first token minus the server's: the
 * network, the client, HTTP handling, the wait for a slot and what else the engine's clock does not see) as
 * {@link Distributions}, and {@code server_view}, the per-request ids, TTFTs, the server TTFT's source and llama.cpp's
 * {@code prompt_ms}, {@code predicted_ms} and {@code cache_n} (columnar, in request_index order).
 * Over the successful requests whose events carry {@code server_view}. The client's first token is the first
 * generated token of any kind, as the server's is: {@code ttfo_ns} (first reasoning or content), else
 * {@code ttft_ns}; with reasoning, TTFT comes later by the reasoning's decode time, which is not the server's
 * prefill. Stateless.
 */
public final class ServerViewCalculator {
    private static final double MS = 1e6;

    private ServerViewCalculator() {
    }

    /**
     * Sets {@code server_ttft_ms}, {@code client_minus_server_ttft_ms} and {@code server_view}; leaves them null when
     * no request carries a server view (imports, older events, {@code --no-trace-headers} against a server that says
     * nothing of itself).
     *
     * @param stats     the statistics being built; not null
     * @param successes the successful requests, any order; not null
     * @return {@code stats}
     */
    public static RunStatistics.Builder addTo(RunStatistics.Builder stats, List<RequestCompleted> successes) {
        List<RequestCompleted> viewed = new ArrayList<>();
        for (RequestCompleted c : successes) {
            if (c.getServerView() != null) {
                viewed.add(c);
            }
        }
        if (viewed.isEmpty()) {
            return stats;
        }
        viewed.sort(Comparator.comparingInt(RequestCompleted::getRequestIndex));
        int n = viewed.size();
        List<Integer> index = new ArrayList<>(n);
        List<String> requestId = new ArrayList<>(n);
        List<String> traceId = new ArrayList<>(n);
        List<String> responseId = new ArrayList<>(n);
        List<Double> client = new ArrayList<>(n);
        List<Double> server = new ArrayList<>(n);
        List<Double> difference = new ArrayList<>(n);
        List<String> source = new ArrayList<>(n);
        List<Double> promptMs = new ArrayList<>(n);
        List<Double> predictedMs = new ArrayList<>(n);
        List<Integer> cacheN = new ArrayList<>(n);
        for (RequestCompleted c : viewed) {
            ServerView v = c.getServerView();
            long first = c.getTtfoNs() != null && c.getTtfoNs() >= 0 ? c.getTtfoNs() : c.getTtftNs();
            Double clientMs = first >= 0 ? first / MS : null;
            Double serverMs = v.getServerTtftMs();
            index.add(c.getRequestIndex());
            requestId.add(v.getRequestId());
            traceId.add(v.getTraceId());
            responseId.add(v.getResponseId());
            client.add(clientMs);
            server.add(serverMs);
            difference.add(clientMs != null && serverMs != null ? clientMs - serverMs : null);
            source.add(v.getServerTtftSource());
            promptMs.add(v.getPromptMs());
            predictedMs.add(v.getPredictedMs());
            cacheN.add(v.getCacheN());
        }
        stats.setServerView(ServerViewRows.newBuilder().setRequestIndex(index).setRequestId(requestId)
                .setTraceId(traceId).setResponseId(responseId).setClientFirstTokenMs(client).setServerTtftMs(server)
                .setClientMinusServerTtftMs(difference).setServerTtftSource(source).setPromptMs(promptMs)
                .setPredictedMs(predictedMs).setCacheN(cacheN).build());
        if (server.stream().anyMatch(s -> s != null)) {
            stats.setServerTtftMs(Distributions.of(server));
            stats.setClientMinusServerTtftMs(Distributions.of(difference));
        }
        return stats;
    }
}
