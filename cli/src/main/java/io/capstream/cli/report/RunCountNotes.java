package io.capstream.cli.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.CancelledStats;
import io.capstream.schemas.avro.Provenance;
import java.util.Locale;

/**
 * The summary lines, under {@code requests}, about requests and events that are in no percentile ({@link
 * SummaryTable}): the requests the client cancelled on purpose ({@code capstream.cancelled}, issue 30) and the events
 * the aggregator ignored as duplicates ({@code provenance.duplicate_events}). Each line appears only when its count
 * is not zero.
 */
final class RunCountNotes {
    private RunCountNotes() {
    }

    /**
     * @param report the typed report; not null
     * @return the lines, each ending in {@code \n}; empty when there is nothing to say, e.g.
     *     {@code cancelled         29 (not completed, not failed, in no percentile)  with first token 25  cancel at p50
     *     100.0 ms} and {@code duplicates        12 events ignored (...)}
     */
    static String render(BenchmarkReport report) {
        StringBuilder sb = new StringBuilder();
        CancelledStats c = report.getCancelled();
        if (c != null) {
            line(sb, "cancelled", c.getRequests() + " (not completed, not failed, in no percentile)  with first token "
                    + c.getWithFirstToken() + "  cancel at p50 " + (c.getCancelAfterP50Ms() == null ? "-"
                    : String.format(Locale.ROOT, "%.1f ms", c.getCancelAfterP50Ms())));
        }
        Provenance p = report.getProvenance();
        if (p != null && p.getDuplicateEvents() > 0) {
            // the same event id twice is a redelivery; a second run under this run id (derived ids have second
            // resolution: two generators started in the same second on one Kafka) also lands here
            line(sb, "duplicates", String.format(Locale.ROOT, "%,d event(s) ignored (the same event or request index"
                    + " twice: a redelivery, or another run with this run id, e.g. started in the same second;"
                    + " give each run --run-id-suffix)", p.getDuplicateEvents()));
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, value));
    }
}
