package io.capstream.aggregator.report.state;

/**
 * Key layout of the run-events store: every event of a run under the prefix {@code runId|}, the
 * request events as {@code runId|R|<index, 10 digits zero-padded>} so that a prefix scan returns
 * them ordered by request index, the scrapes of the endpoint's metrics as {@code runId|H|<sequence, 10 digits>}
 * in arrival order (ARCHITECTURE.md, "Measured ceilings": one small write per event).
 */
public final class StateKeys {
    private StateKeys() {
    }

    /**
     * @param runId run id
     * @return prefix of every key of the run
     */
    public static String runPrefix(String runId) {
        return runId + "|";
    }

    /**
     * @param runId run id
     * @return key of the run's RunStarted event
     */
    public static String started(String runId) {
        return runId + "|S";
    }

    /**
     * @param runId run id
     * @return prefix of the run's RunFinished events
     */
    public static String finishedPrefix(String runId) {
        return runId + "|F|";
    }

    /**
     * @param runId    run id
     * @param workerId worker id
     * @return key of one worker's RunFinished event
     */
    public static String finished(String runId, String workerId) {
        return finishedPrefix(runId) + workerId;
    }

    /**
     * @param runId run id
     * @return prefix of the run's request events
     */
    public static String requestPrefix(String runId) {
        return runId + REQUEST_TAG;
    }

    /**
     * @param runId run id
     * @param index request index (may be negative for malformed events; still a distinct key)
     * @return key of the request event
     */
    public static String request(String runId, int index) {
        if (index < 0) {
            return requestPrefix(runId) + "-" + index;
        }
        return padded(runId, REQUEST_TAG, index);
    }

    /**
     * @param runId run id
     * @return prefix of the run's scrapes of the endpoint's metrics (Heartbeats with server samples)
     */
    public static String scrapePrefix(String runId) {
        return runId + SCRAPE_TAG;
    }

    /**
     * @param runId    run id
     * @param sequence 0-based position of the scrape among the run's scrapes as they arrived, &gt;= 0
     * @return key of the scrape's Heartbeat event: a prefix scan returns the scrapes in arrival order
     */
    public static String scrape(String runId, int sequence) {
        return padded(runId, SCRAPE_TAG, sequence);
    }

    private static String padded(String runId, String tag, int number) {
        // Zero-padded by hand: String.format was 8% of the stream thread's time (bench/aggregation).
        String digits = Integer.toString(number);
        StringBuilder key = new StringBuilder(runId.length() + tag.length() + INDEX_DIGITS).append(runId).append(tag);
        for (int pad = INDEX_DIGITS - digits.length(); pad > 0; pad--) {
            key.append('0');
        }
        return key.append(digits).toString();
    }

    /** What follows the run id in every request key. */
    private static final String REQUEST_TAG = "|R|";
    /** What follows the run id in every scrape key. */
    private static final String SCRAPE_TAG = "|H|";
    /** Width of the zero-padded request index: every non-negative int fits in 10 digits. */
    private static final int INDEX_DIGITS = 10;
}
