package io.capstream.loadgen.stop;

import java.util.ArrayList;
import java.util.List;

/**
 * The stop-rule group of a run's configuration ({@code RunConfig}, issue 30): rules checked live while the run
 * sends, which stop it early (no new request starts; those in flight end) and are recorded in its RunFinished
 * ({@code stopped}).
 *
 * @param maxErrorRate         {@code --max-error-rate R}: stop when more than this share (0..1) of the last
 *                             {@code maxErrorWindow} ended requests failed; null = off
 * @param maxErrorWindow       the window of {@code --max-error-rate R/WINDOW}, ended requests; null = the default
 *                             {@value #DEFAULT_ERROR_WINDOW} when a rate is set
 * @param maxConsecutiveErrors {@code --max-consecutive-errors N}: stop after N failures in a row; null = off
 * @param stopOnSaturation     {@code --stop-on-saturation}: stop when the saturation detector trips
 */
public record StopRules(Double maxErrorRate, Integer maxErrorWindow, Integer maxConsecutiveErrors,
                        boolean stopOnSaturation) {

    /** Default window of {@code --max-error-rate} when none is given, ended requests. */
    public static final int DEFAULT_ERROR_WINDOW = 50;

    /** No stop rule. */
    public static final StopRules NONE = new StopRules(null, null, null, false);

    /** @return whether some rule is on */
    public boolean any() {
        return maxErrorRate != null || maxConsecutiveErrors != null || stopOnSaturation;
    }

    /** @return the error-rate window: {@code maxErrorWindow}, or {@value #DEFAULT_ERROR_WINDOW} when null */
    public int effectiveErrorWindow() {
        return maxErrorWindow == null ? DEFAULT_ERROR_WINDOW : maxErrorWindow;
    }

    /** @return one usage error per problem; empty when valid; never null */
    public List<String> problems() {
        List<String> errors = new ArrayList<>();
        if (maxErrorRate != null && (!Double.isFinite(maxErrorRate) || maxErrorRate < 0 || maxErrorRate >= 1)) {
            errors.add("--max-error-rate must be a share between 0 and 1 (exclusive), got " + maxErrorRate);
        }
        if (maxErrorWindow != null && maxErrorWindow < 1) {
            errors.add("--max-error-rate's window must be at least 1 request, got " + maxErrorWindow);
        }
        if (maxConsecutiveErrors != null && maxConsecutiveErrors < 1) {
            errors.add("--max-consecutive-errors must be at least 1, got " + maxConsecutiveErrors);
        }
        return errors;
    }
}
