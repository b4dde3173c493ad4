package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.CancelledStats;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's {@code cancelled} section (issue 30, artifact key {@code capstream.cancelled}): the requests the client
 * cancelled on purpose ({@code --cancel-rate}; RequestFailed with {@code cancelled} true), which are neither
 * completed nor failed and are in no latency percentile. Stateless.
 */
public final class CancelledCalculator {
    private CancelledCalculator() {
    }

    /**
     * @param f a request's RequestFailed; not null
     * @return whether the client cancelled it on purpose
     */
    public static boolean isCancelled(RequestFailed f) {
        return f.getCancelled();
    }

    /**
     * @param cancelled the cancelled requests ({@link #isCancelled}), any order; not null
     * @return the section: how many, how many had their first content before the cancel, the content chunks that
     *     arrived, the nearest-rank p50 of the cancel times (ms after each request's t0: {@code cancel_after_ns},
     *     else the elapsed time) and the indices ascending; null when none was cancelled (the report is then
     *     unchanged)
     */
    public static CancelledStats compute(List<RequestFailed> cancelled) {
        if (cancelled.isEmpty()) {
            return null;
        }
        int withFirstToken = 0;
        long chunks = 0;
        List<Double> afterMs = new ArrayList<>(cancelled.size());
        List<Integer> indices = new ArrayList<>(cancelled.size());
        for (RequestFailed f : cancelled) {
            if (f.getTtftNs() != null) {
                withFirstToken++;
            }
            chunks += f.getContentChunks();
            Long at = f.getCancelAfterNs() != null ? f.getCancelAfterNs() : f.getElapsedNs();
            if (at != null) {
                afterMs.add(at / 1e6);
            }
            indices.add(f.getRequestIndex());
        }
        indices.sort(null);
        return CancelledStats.newBuilder().setRequests(cancelled.size()).setWithFirstToken(withFirstToken)
                .setContentChunks(chunks).setCancelAfterP50Ms(NearestRank.percentile(afterMs, 50))
                .setRequestIndices(indices).build();
    }
}
