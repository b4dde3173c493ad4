package io.capstream.cli.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.FailureEntry;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.LoadStage;
import io.capstream.schemas.avro.SteadyState;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.WorkerSummary;
import io.capstream.schemas.report.ReportView;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders the readable summary of a typed capacity report (spec §8, §9): run, target, completed and
 * failed counts with the concurrency (an open loop's max in flight), the workers of a run sent by more than one (their request counts, those that did
 * not finish, the spread of their clock offsets), the p50/p95/p99 lines of {@link ReportView#SUMMARY_PERCENTILES} (ms, tokens/s, tokens;
 * p99 and the per-token inter-chunk latency from {@code statistics}; each with its 95% interval, {@link PercentileTable}), throughput (tokens/s), request
 * throughput (req/s) and total token throughput, and the measurement protocol label; then, when the
 * report has them, the conversations with their by-turn table ({@link SessionsSummary}), one line per SLO with its attainment, the goodput, the load health (offered,
 * scheduled and achieved rate and client queue time in an open loop, achieved concurrency in a closed
 * one; issue 30: the achieved against the configured inter-arrival CV, offered/achieved rate per --rate-schedule
 * stage and the steady-state view) and a warning when the run fell behind its arrival schedule; the generator's self-check, then
 * the failures counted per error type and HTTP status with the error rate and a few examples
 * ({@link FailureSummary}). Missing values print as {@code -}.
 */
public final class SummaryTable {
    private static final int MAX_WORKERS_SHOWN = 8;

    private SummaryTable() {
    }

    /**
     * @param report the typed report; never null. A chunked report's record has no failure entries
     *     (they are in its artifact): they are then counted from {@code artifact_json} when it holds the
     *     assembled artifact, else the {@code failures} line points to the report file.
     * @param client the generator's self-check of the run ({@code capstream.client}), or null when
     *     there is none (imports, replays)
     * @return the table text, lines ending in {@code \n}
     */
    public static String render(BenchmarkReport report, ClientCheck client) {
        StringBuilder sb = new StringBuilder();
        Metrics m = report.getMetrics();
        line(sb, "run", text(report.getRunId()));
        line(sb, "target", text(report.getBaseUrl()) + "  model " + text(report.getModel())
                + "  engine " + text(report.getEngine()));
        line(sb, "protocol", text(report.getMeasurementProtocol()));
        boolean open = report.getLoad() != null && !ReportView.CLOSED_LOOP_ARRIVAL.equals(report.getLoad().getArrival());
        line(sb, "requests", report.getRequests() + "  completed " + report.getCompleted() + "  failed "
                + zeroIfNull(report.getFailed()) + (open ? "  max in flight " : "  concurrency ") + report.getConcurrency());
        sb.append(RunCountNotes.render(report));
        line(sb, "wall clock", fmt(report.getWallClockMs(), " ms"));
        String stop = stopped(report.getStopped());
        if (stop != null) {
            line(sb, "STOPPED", stop);
        }
        workers(sb, report.getWorkers(), report.getClockOffsetSpreadMs());
        sb.append('\n');
        RunStatistics stats = report.getStatistics();
        if (InputsSummary.applies(stats)) { // embeddings, rerank: request latency and inputs/s instead
            sb.append(InputsSummary.render(stats));
        } else {
            generation(sb, m, stats, report.getCompleted());
        }
        if (m.getPrefixCacheHitAvg() != null) {
            line(sb, "prefix cache hit", String.format(Locale.ROOT, "%.1f %%", m.getPrefixCacheHitAvg() * 100));
        }
        serverTtft(sb, stats);
        images(sb, report.getRun());
        sb.append(SessionsSummary.render(report.getSessions()));
        serverMetrics(sb, report.getServerMetrics());
        slo(sb, report.getSlo());
        load(sb, report.getLoad(), report.getRequests(),
                report.getSessions() == null ? null : report.getSessions().getConversations());
        clientCheck(sb, client);
        failures(sb, report);
        return sb.toString();
    }

