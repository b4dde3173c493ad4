package io.capstream.aggregator.window;

/**
 * A condition a single completed request can meet, judged by the window topology when it counts
 * goodput (the share of requests meeting every per-request criterion). The SLOs
 * ({@code io.capstream.aggregator.slo.Slo}) implement it, so the windows depend on this contract
 * and not on the SLO package.
 */
public interface RequestCriterion {
    /** @return true when the criterion applies to each request (e.g. a percentile SLO), false for window-only ones */
    boolean perRequest();

    /**
     * @param sample the request's row values; not null
     * @return true when the request meets the criterion, or when the criterion is not per request
     */
    boolean metBy(RequestSample sample);
}
