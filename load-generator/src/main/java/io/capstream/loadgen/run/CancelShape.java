package io.capstream.loadgen.run;

import java.util.ArrayList;
import java.util.List;

/**
 * The cancellation group of a {@link RunConfig} (issue 30, like AIPerf's {@code --request-cancellation-rate}):
 * which share of the requests the client abandons, and when. A cancelled request's stream is closed by the client
 * {@code afterS} (drawn per request: normal with {@code afterStddevS}, clamped at 0, seeded by the run seed) after
 * its T0; it is counted as cancelled, neither completed nor failed.
 *
 * @param rate         {@code --cancel-rate}: share of requests cancelled, 0..1; null = none
 * @param afterS       {@code --cancel-after}: mean time after T0 at which the stream is closed, seconds; required
 *                     with a rate
 * @param afterStddevS its standard deviation, seconds; null = a fixed time
 */
public record CancelShape(Double rate, Double afterS, Double afterStddevS) {

    /** No request is cancelled. */
    public static final CancelShape NONE = new CancelShape(null, null, null);

    /** @return whether some requests are cancelled ({@code rate} &gt; 0) */
    public boolean active() {
        return rate != null && rate > 0;
    }

    /**
     * @return one usage error per problem ({@code --cancel-rate} outside 0..1, a rate without {@code --cancel-after},
     *         a negative time); empty when valid; never null
     */
    public List<String> problems() {
        List<String> errors = new ArrayList<>();
        if (rate != null && (!Double.isFinite(rate) || rate < 0 || rate > 1)) {
            errors.add("--cancel-rate must be a share between 0 and 1, got " + rate);
        }
        if (rate != null && afterS == null) {
            errors.add("--cancel-rate needs --cancel-after DURATION[,STDDEV] (when the client closes the stream)");
        }
        if (afterS != null && rate == null) {
            errors.add("--cancel-after needs --cancel-rate P (the share of requests to cancel)");
        }
        if (afterS != null && (!Double.isFinite(afterS) || afterS < 0)) {
            errors.add("--cancel-after must be a duration >= 0, got " + afterS + " s");
        }
        if (afterStddevS != null && (!Double.isFinite(afterStddevS) || afterStddevS < 0)) {
            errors.add("--cancel-after's standard deviation must be >= 0, got " + afterStddevS + " s");
        }
        return errors;
    }
}