    /** The percentile table, throughput (then the {@link UsageWarning}, if any) and requests/s of a generation run. */
    private static void generation(StringBuilder sb, Metrics m, RunStatistics stats, int completed) {
        PercentileTable table = new PercentileTable();
        for (ReportView.PercentileLine p : ReportView.SUMMARY_PERCENTILES) {
            Distribution d = ReportView.distribution(stats, p.distribution());
            Double p50 = p.p50Field() != null ? ReportView.metric(m, p.p50Field()) : d == null ? null : d.getP50();
            Double p95 = p.p95Field() != null ? ReportView.metric(m, p.p95Field()) : d == null ? null : d.getP95();
            table.row(p.label(), new Double[] {p50, p95, d == null ? null : d.getP99()}, d);
        }
        sb.append(table.render()).append('\n');
        line(sb, "throughput", fmt(m.getThroughputTokS(), " tok/s") + "  (output tokens "
                + text(m.getOutputTokens()) + ")");
        String noUsage = UsageWarning.of(m, completed);
        if (noUsage != null) {
            sb.append("warning: ").append(noUsage).append('\n');
        }
        if (stats != null) {
            line(sb, ReportView.REQUESTS_PER_S_LABEL, fmt(stats.getRequestThroughputRps(), " req/s")
                    + "  (total tokens " + fmt(stats.getTotalTokenThroughputTokS(), " tok/s") + ")");
        }
    }

    /**
     * One line for a run with more than one worker: their number, each worker's requests (by worker
     * id, the first {@value #MAX_WORKERS_SHOWN}), the workers whose RunFinished did not arrive, and
     * the spread of their clock offsets when known, e.g.
     * {@code workers           3 (w1 100, w2 100, w3 100 requests; clock offsets within 1.8 ms)}.
     * Nothing for one worker or none (imports).
     */
    private static void workers(StringBuilder sb, Map<String, WorkerSummary> workers, Double spreadMs) {
        if (workers == null || workers.size() < 2) {
            return;
        }
        StringBuilder list = new StringBuilder();
        List<String> unfinished = new ArrayList<>();
        int shown = 0;
        for (Map.Entry<String, WorkerSummary> w : new TreeMap<>(workers).entrySet()) {
            if (!w.getValue().getRunFinished()) {
                unfinished.add(w.getKey());
            }
            if (shown++ < MAX_WORKERS_SHOWN) {
                list.append(list.length() == 0 ? "" : ", ").append(w.getKey()).append(' ')
                        .append(w.getValue().getRequests());
            }
        }
        if (shown > MAX_WORKERS_SHOWN) {
            list.append(", ").append(shown - MAX_WORKERS_SHOWN).append(" more");
        }
        list.append(" requests");
        if (!unfinished.isEmpty()) {
            list.append("; no RunFinished from ").append(unfinished.size() > MAX_WORKERS_SHOWN
                    ? unfinished.size() + " workers" : String.join(", ", unfinished));
        }
        if (spreadMs != null) {
            list.append(String.format(Locale.ROOT, "; clock offsets within %.1f ms", spreadMs));
        }
        line(sb, "workers", workers.size() + " (" + list + ")");
    }

    /**
     * One line when the endpoint's metrics were scraped: the scrapes, and the max of the queue and KV-cache series
     * it has, e.g. {@code server metrics    14 scrapes: requests_running max 4, requests_waiting max 0}.
     */
    private static void serverMetrics(StringBuilder sb, io.capstream.schemas.avro.ServerMetrics sm) {
        if (sm == null) {
            return;
        }
        StringBuilder v = new StringBuilder(sm.getScrapes() + " scrapes");
        if (sm.getFailedScrapes() > 0) {
            v.append(" (").append(sm.getFailedScrapes()).append(" failed: ").append(sm.getFirstError()).append(')');
        }
        List<String> parts = new java.util.ArrayList<>();
        for (String name : List.of("requests_running", "requests_waiting", "kv_cache_usage")) {
            io.capstream.schemas.avro.ServerSeries s = sm.getSeries().get(name);
            if (s != null) {
                parts.add(name + " max " + (s.getMax() == Math.rint(s.getMax()) ? num0(s.getMax()) : String.format(
                        Locale.ROOT, "%.2f", s.getMax())));
            }
        }
        if (!parts.isEmpty()) {
            v.append(": ").append(String.join(", ", parts));
        }
        line(sb, "server metrics", v.toString());
    }

