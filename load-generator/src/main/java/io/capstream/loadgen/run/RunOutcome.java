package io.capstream.loadgen.run;

import io.capstream.schemas.avro.ClientCheck;
import java.time.Instant;

/**
 * What a run did.
 *
 * @param runId             run id (the Kafka key of its events)
 * @param workerId          worker id in the events
 * @param requestsPlanned   n from the plan
 * @param requestsSent      request events emitted (completed + failed + cancelled)
 * @param completed         requests that completed (spec §4.3 validity)
 * @param failed            requests that failed (spec §6)
 * @param eventsUndelivered events the sink could not deliver (Kafka unreachable, timeouts); must be 0 for exit 0
 * @param interrupted       true when the run was stopped (a {@link RunControl#requestStop()}, not a stop rule) before
 *                          every planned request ran; a time-bounded closed loop that ends at its
 *                          {@code --duration} with fewer than {@code requestsPlanned} is not interrupted
 * @param startedAt         UTC start (just before T0)
 * @param finishedAt        UTC end (after the slowest request)
 * @param wallClockNs       monotonic T0 to the end of the slowest request, ns (spec §5)
 * @param clientCheck       the generator's self-check of the run (also in RunFinished), or null
 * @param serverMetrics     the endpoint's own metrics scraped during the run (summarised in RunFinished), or
 *                          null when not scraped
 * @param stopped           the stop rule that ended the run early (issue 30; as in RunFinished), or null
 */
public record RunOutcome(String runId, String workerId, int requestsPlanned, int requestsSent, int completed,
                         int failed, long eventsUndelivered, boolean interrupted, Instant startedAt,
                         Instant finishedAt, long wallClockNs, ClientCheck clientCheck,
                         io.capstream.loadgen.servermetrics.ServerMetricsRecording serverMetrics,
                         io.capstream.schemas.avro.RunStop stopped) {

    /** Exit code of a run that a stop rule ended early (issue 30), when its events were all delivered. */
    public static final int EXIT_STOPPED = 4;

    /** An outcome without a stop rule that tripped (as before issue 30). */
    public RunOutcome(String runId, String workerId, int requestsPlanned, int requestsSent, int completed,
                      int failed, long eventsUndelivered, boolean interrupted, Instant startedAt,
                      Instant finishedAt, long wallClockNs, ClientCheck clientCheck,
                      io.capstream.loadgen.servermetrics.ServerMetricsRecording serverMetrics) {
        this(runId, workerId, requestsPlanned, requestsSent, completed, failed, eventsUndelivered, interrupted,
                startedAt, finishedAt, wallClockNs, clientCheck, serverMetrics, null);
    }

    /**
     * @param undelivered events of this run that its sink could not deliver when it was closed (flushed), counted
     *                    after the run ended
     * @return a copy whose {@code eventsUndelivered} is the larger of this one's and {@code undelivered}
     */
    public RunOutcome withEventsUndelivered(long undelivered) {
        return undelivered <= eventsUndelivered ? this : new RunOutcome(runId, workerId, requestsPlanned, requestsSent,
                completed, failed, undelivered, interrupted, startedAt, finishedAt, wallClockNs, clientCheck,
                serverMetrics, stopped);
    }

    /** @return requests the client cancelled on purpose (issue 30, {@code --cancel-rate}): neither completed nor failed */
    public int cancelled() {
        return Math.max(0, requestsSent - completed - failed);
    }

    /**
     * @return the counts of the one-line outcome {@code generate} prints, e.g. {@code 20 completed, 0 failed of 20},
     *         with {@code , N cancelled} before {@code of} when the client cancelled some ({@code --cancel-rate}), so
     *         that the counts add up to the requests sent
     */
    public String counts() {
        return completed + " completed, " + failed + " failed" + (cancelled() > 0 ? ", " + cancelled() + " cancelled" : "")
                + " of " + requestsPlanned;
    }

    /**
     * @return 0 when every request completed or was cancelled by the client on purpose, and every event was
     *         delivered; {@value #EXIT_STOPPED} when a stop rule ended the run early and every event was delivered
     *         (whatever failed); else 1 (spec §5)
     */
    public int exitCode() {
        if (eventsUndelivered == 0 && stopped != null) {
            return EXIT_STOPPED;
        }
        return failed == 0 && eventsUndelivered == 0 && completed + cancelled() == requestsSent ? 0 : 1;
    }
}
