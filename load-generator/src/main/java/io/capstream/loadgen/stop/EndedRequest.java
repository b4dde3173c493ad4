package io.capstream.loadgen.stop;

/**
 * One ended request as the stop rules see it (issue 30). Times are ns after the run's T0 on its monotonic clock.
 *
 * @param scheduledNs when it was due (open loop: its arrival; closed loop: when its slot was free), ns after T0
 * @param startNs     when it was sent (its t0), ns after T0; at least {@code scheduledNs} in a run
 * @param endNs       when it ended, ns after T0
 * @param failed      whether it failed (a request that failed before it was sent counts); false for a cancelled one
 * @param cancelled   whether the client cancelled it on purpose ({@code RequestResult.cancelled()}): neither a
 *                    failure nor a success, ignored by every rule
 * @param ttftNs      time to first token after {@code startNs}, ns; -1 when there was none (failed, cancelled early)
 * @param errorType   the failure's error type (e.g. {@code InternalServerError}); null when it did not fail
 */
public record EndedRequest(long scheduledNs, long startNs, long endNs, boolean failed, boolean cancelled,
                           long ttftNs, String errorType) {

    /** @return the client's queue time, ns: how long after it was due it was sent (0 when on time) */
    public long queueNs() {
        return Math.max(0, startNs - scheduledNs);
    }
}
