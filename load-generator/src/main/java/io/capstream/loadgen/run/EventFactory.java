package io.capstream.loadgen.run;

import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.text.Redaction;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.CapClock;
import java.time.Instant;
import java.util.UUID;

/**
 * Builds the {@link RunEvent}s of one run (spec §12.2): raw times in ns, raw usage fields, counts;
 * nothing derived. This is where URLs and servers' messages enter the events, so every event it makes
 * passes the run's {@link RunSecrets} mask: every string in it (the target, an error message, a
 * {@code finish_reason}, the server metrics' URL and first error, ...) has the run's secrets (the API
 * key, credential {@code -H} values, URL passwords, which a server may echo) and any URL's
 * {@code user:password@} masked as {@value Redaction#MASK}; what {@link EventParts} adds to a built event is
 * numbers only. Immutable, thread-safe.
 */
public final class EventFactory {
    /**
     * {@code output_token_source} of an embeddings or rerank request (issue 30): it outputs no tokens. Its
     * {@code ttft_ns} is -1 and its {@code ttfo_ns} null (no first token), {@code e2e_ns} is the request latency,
     * {@code prompt_tokens} the input tokens of its usage and {@code inputs} its batch size.
     */
    public static final String OUTPUT_NONE = "none";
    private final String runId;
    private final String workerId;
    private final RunPlan plan;
    private final String version;
    private final String target;
    private final SecretMask mask;
    private final CapClock clock;

    /**
     * An event factory whose stamps ({@code emitted_at_ms}, {@code completed_at_epoch_ms}) read the system clock.
     *
     * @param runId    run id (the key)
     * @param workerId worker id
     * @param plan     the plan
     */
    public EventFactory(String runId, String workerId, RunPlan plan) {
        this(runId, workerId, plan, CapClock.system());
    }

    /**
     * @param runId    run id (the key)
     * @param workerId worker id
     * @param plan     the plan
     * @param clock    the wall clock of the events' stamps; not null
     */
    public EventFactory(String runId, String workerId, RunPlan plan, CapClock clock) {
        this.clock = clock;
        this.runId = runId;
        this.workerId = workerId;
        this.plan = plan;
        this.version = EventFactory.class.getPackage().getImplementationVersion();
        this.mask = RunSecrets.of(plan.config(), plan.apiKey());
        this.target = mask.apply(plan.config().target().baseUrl());
    }

    /** @return the run id of the events */
    String runId() {
        return runId;
    }

    /** @return the run's secrets, masked in every event this factory makes */
    public SecretMask mask() {
        return mask;
    }

    /**
     * @param message an error message as produced by the client (at most 2048 characters)
     * @param cut     whether it was cut at 2048 characters
     * @return the message with the run's credentials and any URL userinfo masked
     */
    String redact(String message, boolean cut) {
        return mask.apply(message, cut);
    }

    private RunEvent wrap(Object payload) {
        return mask.apply(RunEvent.newBuilder()
                .setRunId(runId)
                .setEventId(UUID.randomUUID().toString())
                .setWorkerId(workerId)
                .setEmittedAtMs(clock.millis())
                .setPayload(payload)
                .build());
    }

    /**
     * One scrape of the endpoint's metrics as a heartbeat in the run's event stream, so that the window
     * summaries see it in time order with the run's requests.
     *
     * @param epochMs when the scrape's response arrived, epoch ms (the event time)
     * @param tMs     when it arrived, ms after the run's T0 (negative for the baseline scrape)
     * @param samples series name to value; not null
     * @return a Heartbeat event with {@code server_samples} and {@code server_t_ms}, the target and model as the
     *         run's requests record them (so that the windows of its requests carry it)
     */
    public RunEvent serverSamples(long epochMs, double tMs, java.util.Map<String, Double> samples) {
        RunEvent e = wrap(io.capstream.schemas.avro.Heartbeat.newBuilder().setTarget(target).setModel(plan.config().target().model())
                .setServerSamples(samples).setServerTMs(tMs).build());
        e.setEmittedAtMs(epochMs);
        return e;
    }

