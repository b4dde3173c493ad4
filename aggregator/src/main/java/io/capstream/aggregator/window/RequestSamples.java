package io.capstream.aggregator.window;

import io.capstream.aggregator.report.calc.RowCalculator;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import java.util.Optional;

/**
 * A completed request's {@link RequestSample}, from its spec §7 row as computed by the report's
 * row code ({@link RowCalculator#timing}); the formulas live only there. Output tokens are
 * {@link RowCalculator#outTokens} (spec §4.3 out_toks: usage completion tokens, else content chunks).
 */
public final class RequestSamples {
    private RequestSamples() {
    }

    /**
     * @param completed the event; not null
     * @return its values, or empty when the request fails the §7 validity filter (no row)
     */
    public static Optional<RequestSample> from(RequestCompleted completed) {
        RequestTiming row = RowCalculator.timing(completed);
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(new RequestSample(row.getTtftMs(), row.getTimeToFirstOutputMs(), row.getE2eMs(),
                row.getMeanInterTokenLatencyMs(), row.getDecodeTokS(), row.getEffectivePrefillTokS(),
                row.getPromptTokens(), RowCalculator.outTokens(completed)));
    }
}
