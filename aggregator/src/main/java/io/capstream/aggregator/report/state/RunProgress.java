package io.capstream.aggregator.report.state;

import java.util.BitSet;

/**
 * Per-run bookkeeping, one value per open run: which request indices have arrived (a bit set, n/8
 * bytes) and which will not because their conversation ended early (another bit set), whether RunStarted and the RunFinished events are in, and counters. Completeness and
 * duplicates are decided from it without reading the run's events; the progress store keeps it as
 * an object and encodes it for RocksDB and the changelog once per commit, not once per event. Mutable, not
 * thread-safe (one stream task owns it).
 */
public final class RunProgress {
    String startedEventId;
    int requests = -1;
    int expectedWorkers = 1;
    boolean timeBounded;
    final BitSet seen;
    /** Planned indices never sent: their conversation ended early (issue 29); they count as arrived. */
    final BitSet unsent;
    int finishedWorkers;
    long sentTotal;
    boolean interrupted;
    int duplicates;
    long lastEventMs;
    long publishedAtMs;

    RunProgress(BitSet seen, BitSet unsent) {
        this.seen = seen;
        this.unsent = unsent;
    }

    /** @return the progress of a run of which nothing has arrived yet */
    public static RunProgress empty() {
        return new RunProgress(new BitSet(), new BitSet());
    }

    /** @return event id of the RunStarted received, or null before it arrives */
    public String startedEventId() {
        return startedEventId;
    }

    /** @return planned requests n from RunStarted; -1 before RunStarted */
    public int requests() {
        return requests;
    }

    /** @return RunFinished events that complete the run (1 before RunStarted) */
    public int expectedWorkers() {
        return expectedWorkers;
    }

    /** @return distinct request indices received */
    public int received() {
        return seen.cardinality();
    }

    /** @return the request indices received (a live view; do not modify) */
    public BitSet seen() {
        return seen;
    }

    /**
     * @return the planned request indices that will never arrive because their conversation ended early (a live
     *     view; do not modify)
     */
    public BitSet unsent() {
        return unsent;
    }

    /** @return distinct workers whose RunFinished arrived */
    public int finishedWorkers() {
        return finishedWorkers;
    }

    /** @return duplicate events ignored so far */
    public int duplicates() {
        return duplicates;
    }

    /** @return wall-clock time of the run's last event, epoch ms */
    public long lastEventMs() {
        return lastEventMs;
    }

    /** @return when the report was published, epoch ms; 0 while the run is open */
    public long publishedAtMs() {
        return publishedAtMs;
    }

    /** @return whether RunStarted has arrived */
    public boolean started() {
        return startedEventId != null;
    }

    /** @return whether the report has been published */
    public boolean published() {
        return publishedAtMs > 0;
    }

    /**
     * @return the number of requests a time-bounded run ran to its end (the sum of its workers'
     *         {@code requests_sent}), or -1 when that is not the run's size: the run is not
     *         time-bounded, was interrupted, or not every RunFinished is in
     */
    public long ranToTimeBound() {
        return timeBounded && !interrupted && allFinished() ? sentTotal : -1;
    }

    /** @return the sum of the RunFinished events' {@code requests_sent} so far */
    public long sentTotal() {
        return sentTotal;
    }

    /** @return whether every expected RunFinished has arrived */
    public boolean allFinished() {
        return finishedWorkers >= expectedWorkers;
    }

    /**
     * Whether the report can be published now: RunStarted and every RunFinished are in, and either
     * every planned request index 0..n-1 arrived or was never sent because its conversation ended early
     * ({@link #markUnsent}), or the run ended early (interrupted or time-bounded) and every request event
     * its workers sent has arrived.
     *
     * @return true when ready
     */
    public boolean ready() {
        if (!started() || !allFinished()) {
            return false;
        }
        int received = received();
        boolean allPlanned = firstOpenIndex() >= requests;
        return allPlanned || ((interrupted || timeBounded) && received >= sentTotal);
    }

    /** @return the lowest request index that has neither arrived nor is known to be unsent */
    private int firstOpenIndex() {
        int i = seen.nextClearBit(0);
        while (unsent.get(i)) {
            i = seen.nextClearBit(unsent.nextClearBit(i));
        }
        return i;
    }

    /**
     * Records RunStarted.
     *
     * @param eventId its event id
     * @param n       planned requests
     * @param workers expected workers (values below 1 count as 1)
     * @param bounded whether the run is time-bounded
     */
    public void start(String eventId, int n, int workers, boolean bounded) {
        startedEventId = eventId;
        requests = n;
        expectedWorkers = Math.max(1, workers);
        timeBounded = bounded;
    }

    /**
     * Records a request index.
     *
     * @param index request index, &gt;= 0
     * @return true when it is new, false when it was already seen (the caller counts a duplicate)
     */
    public boolean markRequest(int index) {
        if (seen.get(index)) {
            return false;
        }
        seen.set(index);
        return true;
    }

    /**
     * Records the turns a conversation did not send because it ended early: indices {@code index + 1 ..
     * index + count}, below the planned requests when RunStarted is in.
     *
     * @param index the request index of the conversation's last sent request
     * @param count its {@code unsent_turns}; 0 or less records nothing
     */
    public void markUnsent(int index, int count) {
        if (count > 0 && index >= 0) {
            long to = (long) index + 1 + count;
            if (requests >= 0) {
                to = Math.min(to, requests);
            }
            if (index + 1 < to) {
                unsent.set(index + 1, (int) Math.min(to, Integer.MAX_VALUE));
            }
        }
    }

    /**
     * Records one worker's RunFinished.
     *
     * @param sent           its requests_sent
     * @param wasInterrupted its interrupted flag
     */
    public void finish(int sent, boolean wasInterrupted) {
        finishedWorkers++;
        sentTotal += Math.max(0, sent);
        interrupted |= wasInterrupted;
    }

    /** Counts one duplicate event. */
    public void duplicate() {
        duplicates++;
    }

    /** @param nowMs wall-clock time of the latest event, epoch ms */
    public void touch(long nowMs) {
        lastEventMs = nowMs;
    }

    /**
     * Marks the run as published and forgets its request indices (the marker stays small).
     *
     * @param nowMs wall clock, epoch ms
     */
    public void markPublished(long nowMs) {
        publishedAtMs = Math.max(1, nowMs);
        seen.clear();
        unsent.clear();
    }
}
