package io.capstream.aggregator.slo;

import java.util.List;

/**
 * The burn rates of one {@link BurnRateRule} over a series of closed windows. A window counts towards a span when it
 * starts within the span's length before {@code endMs} (the end of the latest window). A span without requests burns
 * nothing (rate 0). Stateless.
 */
public final class BurnRates {
    private BurnRates() {
    }

    /**
     * Requests and bad requests (failed, or missed a per-request SLO) of one closed window.
     *
     * @param windowStartMs window start, epoch ms
     * @param requests      requests that ended in the window, &ge; 0
     * @param bad           bad ones among them, 0..requests
     */
    public record WindowCount(long windowStartMs, long requests, long bad) {
    }

    /**
     * The burn rates of a rule.
     *
     * @param longRate      burn rate over the long window (bad share / budget)
     * @param shortRate     burn rate over the short window
     * @param longRequests  requests in the long window
     * @param firing        whether both rates are at least the rule's factor
     */
    public record Result(double longRate, double shortRate, long longRequests, boolean firing) {
    }

    /**
     * @param windows the series' windows (any order); not null
     * @param endMs   end of the latest window, epoch ms
     * @param rule    the rule; not null
     * @param budget  the error budget, {@code 1 - target}, in (0, 1)
     * @return the rates over the rule's long and short windows ending at {@code endMs}
     */
    public static Result evaluate(List<WindowCount> windows, long endMs, BurnRateRule rule, double budget) {
        long longFrom = endMs - rule.longWindow().toMillis();
        long shortFrom = endMs - rule.shortWindow().toMillis();
        long longReq = 0;
        long longBad = 0;
        long shortReq = 0;
        long shortBad = 0;
        for (WindowCount w : windows) {
            if (w.windowStartMs() >= longFrom && w.windowStartMs() < endMs) {
                longReq += w.requests();
                longBad += w.bad();
                if (w.windowStartMs() >= shortFrom) {
                    shortReq += w.requests();
                    shortBad += w.bad();
                }
            }
        }
        double longRate = rate(longReq, longBad, budget);
        double shortRate = rate(shortReq, shortBad, budget);
        return new Result(longRate, shortRate, longReq, longRate >= rule.factor() && shortRate >= rule.factor());
    }

    private static double rate(long requests, long bad, double budget) {
        return requests == 0 ? 0 : (double) bad / requests / budget;
    }
}