    /**
     * The failures as counts per error type and HTTP status with the error rate and a few examples
     * ({@link FailureSummary}). A chunked report's record has no failure entries: they are read from its
     * artifact when the record carries it (a run's report, assembled from its chunks), else the line says they are
     * in the report file.
     */
    private static void failures(StringBuilder sb, BenchmarkReport report) {
        List<FailureEntry> failures = report.getFailures();
        if (failures.isEmpty() && zeroIfNull(report.getFailed()) > 0 && report.getArtifactChunks() > 0) {
            failures = artifactFailures(report.getArtifactJson());
        }
        sb.append(FailureSummary.render(failures, report));
    }

    /** @return the failure entries of an artifact's {@code failures} array; empty when the text has none or is empty */
    private static List<FailureEntry> artifactFailures(String artifactJson) {
        if (artifactJson == null || artifactJson.isEmpty()) {
            return List.of();
        }
        try {
            return ArtifactRecords.failures(io.capstream.schemas.artifact.ArtifactJson.parse(artifactJson));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return List.of();
        }
    }

    /**
     * The generator's self-check: event-loop delay, CPU, GC, achieved concurrency, client queueing
     * and warm-up, then one warning line when the client may have distorted the numbers. Nothing
     * when there is no self-check.
     */
    private static void clientCheck(StringBuilder sb, ClientCheck c) {
        if (c == null) {
            return;
        }
        line(sb, "client check", String.format(Locale.ROOT, "loop delay p50 %s / p99 %s / max %s ms, CPU process %s ms,"
                        + " event loops %s ms (%s per 1,000 chunks), GC pauses %d (max %.1f ms)",
                num(c.getDelayP50Ms()), num(c.getDelayP99Ms()), num(c.getDelayMaxMs()),
                num0(c.getCpuProcessMs()), num0(c.getCpuEventLoopsMs()), num(c.getCpuMsPer1000Chunks()),
                c.getGcPauses(), c.getGcPauseMaxMs()));
        line(sb, "", String.format(Locale.ROOT, "achieved concurrency %s (max %d), client queue before t0 p99 %s ms,"
                        + " warm-up %,d loopback + %d target requests, events %s",
                num(c.getInFlightMean()), c.getInFlightMax(), num(c.getQueueP99Ms()),
                c.getWarmupLoopbackRequests(), c.getWarmupTargetRequests(),
                c.getEventDelivery() == null ? "live" : c.getEventDelivery()));
        if (c.getDistorted()) {
            StringBuilder w = new StringBuilder();
            if (c.getWarnings() != null) {
                c.getWarnings().forEach(x -> w.append(w.length() == 0 ? "" : "; ").append(x));
            }
            sb.append("warning: the client may have distorted these numbers: ").append(w).append('\n');
        }
    }

    /**
     * One line per SLO ({@code observed ... met} or {@code MISSED}, with the attainment of percentile
     * SLOs), then the goodput: share of requests meeting every percentile SLO, and good requests per
     * second. Nothing when the run had no SLOs.
     */
    private static void slo(StringBuilder sb, SloReport slo) {
        if (slo == null) {
            return;
        }
        for (SloAttainment a : slo.getSlos()) {
            String observed = a.getObserved() == null ? "-"
                    : String.format(Locale.ROOT, ReportView.FRACTION_SLO_METRICS.contains(a.getMetric()) ? "%.3f" : "%.1f",
                    a.getObserved());
            String attainment = a.getAttainment() == null ? ""
                    : String.format(Locale.ROOT, "  (attainment %.1f %%)", a.getAttainment() * 100);
            line(sb, ReportView.SLO_LABEL, a.getSlo() + "  observed " + observed + "  " + (a.getMet() ? "met" : "MISSED")
                    + attainment);
        }
        line(sb, ReportView.GOODPUT_LABEL, (slo.getGoodput() == null ? "-"
                : String.format(Locale.ROOT, "%.2f", slo.getGoodput())) + " (" + slo.getGoodRequests() + " of "
                + slo.getRequests() + " requests), " + fmt(slo.getGoodputRps(), " req/s"));
    }

