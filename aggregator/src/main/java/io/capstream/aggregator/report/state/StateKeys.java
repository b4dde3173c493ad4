package io.capstream.aggregator.report.state;

/**
 * Key layout of the run-events store: every record of a run under the prefix {@code runId|}. This version writes
 * the run's events in batches, one record per run and commit ({@code EventsStore}, issue 31), under
 * {@code runId|B|<batch sequence, 10 digits zero-padded>}, so that a prefix scan returns them in the order they were
 * written. Earlier versions wrote one record per event, which a changelog written by them still holds and a restore
 * still reads: the RunStarted as {@code runId|S}, each RunFinished as {@code runId|F|<finisher>}, the request events
 * as {@code runId|R|<index, 10 digits zero-padded>} (scanned in request-index order) and the scrapes of the
 * endpoint's metrics as {@code runId|H|<sequence, 10 digits>} in arrival order.
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

    /**
     * @param runId run id
     * @return prefix of the run's event batches
     */
    public static String batchPrefix(String runId) {
        return runId + BATCH_TAG;
    }

    /**
     * @param runId    run id
     * @param sequence 0-based number of the batch among the run's batches as they were written, &gt;= 0
     * @return key of the batch: a prefix scan returns the run's batches in the order they were written
     */
    public static String batch(String runId, int sequence) {
        return padded(runId, BATCH_TAG, sequence);
    }

    /**
     * @param runId run id
     * @param key   a key that starts with {@link #batchPrefix}
     * @return the batch's sequence number, or -1 when the rest of the key is not one
     */
    public static int batchSequence(String runId, String key) {
        int from = runId.length() + BATCH_TAG.length();
        if (!key.startsWith(batchPrefix(runId)) || key.length() != from + INDEX_DIGITS) {
            return -1;
        }
        try {
            return Integer.parseInt(key, from, key.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
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
    /** What follows the run id in every batch key. */
    private static final String BATCH_TAG = "|B|";
    /** What follows the run id in every scrape key. */
    private static final String SCRAPE_TAG = "|H|";
    /** Width of the zero-padded request index: every non-negative int fits in 10 digits. */
    private static final int INDEX_DIGITS = 10;
}
