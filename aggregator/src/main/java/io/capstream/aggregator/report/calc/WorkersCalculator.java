package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerSummary;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's generator workers ({@code BenchmarkReport.workers}, artifact key {@code capstream.workers})
 * and the spread of their clock offsets ({@code BenchmarkReport.clock_offset_spread_ms}, artifact key
 * {@code capstream.clock_offset_spread_ms}), from {@link RunData#workers()}:
 *
 * <ul>
 *   <li>one {@link WorkerSummary} per worker id, sorted by worker id: {@code requests} =
 *       {@code completed} + {@code failed} of its request events, {@code run_finished} whether its
 *       RunFinished arrived, and from that RunFinished {@code requests_sent}, {@code share},
 *       {@code shares}, {@code clock_offset_ms} and {@code clock_offset_uncertainty_ms} (all null
 *       without it; a NaN or infinite offset is null too, so that one broken worker cannot make the
 *       report unwritable);</li>
 *   <li>{@code clock_offset_spread_ms} = max - min of the workers' non-null {@code clock_offset_ms},
 *       ms; null with fewer than two of them.</li>
 * </ul>
 * Imported runs ({@code RunStarted.origin} {@code import}) have no workers: their events are
 * rebuilt from an artifact, under no generator's id. Pure functions; thread-safe.
 */
public final class WorkersCalculator {
    /** RunStarted.origin of an imported artifact. */
    private static final String IMPORT = "import";

    private WorkersCalculator() {
    }

    /**
     * @param started the run's RunStarted; null when it never arrived (the run is then treated as live)
     * @param workers the run's events per worker id; null when unknown
     * @return the workers by worker id (a new sorted map), or null when {@code workers} is null or the
     *     run is an import
     */
    public static Map<String, WorkerSummary> compute(RunStarted started, Map<String, WorkerEvents> workers) {
        if (workers == null || (started != null && IMPORT.equals(started.getOrigin()))) {
            return null;
        }
        Map<String, WorkerSummary> out = new TreeMap<>();
        workers.forEach((id, w) -> out.put(id, summary(w)));
        return out;
    }

    /**
     * @param workers the workers as {@link #compute} returns them; null = none
     * @return max - min of the workers' non-null {@code clock_offset_ms}, ms; null with fewer than two
     */
    public static Double clockOffsetSpreadMs(Map<String, WorkerSummary> workers) {
        if (workers == null) {
            return null;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int offsets = 0;
        for (WorkerSummary w : workers.values()) {
            Double o = w.getClockOffsetMs();
            if (o != null) {
                min = Math.min(min, o);
                max = Math.max(max, o);
                offsets++;
            }
        }
        return offsets < 2 ? null : max - min;
    }

    private static WorkerSummary summary(WorkerEvents w) {
        RunFinished f = w.finished();
        return WorkerSummary.newBuilder()
                .setRequests(w.requests())
                .setCompleted(w.completed())
                .setFailed(w.failed())
                .setRunFinished(f != null)
                .setRequestsSent(f == null ? null : f.getRequestsSent())
                .setShare(f == null ? null : f.getShare())
                .setShares(f == null ? null : f.getShares())
                .setClockOffsetMs(f == null ? null : finite(f.getClockOffsetMs()))
                .setClockOffsetUncertaintyMs(f == null ? null : finite(f.getClockOffsetUncertaintyMs()))
                .build();
    }

    /** A NaN or infinite offset (a broken worker) is unknown: it must not make the report unwritable. */
    private static Double finite(Double v) {
        return v == null || !Double.isFinite(v) ? null : v;
    }
}