    /**
     * Offered against achieved load: in an open loop the offered, scheduled and achieved rates and the
     * client queue time; in a closed loop the achieved concurrency of the configured slots, and the
     * bound when fewer requests were planned than slots. Then one warning line when the run fell behind
     * its arrival schedule. Nothing without load health.
     *
     * <p>In a run of conversations (issue 29) the offered rate is conversations started per second and the slots hold
     * conversations (through their think times), while scheduled, achieved and in-flight count requests: the line
     * says so.
     *
     * @param requests      the run's planned requests
     * @param conversations the run's conversations ({@code capstream.sessions}), or null for single requests
     */
    private static void load(StringBuilder sb, LoadHealth load, int requests, Integer conversations) {
        if (load == null) {
            return;
        }
        if (!ReportView.CLOSED_LOOP_ARRIVAL.equals(load.getArrival())) {
            String rates = conversations == null
                    ? "offered " + fmt(load.getOfferedRateRps(), " req/s") + ", scheduled "
                    + num(load.getScheduledRateRps()) + ", achieved " + fmt(load.getAchievedRateRps(), " req/s")
                    : "offered " + fmt(load.getOfferedRateRps(), " conversations/s") + " (requests: scheduled "
                    + num(load.getScheduledRateRps()) + ", achieved " + fmt(load.getAchievedRateRps(), " req/s") + ")";
            line(sb, ReportView.LOAD_LABEL, rates + "; client queue p50/p99/max " + num(load.getQueueP50Ms()) + "/"
                    + num(load.getQueueP99Ms()) + "/" + num(load.getQueueMaxMs()) + " ms");
        } else {
            Integer slots = load.getOfferedConcurrency();
            int units = conversations == null ? requests : conversations;
            String unit = conversations == null ? " requests" : " conversations";
            line(sb, ReportView.LOAD_LABEL, "achieved concurrency " + num(load.getAchievedConcurrency()) + " of "
                    + text(slots) + (conversations == null ? "" : " (requests in flight; a slot holds a conversation"
                    + " through its think times)") + (slots != null && units < slots
                    ? " (at most " + units + ": the run has " + units + unit + ")" : ""));
        }
        loadShape(sb, load);
        if (load.getBehindSchedule()) {
            sb.append("warning: the run fell behind its arrival schedule (achieved ").append(num(load.getAchievedRateRps()))
                    .append(" of ").append(num(load.getScheduledRateRps())).append(" req/s, client queue up to ")
                    .append(num0(load.getQueueMaxMs())).append(" ms): latencies understate the load")
                    .append(ReportView.heldByInFlightCap(load) ? ReportView.inFlightCapHint(load) : "").append('\n');
        }
    }

