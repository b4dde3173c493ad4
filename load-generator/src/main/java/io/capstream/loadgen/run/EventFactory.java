package io.capstream.loadgen.run;

import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.text.Redaction;
import io.capstream.schemas.text.SecretMask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Builds the {@link RunEvent}s of one run (spec §12.2): raw times in ns, raw usage fields, counts;
 * nothing derived. This is where URLs and servers' messages enter the events, so every event it makes
 * passes the run's {@link RunSecrets} mask: every string in it (the target, an error message, a
 * {@code finish_reason}, the server metrics' URL and first error, ...) has the run's secrets (the API
 * key, credential {@code -H} values, URL passwords, which a server may echo) and any URL's
 * {@code user:password@} masked as {@value Redaction#MASK}. Immutable, thread-safe.
 */
public final class EventFactory {
    private final String runId;
    private final String workerId;
    private final RunPlan plan;
    private final String version;
    private final String target;
    private final SecretMask mask;

    /**
     * @param runId    run id (the key)
     * @param workerId worker id
     * @param plan     the plan
     */
    public EventFactory(String runId, String workerId, RunPlan plan) {
        this.runId = runId;
        this.workerId = workerId;
        this.plan = plan;
        this.version = EventFactory.class.getPackage().getImplementationVersion();
        this.mask = RunSecrets.of(plan.config(), plan.apiKey());
        this.target = mask.apply(plan.config().target().baseUrl());
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
                .setEmittedAtMs(System.currentTimeMillis())
                .setPayload(payload)
                .build());
    }

    /**
     * One scrape of the endpoint's metrics as a heartbeat in the run's event stream, so that the window
     * summaries see it in time order with the run's requests.
     *
     * @param epochMs when the scrape's response arrived, epoch ms (the event time)
     * @param samples series name to value; not null
     * @return a Heartbeat event with {@code server_samples}, the target and model as the run's requests record
     *         them (so that the windows of its requests carry it)
     */
    public RunEvent serverSamples(long epochMs, java.util.Map<String, Double> samples) {
        RunEvent e = wrap(io.capstream.schemas.avro.Heartbeat.newBuilder().setTarget(target).setModel(plan.config().target().model())
                .setServerSamples(samples).build());
        e.setEmittedAtMs(epochMs);
        return e;
    }

    /**
     * @param startedAt UTC start (just before T0)
     * @return RunStarted with the full configuration and plan (spec §1, §3.1)
     */
    public RunEvent runStarted(Instant startedAt) {
        RunConfig c = plan.config();
        int[] p = plan.contextPlan().toArray();
        List<Integer> planned = new ArrayList<>(p.length);
        for (int v : p) {
            planned.add(v);
        }
        boolean open = c.load().arrival() != io.capstream.loadgen.arrival.ArrivalMode.CLOSED;
        RunStarted.Builder rs = RunStarted.newBuilder()
                .setBaseUrl(target)
                .setModel(c.target().model())
                .setEngine(c.target().engine())
                .setGpu(c.identity().gpu())
                .setRequests(plan.requests())
                .setConcurrency(open ? c.load().effectiveMaxInFlight() : c.load().effectiveConcurrency())
                .setBurst(c.load().burst())
                .setSharedPrefixBurst(c.load().burst() != 0)
                .setContextTokens(c.request().ctxTokens() == 0 ? null : c.request().ctxTokens())
                .setContextSeed(c.identity().seed())
                .setMaxContextTokens(plan.maxModelLen())
                .setMaxTokens(plan.largestMaxTokens())
                .setSharedPrefixTokens(c.request().sharedPrefixTokens())
                .setMarginTokens(c.request().margin())
                .setTimeoutS(c.target().timeoutS())
                .setThinkingMode(c.request().resolvedThinkingMode().wireName())
                .setNoThinking(c.request().noThinking())
                .setReasoningEffort(c.request().reasoningEffort())
                .setPlannedContextTokens(planned)
                .setArrival(c.load().arrival().wireName())
                .setRateRps(open ? c.load().rateRps() : null)
                .setMaxInFlight(open ? c.load().effectiveMaxInFlight() : null)
                .setDurationS(c.load().durationS())
                .setKeepAlive(c.target().keepAlive())
                .setEndpoint(c.target().endpoint().label())
                .setHeaderNames(c.target().headers().stream().map(io.capstream.loadgen.workload.ExtraHeader::name).toList())
                .setExtraBodyJson(c.request().extraBody() == null ? null : c.request().extraBody().json())
                .setPromptSalt(c.request().promptSalt())
                .setRampUpS(c.load().rampUpS() == null || c.load().rampUpS() == 0 ? null : c.load().rampUpS())
                .setExpectedWorkers(c.identity().expectedWorkers())
                .setTimingMethodology(null)
                .setStartedAt(RunIds.utcSeconds(startedAt))
                .setStartedAtEpochMs(startedAt.toEpochMilli())
                .setOrigin("live")
                .setCapstreamVersion(version)
                .setSlos(c.report().slos())
                .setSweep(c.report().sweep())
                .setRerunOf(c.report().rerunOf());
        workload(rs);
        return wrap(rs.build());
    }

    /** The dataset and the length distributions of the run (all null for the reference's workload). */
    private void workload(RunStarted.Builder rs) {
        io.capstream.loadgen.workload.Dataset ds = plan.requestPlan().dataset();
        RequestShape r = plan.config().request();
        rs.setDatasetName(ds == null ? null : ds.name())
                .setDatasetSha256(ds == null ? null : ds.sha256())
                .setDatasetEntries(ds == null ? null : ds.size())
                .setTokenizer(plan.requestPlan().tokenizer())
                .setInputTokensMean(r.inputTokens() == null ? null : r.inputTokens().mean())
                .setInputTokensStddev(r.inputTokens() == null ? null : r.inputTokens().stddev())
                .setOutputTokensMean(r.outputTokens() == null ? null : r.outputTokens().mean())
                .setOutputTokensStddev(r.outputTokens() == null ? null : r.outputTokens().stddev());
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
                .setCompletedAtEpochMs(System.currentTimeMillis())
                .build();
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
                .setCompletedAtEpochMs(System.currentTimeMillis())
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
     * the server metrics scraped during the run.
     *
     * @param wallNs      T0 to the end of the slowest request, ns
     * @param startedAt   UTC start
     * @param finishedAt  UTC end
     * @param sent        request events emitted (the share's)
     * @param interrupted stopped before every planned request ran
     * @param undelivered events not delivered so far
     * @param clientCheck the generator's self-check of the run, or null
     * @param assignment  the share executed, or null for a run sent by one process (the share fields stay null)
     * @param serverMetrics the endpoint's own metrics scraped during the run, or null
     * @return RunFinished
     */
    public RunEvent runFinished(long wallNs, Instant startedAt, Instant finishedAt, int sent, boolean interrupted,
                                long undelivered, ClientCheck clientCheck, ShareAssignment assignment,
                                io.capstream.schemas.avro.ServerMetrics serverMetrics) {
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
                .setServerMetrics(serverMetrics)
                .build();
        return wrap(rf);
    }
}
