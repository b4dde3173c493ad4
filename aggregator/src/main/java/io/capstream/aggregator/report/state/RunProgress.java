package io.capstream.aggregator.report.state;

/**
 * Small per-run bookkeeping (one value per run, rewritten on every event, about 60 bytes): what has
 * arrived, so that completeness is decided without reading the run's events.
 *
 * @param startedEventId    event id of the RunStarted received, or null before it arrives
 * @param requests          planned requests n from RunStarted; -1 before RunStarted
 * @param expectedWorkers   RunFinished events that complete the run (from RunStarted; 1 before it)
 * @param timeBounded       whether RunStarted has a duration (the run may end before n requests)
 * @param received          distinct request indices received
 * @param finishedWorkers   distinct workers whose RunFinished arrived
 * @param sentTotal         sum of {@code requests_sent} over the RunFinished events received
 * @param interrupted       whether any RunFinished says the run was interrupted
 * @param duplicates        duplicate events ignored (same request index, second RunStarted, same worker's RunFinished)
 * @param lastEventMs       wall-clock time of the last event of the run, epoch ms
 * @param publishedAtMs     when the report was published, epoch ms; 0 while the run is open
 */
public record RunProgress(String startedEventId, int requests, int expectedWorkers, boolean timeBounded, int received,
                          int finishedWorkers, long sentTotal, boolean interrupted, int duplicates, long lastEventMs,
                          long publishedAtMs) {
    /** @return the progress of a run of which nothing has arrived yet */
    public static RunProgress empty() {
        return new RunProgress(null, -1, 1, false, 0, 0, 0, false, 0, 0, 0);
    }

    /** @return whether RunStarted has arrived */
    public boolean started() {
        return startedEventId != null;
    }

    /** @return whether the report has been published */
    public boolean published() {
        return publishedAtMs > 0;
    }

    /** @return whether every expected RunFinished has arrived */
    public boolean allFinished() {
        return finishedWorkers >= expectedWorkers;
    }

    /**
     * Whether the report can be published now: RunStarted and every RunFinished are in, and either
     * every planned request index arrived, or the run ended early (interrupted or time-bounded) and
     * every request event its workers sent has arrived.
     *
     * @return true when ready
     */
    public boolean ready() {
        if (!started() || !allFinished()) {
            return false;
        }
        return received >= requests || ((interrupted || timeBounded) && received >= sentTotal);
    }

    /**
     * @param eventId   RunStarted event id
     * @param n         planned requests
     * @param workers   expected workers (values below 1 count as 1)
     * @param bounded   whether the run is time-bounded
     * @return progress with RunStarted recorded
     */
    public RunProgress withStarted(String eventId, int n, int workers, boolean bounded) {
        return new RunProgress(eventId, n, Math.max(1, workers), bounded, received, finishedWorkers, sentTotal,
                interrupted, duplicates, lastEventMs, publishedAtMs);
    }

    /** @return progress with one more distinct request */
    public RunProgress withRequest() {
        return new RunProgress(startedEventId, requests, expectedWorkers, timeBounded, received + 1, finishedWorkers,
                sentTotal, interrupted, duplicates, lastEventMs, publishedAtMs);
    }

    /**
     * @param sent        requests_sent of the RunFinished
     * @param wasInterrupted interrupted flag of the RunFinished
     * @return progress with one more finished worker
     */
    public RunProgress withFinished(int sent, boolean wasInterrupted) {
        return new RunProgress(startedEventId, requests, expectedWorkers, timeBounded, received, finishedWorkers + 1,
                sentTotal + Math.max(0, sent), interrupted || wasInterrupted, duplicates, lastEventMs, publishedAtMs);
    }

    /** @return progress with one more duplicate */
    public RunProgress withDuplicate() {
        return new RunProgress(startedEventId, requests, expectedWorkers, timeBounded, received, finishedWorkers,
                sentTotal, interrupted, duplicates + 1, lastEventMs, publishedAtMs);
    }

    /**
     * @param nowMs wall clock, epoch ms
     * @return progress with the last-event time set
     */
    public RunProgress withLastEvent(long nowMs) {
        return new RunProgress(startedEventId, requests, expectedWorkers, timeBounded, received, finishedWorkers,
                sentTotal, interrupted, duplicates, nowMs, publishedAtMs);
    }

    /**
     * @param nowMs wall clock, epoch ms (&gt; 0)
     * @return progress marked as published
     */
    public RunProgress withPublished(long nowMs) {
        return new RunProgress(startedEventId, requests, expectedWorkers, timeBounded, received, finishedWorkers,
                sentTotal, interrupted, duplicates, lastEventMs, Math.max(1, nowMs));
    }
}
