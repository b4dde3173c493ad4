package io.capstream.loadgen.continuous;

/**
 * Totals of a continuous session.
 *
 * @param runs              runs that ended with a RunFinished (including the interrupted last one)
 * @param runErrors         runs that could not be carried out (errors other than usage errors)
 * @param completed         completed requests over all runs
 * @param failed            failed requests over all runs
 * @param eventsUndelivered events the sink could not deliver
 * @param heartbeats        heartbeat records handed to the producer
 */
public record ContinuousSummary(int runs, int runErrors, long completed, long failed, long eventsUndelivered,
                                long heartbeats) {
    /** @return 0 when every event was delivered, else 1 (failed requests are expected in monitoring) */
    public int exitCode() {
        return eventsUndelivered == 0 ? 0 : 1;
    }
}