    /**
     * @param startedAt UTC start (just before T0)
     * @return RunStarted with the full configuration and plan (spec §1, §3.1; {@link RunStartedMapping})
     */
    public RunEvent runStarted(Instant startedAt) {
        return wrap(RunStartedMapping.toRunStarted(plan)
                .setBaseUrl(target)
                .setStartedAt(RunIds.utcSeconds(startedAt))
                .setStartedAtEpochMs(startedAt.toEpochMilli())
                .setOrigin("live")
                .setCapstreamVersion(version)
                .build());
    }

    /**
     * Why a conversation ended before its planned turns (issue 29), on its last sent request's event.
     *
     * @param reason      one of the codes {@value #CONTEXT_WINDOW}, {@value #ANSWER_FAILED}, {@value #CANCELLED} or
     *                    {@value #STOPPED},
     *                    then {@code ": "} and a sentence with the numbers (e.g. {@code context_window: turn 4 would
     *                    need 3900 history + 256 new + 16 max_tokens = 4172 tokens, over the 4096-token context
     *                    window}); not null
     * @param unsentTurns its planned turns after this one that were not sent, &gt;= 0
     */
    public record Ending(String reason, int unsentTurns) {
        /** The next turn would not fit the context window (history + new input + max_tokens &gt; window). */
        public static final String CONTEXT_WINDOW = "context_window";
        /** The turn's answer failed. */
        public static final String ANSWER_FAILED = "answer_failed";
        /** The client cancelled the turn on purpose (issue 30, {@code --cancel-rate}): its user went away. */
        public static final String CANCELLED = "cancelled";
        /** The run was stopped (Ctrl-C, a stop request) before the conversation's next turn. */
        public static final String STOPPED = "stopped";
    }

    /**
     * The conversation fields of a request's event (issue 29).
     *
     * @param conversationId    {@code <run_id>-c<index>}; not null
     * @param turn              1-based
     * @param conversationEnd   why the conversation ended here before its planned turns, or null
     * @param unsentTurns       with {@code conversationEnd}, its unsent turns; else null
     */
    public record Turn(String conversationId, int turn, String conversationEnd, Integer unsentTurns) {
        /**
         * @param e the conversation's early end here, or null
         * @return this turn with it
         */
        public Turn ending(Ending e) {
            return e == null ? this : new Turn(conversationId, turn, e.reason(), e.unsentTurns());
        }
    }

    /**
     * @param conversation the conversation's 0-based index in the run's plan
     * @return its id, {@code <run_id>-c<index>} (the value {@code --session-header} sends)
     */
    public String conversationId(int conversation) {
        return runId + "-c" + conversation;
    }

    /**
     * A conversation's turn completed (issue 29): {@link #completed(int, long, long, RequestResult)} with the
     * conversation fields and the answer's kind and tool calls.
     *
     * @param index       request index
     * @param scheduledNs scheduled start, ns after T0
     * @param startNs     actual start (t0), ns after T0
     * @param r           the measurements (ok)
     * @param turn        the conversation fields; null for a single-turn request
     * @return RequestCompleted
     */
    public RunEvent completed(int index, long scheduledNs, long startNs, RequestResult r, Turn turn) {
        RunEvent e = completed(index, scheduledNs, startNs, r);
        if (turn != null) {
            RequestCompleted rc = (RequestCompleted) e.getPayload();
            rc.setConversationId(turn.conversationId());
            rc.setTurn(turn.turn());
            rc.setConversationEnd(turn.conversationEnd());
            rc.setUnsentTurns(turn.unsentTurns());
            rc.setOutputKind(r.reply().kind());
            rc.setToolCalls(r.reply().toolCalls().size());
        }
        return e;
    }

