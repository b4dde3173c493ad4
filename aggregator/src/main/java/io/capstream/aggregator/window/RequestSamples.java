package io.capstream.aggregator.window;

import io.capstream.aggregator.report.calc.InputsStatistics;
import io.capstream.aggregator.report.calc.RowCalculator;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import java.util.Optional;

/**
 * A completed request's {@link RequestSample}, from its spec §7 row as computed by the report's
 * row code ({@link RowCalculator#timing}); the formulas live only there. Output tokens are
 * {@link RowCalculator#outTokens} (spec §4.3 out_toks: usage completion tokens, else content chunks). An embeddings
 * or rerank request (issue 30) has no row: its sample has its request latency as E2E, its usage's input tokens, no
 * output and no TTFT or TTFO ({@code NaN}, which no sketch takes).
 */
public final class RequestSamples {
    private RequestSamples() {
    }

    /**
     * @param completed the event; not null
     * @return its values, or empty when the request fails the §7 validity filter (no row) and is not an embeddings
     *         or rerank request
     */
    public static Optional<RequestSample> from(RequestCompleted completed) {
        RequestTiming row = RowCalculator.timing(completed);
        if (row == null && InputsStatistics.nonStreamed(completed)) {
            // embeddings, rerank (issue 30): no first token (TTFT and TTFO not a number: in no sketch), no row; the
            // request latency is its E2E
            Long prompt = completed.getPromptTokens() != null && completed.getPromptTokens() >= 0
                    ? completed.getPromptTokens() : null;
            return Optional.of(new RequestSample(Double.NaN, Double.NaN, completed.getE2eNs() / 1e6, null, null, null,
                    prompt, 0, false, null));
        }
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(new RequestSample(row.getTtftMs(), row.getTimeToFirstOutputMs(), row.getE2eMs(),
                row.getMeanInterTokenLatencyMs(), row.getDecodeTokS(), row.getEffectivePrefillTokS(),
                row.getPromptTokens(), RowCalculator.outTokens(completed), true, completed.getOutputChunkGapsUs()));
    }
}
