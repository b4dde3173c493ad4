package io.capstream.loadgen.run;

/**
 * A progress snapshot for a progress bar.
 *
 * @param done       requests ended (completed + failed + cancelled)
 * @param total      planned requests (upper bound for a time-bounded closed loop)
 * @param failed     requests failed so far
 * @param inFlight   requests started and not yet ended
 * @param ttftP50Ms  running median TTFT of completed requests, ms (about 1% relative error); null before the first
 * @param elapsedNs  time since the run's T0, ns
 * @param cancelled  requests the client cancelled so far (issue 30, {@code --cancel-rate}); not in {@code failed}
 */
public record RunProgress(int done, int total, int failed, int inFlight, Double ttftP50Ms, long elapsedNs,
                          int cancelled) {
    /** A snapshot of a run without cancellations. */
    public RunProgress(int done, int total, int failed, int inFlight, Double ttftP50Ms, long elapsedNs) {
        this(done, total, failed, inFlight, ttftP50Ms, elapsedNs, 0);
    }
}
