package io.capstream.aggregator.api;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * What the HTTP API reads. Implementations throw {@link NotReadyException} while the stores
 * cannot be queried (e.g. Streams rebalancing or not yet RUNNING).
 */
public interface QueryService {
    /** @return every known run's report, newest first by start time */
    List<BenchmarkReport> runs();

    /**
     * @param runId run id; not null
     * @return that run's report, or empty
     */
    Optional<BenchmarkReport> run(String runId);

    /**
     * The run's whole artifact JSON. The default takes {@code artifact_json} of {@link #run}, which
     * is only complete for reports published in one record; {@link StreamsQueryService} also
     * reassembles large reports from their chunks.
     *
     * @param runId run id; not null
     * @return the artifact's UTF-8 bytes (exactly the report file's content), or empty when the run is unknown
     * @throws NotReadyException while the stores cannot be queried, or while a large report's chunks
     *                           are not all loaded yet (retry)
     */
    default Optional<byte[]> artifact(String runId) {
        return run(runId).map(r -> r.getArtifactJson().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param target exact target filter, or null for all
     * @param model  exact model filter, or null for all
     * @param fromMs earliest window start, epoch ms (inclusive)
     * @param toMs   latest window start, epoch ms (inclusive)
     * @return the closed windows' summaries, by window start then key
     */
    List<WindowSummary> summaries(String target, String model, long fromMs, long toMs);

    /**
     * @param fromMs earliest window start, epoch ms (inclusive)
     * @param toMs   latest window start, epoch ms (inclusive)
     * @return SLO alerts (breaches and recoveries), by window start
     */
    List<SloBreach> alerts(long fromMs, long toMs);

    /** @return the latest alert per target|model|bucket|slo whose state is BREACH */
    List<SloBreach> activeBreaches();

    /**
     * Change points (issue 32). The default knows none.
     *
     * @param fromMs earliest {@code change_window_start_ms}, epoch ms (inclusive)
     * @param toMs   latest {@code change_window_start_ms}, epoch ms (inclusive)
     * @return the change points published on {@code capstream.changes} whose change began in that range, by change
     *         start then detection time
     * @throws NotReadyException while the stores cannot be queried
     */
    default List<ChangePoint> changes(long fromMs, long toMs) {
        return List.of();
    }

    /**
     * @return whether the aggregator is ready: the stores can be queried (Streams RUNNING) and, for
     *         implementations that know it, the schema registry answers (its probe and every record
     *         waiting for it)
     */
    boolean ready();

    /**
     * Why the aggregator is not ready, for {@code /ready}. The default only knows {@link #ready()}.
     *
     * @return null when ready, else a one-line reason, e.g. {@code "schema registry unreachable:
     *         schema registry GET http://r:8081/schemas/ids/3 failed: ConnectException (after 1 attempt)"}
     */
    default String notReadyReason() {
        return ready() ? null : "not ready";
    }

    /** The stores cannot be queried right now; retry later (HTTP 503). */
    final class NotReadyException extends RuntimeException {
        /**
         * @param message why
         * @param cause   the underlying error, or null
         */
        public NotReadyException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