    /**
     * A conversation's turn failed (issue 29): {@link #failed(int, long, long, long, int, int, int, RequestError)}
     * with the conversation fields.
     *
     * @param index       request index
     * @param scheduledNs scheduled start, ns after T0
     * @param startNs     actual start, ns after T0
     * @param elapsedNs   t0 to the failure, ns, or -1 when unknown
     * @param httpStatus  HTTP status or -1
     * @param content     content deltas before the failure
     * @param reasoning   reasoning deltas before the failure
     * @param error       the failure
     * @param turn        the conversation fields; null for a single-turn request
     * @return RequestFailed
     */
    public RunEvent failed(int index, long scheduledNs, long startNs, long elapsedNs, int httpStatus, int content,
                           int reasoning, RequestError error, Turn turn) {
        RunEvent e = failed(index, scheduledNs, startNs, elapsedNs, httpStatus, content, reasoning, error);
        if (turn != null) {
            RequestFailed rf = (RequestFailed) e.getPayload();
            rf.setConversationId(turn.conversationId());
            rf.setTurn(turn.turn());
            rf.setConversationEnd(turn.conversationEnd());
            rf.setUnsentTurns(turn.unsentTurns());
        }
        return e;
    }

    /**
     * @param index       request index
     * @param scheduledNs scheduled start, ns after T0
     * @param startNs     actual start (t0), ns after T0
     * @param r           the measurements (ok)
     * @return RequestCompleted
     */
    public RunEvent completed(int index, long scheduledNs, long startNs, RequestResult r) {
        RunConfig c = plan.config();
        RequestCompleted rc = RequestCompleted.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(plan.contextPlan().planned(index))
                .setTarget(target)
                .setModel(c.target().model())
                .setScheduledStartNs(scheduledNs)
                .setStartNs(startNs)
                .setClientQueueNs(Math.max(0, startNs - scheduledNs))
                .setTtfoNs(r.ttfoNs())
                .setTtftNs(r.ttftNs())
                .setE2eNs(r.e2eNs())
                .setExactSeconds(null)
                .setPromptTokens(r.promptTokens() >= 0 ? r.promptTokens() : null)
                .setCompletionTokens(r.completionTokens() >= 0 ? r.completionTokens() : null)
                .setCachedTokens(r.cachedTokens() >= 0 ? r.cachedTokens() : null)
                .setOutputTokenSource(r.outputTokenSource())
                .setContentChunks(r.contentChunks())
                .setReasoningChunks(r.reasoningChunks())
                .setMaxChunkGapNs(r.maxChunkGapNs() >= 0 ? r.maxChunkGapNs() : null)
                .setOutputChunkGapsUs(r.outputGaps().toList())
                .setOutputChunkGapsDropped(r.outputGaps().dropped())
                .setFinishReason(r.finishReason())
                .setHttpStatus(r.httpStatus() >= 0 ? r.httpStatus() : null)
                .setCompletedAtEpochMs(clock.millis())
                .setHttpPhases(EventParts.httpPhases(r.phases()))
                .build();
        if (!c.target().endpoint().streamed()) {
            // embeddings, rerank (issue 30): no first token (ttft_ns -1, ttfo_ns null), no output tokens
            rc.setInputs(c.payload().effectiveBatch());
            rc.setTtfoNs(null);
            rc.setOutputTokenSource(OUTPUT_NONE);
        }
        return wrap(rc);
    }

