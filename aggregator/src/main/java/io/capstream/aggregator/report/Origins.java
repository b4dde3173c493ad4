package io.capstream.aggregator.report;

import io.capstream.schemas.avro.ReportKind;

/**
 * Meaning of {@code RunStarted.origin}: {@value #LIVE} (a load generator), {@value #IMPORT} (an
 * artifact turned into events by {@code capstream import}) or {@value #REPLAY_PREFIX}{@code <run id>}
 * (a past run's events re-emitted under a new run id by {@code capstream replay}).
 */
public final class Origins {
    /** Origin of events from a load generator. */
    public static final String LIVE = "live";
    /** Origin of events made from an artifact file. */
    public static final String IMPORT = "import";
    /** Prefix of the origin of replayed events; the original run id follows. */
    public static final String REPLAY_PREFIX = "replay:";

    private Origins() {
    }

    /**
     * @param originalRunId the run id being replayed; not null
     * @return the origin string of its replay
     */
    public static String replayOf(String originalRunId) {
        return REPLAY_PREFIX + originalRunId;
    }

    /**
     * @param origin RunStarted.origin; null counts as live
     * @return the report kind it produces (unknown origins count as LIVE)
     */
    public static ReportKind kind(String origin) {
        if (origin == null) {
            return ReportKind.LIVE;
        }
        if (origin.startsWith(REPLAY_PREFIX)) {
            return ReportKind.REPLAY;
        }
        return IMPORT.equals(origin) ? ReportKind.IMPORTED : ReportKind.LIVE;
    }

    /**
     * @param origin RunStarted.origin; may be null
     * @return the replayed run id, or null when the origin is not a replay
     */
    public static String replayedRunId(String origin) {
        return origin != null && origin.startsWith(REPLAY_PREFIX) ? origin.substring(REPLAY_PREFIX.length()) : null;
    }
}