    /**
     * Issue 30's load lines, each only when the report has it: the achieved inter-arrival CV against the configured
     * one (open loops), offered vs achieved rate per {@code --rate-schedule} stage, and the steady-state view.
     */
    private static void loadShape(StringBuilder sb, LoadHealth load) {
        boolean open = !ReportView.CLOSED_LOOP_ARRIVAL.equals(load.getArrival());
        if (load.getInterarrivalCv() != null && (open || load.getConfiguredInterarrivalCv() != null)) {
            line(sb, "arrivals", String.format(Locale.ROOT, "inter-arrival CV %.2f (configured %s)",
                    load.getInterarrivalCv(), load.getConfiguredInterarrivalCv() == null ? "-"
                            : String.format(Locale.ROOT, "%.2f", load.getConfiguredInterarrivalCv())));
        }
        if (load.getStages() != null && !load.getStages().isEmpty()) {
            StringBuilder st = new StringBuilder();
            for (LoadStage stage : load.getStages()) {
                st.append(st.length() == 0 ? "" : "; ").append(num0(stage.getStartS())).append('-')
                        .append(num0(stage.getEndS())).append(" s ").append(num(stage.getOfferedRateRps()))
                        .append('/').append(num(stage.getAchievedRateRps()));
            }
            line(sb, "stages", "offered/achieved req/s: " + st);
        }
        SteadyState ss = load.getSteadyState();
        if (ss != null) {
            line(sb, "steady state", fmt(ss.getRequestThroughputRps(), " req/s") + ", output "
                    + fmt(ss.getOutputThroughputTokS(), " tok/s") + ", concurrency " + num(ss.getAchievedConcurrency())
                    + ", TTFT p50/p95 " + num(ss.getTtftP50Ms()) + "/" + num(ss.getTtftP95Ms()) + " ms; "
                    + String.format(Locale.ROOT, "%.1f-%.1f s", ss.getStartS(), ss.getEndS()) + ", "
                    + ss.getRequests() + " requests (" + ss.getRule() + ")");
        }
    }

    /** Issue 30: {@code images  4 per user message, 1024x1024, png} for a run with {@code --images}. */
    private static void images(StringBuilder sb, io.capstream.schemas.avro.RunSettings run) {
        if (run != null && run.getImages() != null && run.getImages() > 0) {
            line(sb, "images", run.getImages() + " per user message, " + text(run.getImageSizes()) + ", "
                    + text(run.getImageFormat()));
        }
    }

    /**
     * The server's own TTFT next to the client's (issue 33), e.g. {@code server TTFT  p50 91.4 / p95 165.3 ms
     * (20 requests); client's first output minus server p50 12.3 / p95 40.1 ms}: the difference is against the
     * time to first output (TTFO, reasoning included), not the content TTFT; nothing when no response carried one.
     */
    private static void serverTtft(StringBuilder sb, RunStatistics stats) {
        if (stats == null || stats.getServerTtftMs() == null || stats.getServerTtftMs().getCount() == 0) {
            return;
        }
        Distribution server = stats.getServerTtftMs();
        Distribution diff = stats.getClientMinusServerTtftMs();
        line(sb, "server TTFT", "p50 " + num(server.getP50()) + " / p95 " + num(server.getP95()) + " ms ("
                + server.getCount() + " requests); client's first output minus server p50 "
                + (diff == null ? "-" : num(diff.getP50())) + " / p95 " + (diff == null ? "-" : num(diff.getP95()))
                + " ms");
    }

    private static int zeroIfNull(Integer v) {
        return v == null ? 0 : v;
    }

    private static String num(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String num0(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /**
     * @param s the report's {@code capstream.stopped}, or null
     * @return e.g. {@code by max_error_rate at 2.31 s: 26 of the last 50 requests failed (52%), over the 50% limit;
     *         52 requests had ended, 1,948 planned were not sent}; null when the run was not stopped
     */
    public static String stopped(io.capstream.schemas.avro.StopReport s) {
        if (s == null) {
            return null;
        }
        return String.format(Locale.ROOT, "by %s at %.2f s: %s; %,d requests had ended%s%s", s.getRule(),
                s.getAtMs() / 1000, s.getDetail(), s.getRequestsEnded(), s.getRequestsNotSent() == null ? ""
                        : String.format(Locale.ROOT, ", %,d planned were not sent", s.getRequestsNotSent()),
                s.getWorkersStopped() > 1 ? " (" + s.getWorkersStopped() + " workers stopped)" : "");
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, value));
    }

    private static String fmt(Double v, String unit) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f%s", v, unit);
    }

    private static String text(Object v) {
        return v == null ? "-" : v.toString();
    }
}