    /**
     * @param index       request index
     * @param scheduledNs scheduled start, ns after T0
     * @param startNs     actual start, ns after T0
     * @param elapsedNs   t0 to the failure, ns, or -1 when unknown
     * @param httpStatus  HTTP status or -1
     * @param content     content deltas before the failure
     * @param reasoning   reasoning deltas before the failure
     * @param error       the failure
     * @return RequestFailed
     */
    public RunEvent failed(int index, long scheduledNs, long startNs, long elapsedNs, int httpStatus, int content,
                           int reasoning, RequestError error) {
        RunConfig c = plan.config();
        RequestFailed rf = RequestFailed.newBuilder()
                .setRequestIndex(index)
                .setPlannedContextTokens(plan.contextPlan().planned(index))
                .setTarget(target)
                .setModel(c.target().model())
                .setErrorType(error.type())
                .setErrorMessage(redact(error.message(), error.truncated()))
                .setErrorMessageTruncated(error.truncated())
                .setScheduledStartNs(scheduledNs)
                .setStartNs(startNs)
                .setClientQueueNs(Math.max(0, startNs - scheduledNs))
                .setElapsedNs(elapsedNs >= 0 ? elapsedNs : null)
                .setHttpStatus(httpStatus >= 0 ? httpStatus : null)
                .setContentChunks(content)
                .setReasoningChunks(reasoning)
                .setCompletedAtEpochMs(clock.millis())
                .setInputs(c.target().endpoint().streamed() ? null : c.payload().effectiveBatch())
                .build();
        return wrap(rf);
    }

    /**
     * @param wallNs      T0 to the end of the slowest request, ns
     * @param startedAt   UTC start
     * @param finishedAt  UTC end
     * @param sent        request events emitted
     * @param interrupted stopped before every planned request ran
     * @param undelivered events not delivered so far
     * @param clientCheck the generator's self-check of the run, or null
     * @return RunFinished
     */
    public RunEvent runFinished(long wallNs, Instant startedAt, Instant finishedAt, int sent, boolean interrupted,
                                long undelivered, ClientCheck clientCheck) {
        return runFinished(wallNs, startedAt, finishedAt, sent, interrupted, undelivered, clientCheck, null, null);
    }

    /**
     * As {@link #runFinished(long, Instant, Instant, int, boolean, long, ClientCheck)}, for a worker's share of a
     * distributed run ({@code share}, {@code shares} and the clock offset set from {@code assignment}) and with
     * how the endpoint's metrics were scraped during the run (the scrapes themselves went out as heartbeats; the
     * aggregator computes their statistics).
     *
     * @param wallNs      T0 to the end of the slowest request, ns
     * @param startedAt   UTC start
     * @param finishedAt  UTC end
     * @param sent        request events emitted (the share's)
     * @param interrupted stopped before every planned request ran
     * @param undelivered events not delivered so far
     * @param clientCheck the generator's self-check of the run, or null
     * @param assignment  the share executed, or null for a run sent by one process (the share fields stay null)
     * @param scraping    what the scraper of the endpoint's metrics recorded during the run, or null when it
     *                    did not scrape
     * @return RunFinished
     */
    public RunEvent runFinished(long wallNs, Instant startedAt, Instant finishedAt, int sent, boolean interrupted,
                                long undelivered, ClientCheck clientCheck, ShareAssignment assignment,
                                ServerMetricsRecording scraping) {
        RunFinished rf = RunFinished.newBuilder()
                .setWallClockNs(wallNs)
                .setWallClockS(null)
                .setStartedAt(RunIds.utcSeconds(startedAt))
                .setFinishedAt(RunIds.utcSeconds(finishedAt))
                .setStartedAtEpochMs(startedAt.toEpochMilli())
                .setFinishedAtEpochMs(finishedAt.toEpochMilli())
                .setRequestsSent(sent)
                .setInterrupted(interrupted)
                .setEventsUndelivered((int) Math.min(Integer.MAX_VALUE, undelivered))
                .setClientCheck(clientCheck)
                .setShare(assignment == null ? null : assignment.share().share())
                .setShares(assignment == null ? null : assignment.share().shares())
                .setClockOffsetMs(assignment == null ? null : assignment.clockOffsetMs())
                .setClockOffsetUncertaintyMs(assignment == null ? null : assignment.clockOffsetUncertaintyMs())
                .setServerScraping(scraping == null ? null : EventParts.serverScraping(scraping))
                .build();
        return wrap(rf);
    }
}
