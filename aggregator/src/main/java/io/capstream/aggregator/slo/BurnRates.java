package io.capstream.aggregator.slo;

import java.util.List;

/**
 * The burn rates of one {@link BurnRateRule} over a series of closed windows. A window counts towards a span when it
 * starts within the span's length before {@code endMs} (the end of the latest window). A span without requests burns
 * nothing (rate 0). A rule judges only once the series' windows cover at least its short window (from the earliest
 * window's start to {@code endMs}): a new series' first minute is no sign of a budget burning for 6 hours. Stateless.
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
     * @param judged        whether the windows cover the short window (else {@code firing} is false and the state
     *                      should hold)
     * @param firing        whether both rates are at least the rule's factor
     */
    public record Result(double longRate, double shortRate, long longRequests, boolean judged, boolean firing) {
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
        long earliest = Long.MAX_VALUE;
        for (WindowCount w : windows) {
            earliest = Math.min(earliest, w.windowStartMs());
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
        boolean judged = earliest != Long.MAX_VALUE && endMs - earliest >= rule.shortWindow().toMillis();
        return new Result(longRate, shortRate, longReq, judged,
                judged && longRate >= rule.factor() && shortRate >= rule.factor());
    }

    private static double rate(long requests, long bad, double budget) {
        return requests == 0 ? 0 : (double) bad / requests / budget;
    }
}
