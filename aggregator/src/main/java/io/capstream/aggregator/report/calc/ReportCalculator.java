package io.capstream.aggregator.report.calc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.artifact.AvroRecordJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.ServeFlags;
import io.capstream.schemas.avro.SweepStep;
import io.capstream.schemas.avro.SweepStepRef;
import io.capstream.schemas.avro.WorkerSummary;
import io.capstream.schemas.report.ReportArtifact;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes one run's {@code anvil-serving.benchmark/v1} report from its events with the reference's
 * exact formulas (spec §6-§9). Pure function: no clock, no I/O, no state; thread-safe.
 *
 * <ul>
 *   <li>Rows: {@link RowCalculator} (§7), sorted by request index; results failing the validity
 *       filter get no row (they still count as completed requests and in the sums). Embeddings and rerank requests
 *       (issue 30) have no first token and no row either, without being listed as invalid; their statistics are
 *       {@link InputsStatistics}'.</li>
 *   <li>Metrics: {@link MetricsCalculator} (§8.2) with {@link io.capstream.schemas.stats.NearestRank} percentiles (§8.1);
 *       the wall clock is {@code RunFinished.wall_clock_s} when present, else
 *       {@code wall_clock_ns / 1e9}; no RunFinished means null wall clock, throughput and
 *       content_chunks_s.</li>
 *   <li>Label (§8.3): {@code capacity-v4-reasoning} when the successful requests streamed any
 *       reasoning chunk, else {@code capacity-v3}.</li>
 *   <li>Failures (§6): sorted by request index; entries without a message have only
 *       {@code request_index} and {@code error_type}.</li>
 *   <li>Header (§9.2) from RunStarted: {@code context_distribution} from the plan,
 *       {@code serve_flags} (omitted when {@code serve_flags_present} is false, without
 *       {@code reasoning_effort} when {@code serve_flags_has_reasoning_effort} is false),
 *       {@code timing_methodology} (the seed's wording when RunStarted has none).</li>
 *   <li>capstream's statistics, SLOs, load and timeline ({@code statistics}: {@link StatisticsCalculator};
 *       {@code slo}: {@link SloEvaluator}, only with a {@link RunSloParser} and SLOs in RunStarted;
 *       {@code load}: {@link LoadHealthCalculator}; {@code sweep}: RunStarted.sweep; {@code run}: the run's settings
 *       ({@link RunSettingsCopy});
 *       {@code timeline}: {@link TimelineCalculator}; {@code workers} and {@code clock_offset_spread_ms}:
 *       {@link WorkersCalculator}, from {@link RunData#workers()}; {@code server_metrics}:
 *       {@link ServerMetricsCalculator}, from {@link RunData#serverScrapes()}), written under
 *       the artifact's {@value io.capstream.schemas.report.ReportArtifact#CAPSTREAM_KEY} key; the anvil
 *       keys are unchanged.</li>
 *   <li>{@code artifact_json}: the exact artifact text ({@link ArtifactJson#write}); everything
 *       capstream adds is under the single top-level key {@value io.capstream.schemas.report.ReportArtifact#CAPSTREAM_KEY}.</li>
 * </ul>
 *
 * <p>Completeness: the report says {@code complete = false} when RunFinished is missing, when a
 * planned request index has no event, or when the caller's provenance says so; missing indices are
 * the union of the caller's and those computed from the plan. The turns a conversation did not send because it
 * ended early ({@link UnsentTurns}) are not missing; they are left out of {@code requests} and
 * {@code context_distribution}, so that {@code requests = completed + failed} holds (§9.2), plus the requests the
 * client cancelled on purpose (issue 30, {@code --cancel-rate}): they are present (not missing) and requests of the
 * run, but neither completed nor failed (not in {@code failures}, {@code failed}, the SLOs' error rate or any latency
 * percentile); {@code cancelled} ({@link CancelledCalculator}) counts them.
 *
 * <p>Conversations ({@code sessions}, issue 29): {@link SessionsCalculator}, null for single-turn runs.
 */
public final class ReportCalculator {
    /** The one top-level artifact key holding capstream's additions. */
    public static final String CAPSTREAM_KEY = ReportArtifact.CAPSTREAM_KEY;
    /** The artifact schema. */
    public static final String SCHEMA = "anvil-serving.benchmark/v1";
    /** Label of runs without reasoning chunks. */
    public static final String PROTOCOL_V3 = "capacity-v3";
    /** Label of runs whose successful requests streamed reasoning. */
    public static final String PROTOCOL_V4_REASONING = "capacity-v4-reasoning";

    private ReportCalculator() {
    }

    /**
     * Computes the report without evaluating SLOs ({@code slo} is null); see
     * {@link #compute(RunData, RunSloParser)}.
     *
     * @param data the run's events (duplicates removed by the caller, any order), not null
     * @return the typed report with {@code artifact_json} set to the exact artifact text (§9.1)
     * @throws IllegalArgumentException when a computed number is NaN or infinite (cannot be written)
     */
    public static BenchmarkReport compute(RunData data) {
        return compute(data, null);
    }

    /**
     * Computes the report, evaluating the run's SLOs ({@code RunStarted.slos}) with the given grammar.
     *
     * @param data the run's events (duplicates removed by the caller, any order), not null
     * @param sloParser the SLO grammar ({@code io.capstream.aggregator.slo.ReportSlos::parse}); null
     *     leaves {@code slo} null whatever the run's SLOs
     * @return the typed report with {@code artifact_json} set to the exact artifact text (§9.1)
     * @throws IllegalArgumentException when a computed number is NaN or infinite (cannot be written)
     */
    public static BenchmarkReport compute(RunData data, RunSloParser sloParser) {
        RunStarted st = data.started();
        RunFinished fin = data.finished();

        List<RequestCompleted> successes = new ArrayList<>(data.completed());
        successes.sort(Comparator.comparingInt(RequestCompleted::getRequestIndex));
        List<RequestFailed> ended = new ArrayList<>(data.failed());
        ended.sort(Comparator.comparingInt(RequestFailed::getRequestIndex));
        // requests the client cancelled on purpose (issue 30) are their own kind: not failures, in no percentile,
        // but present (not missing), requests of the run, and in its load, timeline and conversations
        List<RequestFailed> failures = new ArrayList<>(ended.size());
        List<RequestFailed> cancels = new ArrayList<>();
        for (RequestFailed f : ended) {
            (CancelledCalculator.isCancelled(f) ? cancels : failures).add(f);
        }

        List<RequestTiming> rows = new ArrayList<>(successes.size());
        List<Integer> invalid = new ArrayList<>();
        for (RequestCompleted c : successes) {
            RequestTiming r = RowCalculator.timing(c);
            if (r == null) {
                if (!InputsStatistics.nonStreamed(c)) { // embeddings and rerank have no row: no first token
                    invalid.add(c.getRequestIndex());
                }
            } else {
                rows.add(r);
            }
        }
        Double wallS = fin == null ? null : (fin.getWallClockS() != null ? fin.getWallClockS() : fin.getWallClockNs() / 1e9);
        Metrics m = MetricsCalculator.compute(rows, successes, wallS);
        String protocol = m.getReasoningChunks() > 0 ? PROTOCOL_V4_REASONING : PROTOCOL_V3;

        boolean boundedByWhatRan = ranFewerThanPlanned(st, fin);
        int planned = st == null || boundedByWhatRan
                ? (boundedByWhatRan ? successes.size() + ended.size() : highestIndex(successes, ended) + 1)
                : st.getRequests();
        BitSet unsent = UnsentTurns.of(successes, ended, planned);
        for (RequestCompleted c : successes) {
            unsent.clear(c.getRequestIndex());
        }
        for (RequestFailed f : ended) {
            unsent.clear(f.getRequestIndex());
        }
        // turns of conversations that ended early were never sent: not missing, and not requests of the run
        int requests = boundedByWhatRan ? planned : planned - unsent.cardinality();
        // a run a stop rule ended (issue 30): the indices it did not send are not missing; whether every request
        // it sent arrived is the caller's provenance (RunCollector: the workers' requests_sent)
        boolean stopped = fin != null && fin.getStopped() != null;
        Provenance prov = provenance(data, stopped ? 0 : planned, unsent, successes, ended, invalid);

        List<FailureEntry> failureEntries = new ArrayList<>(failures.size());
        for (RequestFailed f : failures) {
            Boolean truncated = f.getErrorMessage() == null ? null : Boolean.TRUE.equals(f.getErrorMessageTruncated());
            failureEntries.add(FailureEntry.newBuilder().setRequestIndex(f.getRequestIndex())
                    .setErrorType(f.getErrorType()).setErrorMessage(f.getErrorMessage())
                    .setErrorMessageTruncated(truncated).build());
        }
        boolean flagsPresent = st != null && st.getServeFlagsPresent();
        ServeFlags flags = !flagsPresent ? null : ServeFlags.newBuilder().setSharedPrefixBurst(st.getSharedPrefixBurst())
                .setNoThinking(st.getNoThinking()).setThinkingMode(st.getThinkingMode())
                .setReasoningEffort(st.getReasoningEffort()).build();
        Map<String, WorkerSummary> workers = WorkersCalculator.compute(st, data.workers());
        Map<String, String> methodology = st != null && st.getTimingMethodology() != null
                ? new TreeMap<>(st.getTimingMethodology()) : new TreeMap<>(TimingMethodology.CURRENT);

        BenchmarkReport report = BenchmarkReport.newBuilder()
                .setSchema$(st != null && st.getSchema$() != null ? st.getSchema$() : SCHEMA)
                .setMeasurementProtocol(protocol)
                .setRunId(data.runId())
                .setStartedAt(fin != null ? fin.getStartedAt() : (st != null ? st.getStartedAt() : null))
                .setFinishedAt(fin != null ? fin.getFinishedAt() : null)
                .setWallClockMs(wallS == null ? null : wallS * 1000.0)
                .setBaseUrl(st != null ? st.getBaseUrl() : "")
                .setModel(st != null ? st.getModel() : "")
                .setEngine(st == null ? null : st.getEngine())
                .setGpu(st == null ? null : st.getGpu())
                .setTier(st == null ? null : st.getTier())
                .setManifest(st == null ? null : st.getManifest())
                .setSourceRecipe(st == null ? null : st.getSourceRecipe())
                .setRequests(requests)
                .setCompleted(successes.size())
                .setFailed(failures.size())
                .setFailures(failureEntries)
                .setConcurrency(st != null ? st.getConcurrency() : 0)
                .setContextTokens(st == null ? null : st.getContextTokens())
                .setContextSeed(st == null ? null : st.getContextSeed())
                .setContextDistribution(contextDistribution(boundedByWhatRan ? null : st, unsent, successes, ended))
                .setMaxContextTokens(st == null ? null : st.getMaxContextTokens())
                .setMaxTokens(st != null ? st.getMaxTokens() : 0)
                .setServeFlags(flags)
                .setTimingMethodology(methodology)
                .setRequestTimings(rows)
                .setMetrics(m)
                .setProvenance(prov)
                .setArtifactJson("")
                .setStatistics(StatisticsCalculator.compute(rows, successes, m, wallS))
                .setSlo(st == null || sloParser == null ? null : SloEvaluator.evaluate(st.getSlos(), sloParser, rows,
                        successes.size(), failures.size(), m, wallS))
                .setLoad(LoadHealthCalculator.compute(st, successes, ended, fin))
                .setSweep(st == null ? null : sweep(st.getSweep()))
                .setTimeline(TimelineCalculator.compute(st, successes, ended))
                .setWorkers(workers)
                .setClockOffsetSpreadMs(WorkersCalculator.clockOffsetSpreadMs(workers))
                .setServerMetrics(ServerMetricsCalculator.forRun(st, fin, data))
                .setRun(RunSettingsCopy.of(st))
                .setSessions(SessionsCalculator.compute(successes, ended))
                .setStopped(StopReports.of(st, fin, successes.size() + ended.size(), data.workers()))
                .setCancelled(CancelledCalculator.compute(cancels))
                .build();
        boolean reasoningEffortKey = flagsPresent && st.getServeFlagsHasReasoningEffort();
        ObjectNode root = ReportArtifact.toArtifact(report, reasoningEffortKey, capstreamJson(st, fin, invalid));
        report.setArtifactJson(ArtifactJson.write(root));
        return report;
    }

    /** {@code BenchmarkReport.sweep}: a copy of {@code RunStarted.sweep}, field by field; null for a single run. */
    private static SweepStepRef sweep(SweepStep step) {
        if (step == null) {
            return null;
        }
        return SweepStepRef.newBuilder().setSweepId(step.getSweepId()).setStep(step.getStep()).setAxis(step.getAxis())
                .setValue(step.getValue()).setMode(step.getMode()).setRepeat(step.getRepeat())
                .setStepsPlanned(step.getStepsPlanned()).build();
    }

    private static int highestIndex(List<RequestCompleted> ok, List<RequestFailed> failed) {
        int max = -1;
        for (RequestCompleted c : ok) {
            max = Math.max(max, c.getRequestIndex());
        }
        for (RequestFailed f : failed) {
            max = Math.max(max, f.getRequestIndex());
        }
        return max;
    }

    /**
     * Whether the run's plan is only an upper bound: a time-bounded run ({@code --duration}) or one
     * stopped early (RunFinished.interrupted, or a stop rule: RunFinished.stopped). Such a report counts the requests
     * that ran, so that
     * {@code requests = completed + failed} and the distribution sums to {@code requests} (§9.2
     * invariants) and the unplanned tail is not reported as missing.
     */
    private static boolean ranFewerThanPlanned(RunStarted st, RunFinished fin) {
        return st != null && fin != null && (st.getDurationS() != null || fin.getInterrupted()
                || fin.getStopped() != null);
    }

    /**
     * {@code context_distribution} (§3.1): the plan's clamped values counted by decimal string, without the
     * turns of conversations that ended early (so that it sums to {@code requests}); when RunStarted (or its plan)
     * is missing, the planned contexts of the events that arrived.
     */
    static Map<String, Integer> contextDistribution(RunStarted st, BitSet unsent, List<RequestCompleted> ok,
                                                    List<RequestFailed> failed) {
        Map<String, Integer> dist = new TreeMap<>();
        if (st != null && st.getPlannedContextTokens() != null && !st.getPlannedContextTokens().isEmpty()) {
            List<Integer> plan = st.getPlannedContextTokens();
            for (int i = 0; i < plan.size(); i++) {
                if (!unsent.get(i)) {
                    dist.merge(Integer.toString(plan.get(i)), 1, Integer::sum);
                }
            }
            return dist;
        }
        for (RequestCompleted c : ok) {
            dist.merge(Integer.toString(c.getPlannedContextTokens()), 1, Integer::sum);
        }
        for (RequestFailed f : failed) {
            dist.merge(Integer.toString(f.getPlannedContextTokens()), 1, Integer::sum);
        }
        return dist;
    }

    /**
     * @param requests the planned indices 0..requests-1
     * @param unsent   planned indices never sent (their conversation ended early): not missing
     */
    private static Provenance provenance(RunData data, int requests, BitSet unsent, List<RequestCompleted> ok,
                                         List<RequestFailed> failed, List<Integer> invalid) {
        Provenance in = data.provenance() != null ? data.provenance() : defaultProvenance(data.started());
        BitSet present = (BitSet) unsent.clone();
        for (RequestCompleted c : ok) {
            present.set(c.getRequestIndex());
        }
        for (RequestFailed f : failed) {
            present.set(f.getRequestIndex());
        }
        TreeSet<Integer> missing = new TreeSet<>(in.getMissingRequestIndices());
        for (int i = present.nextClearBit(0); i < requests; i = present.nextClearBit(i + 1)) {
            missing.add(i);
        }
        boolean finishedSeen = data.finished() != null && in.getRunFinishedSeen();
        boolean complete = in.getComplete() && missing.isEmpty() && finishedSeen && data.started() != null;
        return Provenance.newBuilder(in)
                .setComplete(complete)
                .setMissingRequestIndices(new ArrayList<>(missing))
                .setRunFinishedSeen(finishedSeen)
                .build();
    }

    /** Provenance when the caller gives none: the kind follows RunStarted.origin (import, replay:ID, live). */
    private static Provenance defaultProvenance(RunStarted st) {
        String origin = st == null ? null : st.getOrigin();
        ReportKind kind = ReportKind.LIVE;
        String replayOf = null;
        if (origin != null && origin.startsWith("replay:")) {
            kind = ReportKind.REPLAY;
            replayOf = origin.substring("replay:".length());
        } else if ("import".equals(origin)) {
            kind = ReportKind.IMPORTED;
        }
        return Provenance.newBuilder().setKind(kind).setReplayOf(replayOf)
                .setSourceFile(st == null ? null : st.getSourceFile()).build();
    }

    /** capstream's additions besides provenance and the report's capstream fields ({@link ReportArtifact} maps them). */
    private static ObjectNode capstreamJson(RunStarted st, RunFinished fin, List<Integer> invalid) {
        ObjectNode c = ArtifactJson.nodes().objectNode();
        ArrayNode inv = c.putArray("invalid_timing_request_indices");
        invalid.forEach(inv::add);
        if (fin != null) {
            c.put("interrupted", fin.getInterrupted());
            c.put("events_undelivered", fin.getEventsUndelivered());
            if (fin.getClientCheck() != null) {
                // the generator's raw inputs (ClientCheckCalculator computed the statistics from them) stay out
                ClientCheck raw = ClientCheck.newBuilder(fin.getClientCheck()).setDelayHistogram(null).build();
                c.set("client", AvroRecordJson.toObject(raw).remove(List.of("delay_histogram", "target_local")));
            }
        }
        if (st != null) {
            c.put("origin", st.getOrigin());
            c.put("capstream_version", st.getCapstreamVersion());
        }
        return c;
    }
}
