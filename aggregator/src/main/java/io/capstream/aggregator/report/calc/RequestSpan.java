package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import java.util.ArrayList;
import java.util.List;

/**
 * One request's time in flight, read from its event, for the load views ({@link SteadyStateCalculator},
 * {@link LoadStagesCalculator}, {@link InterarrivalCv}).
 *
 * @param startNs          actual start, ns after T0 ({@code start_ns})
 * @param endNs            end, ns after T0: {@code start_ns + e2e_ns}; failures {@code start_ns + elapsed_ns}, or
 *                         {@code start_ns} when the elapsed time is unknown
 * @param completed        whether it completed (a RequestCompleted)
 * @param ttftMs           completed: TTFT ({@code ttft_ns / 1e6}), ms; null for failures
 * @param completionTokens completed: {@code completion_tokens}, null when the server gave no usage or for failures
 */
record RequestSpan(long startNs, long endNs, boolean completed, Double ttftMs, Long completionTokens) {

    /**
     * @param completed the successful requests; not null
     * @param failed    the failed requests; not null
     * @return one span per event, completed first, in the lists' order
     */
    static List<RequestSpan> of(List<RequestCompleted> completed, List<RequestFailed> failed) {
        List<RequestSpan> out = new ArrayList<>(completed.size() + failed.size());
        for (RequestCompleted c : completed) {
            out.add(new RequestSpan(c.getStartNs(), c.getStartNs() + c.getE2eNs(), true, c.getTtftNs() / 1e6,
                    c.getCompletionTokens()));
        }
        for (RequestFailed f : failed) {
            long elapsed = f.getElapsedNs() == null ? 0 : f.getElapsedNs();
            out.add(new RequestSpan(f.getStartNs(), f.getStartNs() + elapsed, false, null, null));
        }
        return out;
    }
}
