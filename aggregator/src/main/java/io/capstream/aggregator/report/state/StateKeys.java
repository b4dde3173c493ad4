package io.capstream.aggregator.report.state;

/**
 * Key layout of the run-events store: every event of a run under the prefix {@code runId|}, the
 * request events as {@code runId|R|<index, 10 digits zero-padded>} so that a prefix scan returns
 * them ordered by request index (ARCHITECTURE.md, "Measured ceilings": one small write per event).
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
        // Zero-padded by hand: String.format was 8% of the stream thread's time (bench/aggregation).
        String digits = Integer.toString(index);
        StringBuilder key = new StringBuilder(runId.length() + REQUEST_TAG.length() + INDEX_DIGITS).append(runId).append(REQUEST_TAG);
        for (int pad = INDEX_DIGITS - digits.length(); pad > 0; pad--) {
            key.append('0');
        }
        return key.append(digits).toString();
    }

    /** What follows the run id in every request key. */
    private static final String REQUEST_TAG = "|R|";
    /** Width of the zero-padded request index: every non-negative int fits in 10 digits. */
    private static final int INDEX_DIGITS = 10;
}
