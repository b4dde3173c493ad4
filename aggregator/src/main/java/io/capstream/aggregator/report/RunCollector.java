package io.capstream.aggregator.report;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.aggregator.report.calc.ScrapeSample;
import io.capstream.aggregator.report.calc.UnsentTurns;
import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects the events of each run and publishes its {@link BenchmarkReport} (key run id) once
 * RunStarted, every expected RunFinished and every request index 0..n-1 are in (any arrival
 * order), except the indices a conversation that ended early says it did not send
 * ({@code unsent_turns}, {@link UnsentTurns}): those are not waited for and not missing. Each event is stored once; a second event for the same request index, a second
 * RunStarted or a second RunFinished of the same worker is a duplicate: ignored and counted in
 * {@code provenance.duplicate_events}. A wall-clock punctuator publishes runs that have had no
 * event for {@link ReportTopologyConfig#incompleteDeadline()} as incomplete reports listing the
 * missing request indices. After publishing, the run's events are deleted and a small marker is
 * kept for {@link ReportTopologyConfig#doneRetention()} so late duplicates are dropped; a RunStarted
 * with a new event id starts the run id afresh (e.g. a second import of the same artifact). A run
 * whose RunStarted never arrives is still published at the deadline (incomplete, header fields
 * empty, missing indices = the gaps below the highest index seen).
 *
 * <p>Heartbeats that carry a scrape of the endpoint's metrics ({@code server_samples}) are stored with the
 * run's events (once per event id, in arrival order) and, with the scraping worker's
 * {@code RunFinished.server_scraping}, make the report's {@code server_metrics}; plain heartbeats, and scrapes
 * that arrive after the report, are ignored.
 *
 * <p>The report's {@code workers} ({@link WorkerTally}) count the request events it uses by their
 * envelope {@code worker_id} and take each worker's stored RunFinished: the events store keeps whole
 * events, so this needs no state beyond what was already stored, state written by earlier versions
 * gives the same counts, and a replay (same worker ids) gives the same section.
 *
 * <p>A report is published as {@link ReportChunks} says: one record when it is small, else its
 * artifact in chunks followed by a summary record, all in the same transaction. A run whose report
 * cannot be computed, or whose record would be too large even without its rows, is logged,
 * dead-lettered (key run id, value the reason as UTF-8 text, headers {@code capstream.error.*},
 * {@value ReportTopology#H_ERROR_STAGE} = {@value ReportTopology#STAGE_REPORT} and
 * {@value ReportTopology#H_RUN_ID}) and dropped; processing goes on.
 *
 * <p>Open runs are also held as objects ({@link OpenRun}): the stores get every change (they are what the
 * changelog restores), but the progress is not read back from the store per event and the report is built from the
 * objects, not from a scan of the store. Both stores are written behind, once per commit ({@link ProgressStore},
 * {@link EventsStore}: a run's new events as one batch record, issue 31), so a run published within one commit
 * interval writes no event at all. The open runs' events are held twice in memory (bytes in the store, several
 * hundred bytes per request event as objects); in exchange the stream threads used 14-16% less CPU per event in
 * {@code bench/aggregation}. After a restart or a rebalance the instance starts with no objects,
 * and a run restored from the changelog is loaded from the store when it is next touched.
 */
final class RunCollector implements Processor<String, RunEvent, String, ReportOutput> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCollector.class);
    private static final int MAX_MESSAGE = 2048;

    private final ReportTopologyConfig config;
    private ProcessorContext<String, ReportOutput> context;
    private RunStore store;
    private Cancellable punctuation;
    /** Open runs by run id: the object mirror of the stores (see {@link OpenRun}); emptied on init/close. */
    private final Map<String, OpenRun> openRuns = new HashMap<>();

    RunCollector(ReportTopologyConfig config) {
        this.config = config;
    }

    @Override
    public void init(ProcessorContext<String, ReportOutput> context) {
        this.context = context;
        this.store = new RunStore(context.getStateStore(ReportTopology.PROGRESS_STORE),
                EventsStore.of(context.getStateStore(ReportTopology.EVENTS_STORE)));
        // The stores may have been restored from the changelog: nothing cached may survive that.
        openRuns.clear();
        this.punctuation = context.schedule(config.punctuationInterval(), PunctuationType.WALL_CLOCK_TIME,
                this::onWallClock);
    }

    @Override
    public void process(Record<String, RunEvent> record) {
        RunEvent event = record.value();
        Object payload = event.getPayload();
        if (payload instanceof Heartbeat h && h.getServerSamples().isEmpty()) {
            return; // a plain heartbeat: no part of any run
        }
        long now = context.currentSystemTimeMs();
        String runId = event.getRunId();
        OpenRun run = openRuns.get(runId);
        if (run == null) {
            RunProgress stored = store.storedProgress(runId);
            RunProgress p = stored == null ? RunProgress.empty() : stored;
            if (p.published()) {
                if (payload instanceof Heartbeat) {
                    return; // a scrape after the report: too late to count, and no duplicate
                }
                if (payload instanceof RunStarted && !event.getEventId().equals(p.startedEventId())) {
                    store.deleteRun(runId);
                    p = RunProgress.empty();
                    stored = null;
                } else {
                    p.duplicate();
                    store.putProgress(runId, p);
                    return;
                }
            }
            // A run with progress in the store but not in memory was restored: its events are in the store.
            run = stored == null ? new OpenRun(p) : store.load(runId, p);
            openRuns.put(runId, run);
        }
        RunProgress p = run.progress();
        apply(runId, event, run);
        p.touch(now);
        if (p.ready()) {
            publish(runId, run, now);
        } else {
            store.putProgress(runId, p);
        }
    }

    private void apply(String runId, RunEvent event, OpenRun run) {
        RunProgress p = run.progress();
        Object payload = event.getPayload();
        if (payload instanceof RunStarted s) {
            if (p.started()) {
                p.duplicate();
                if (!event.getEventId().equals(p.startedEventId())) {
                    LOG.warn("run {}: a second RunStarted (event {}, worker {}) while the run is open: two runs share"
                            + " this run id (derived ids have second resolution), and the later one's events are"
                            + " ignored as duplicates; give each run its own --run-id or --run-id-suffix", runId,
                            event.getEventId(), event.getWorkerId());
                }
            } else {
                store.put(runId, event);
                run.started(event);
                p.start(event.getEventId(), s.getRequests(), s.getExpectedWorkers(), s.getDurationS() != null);
            }
        } else if (payload instanceof RequestCompleted c) {
            applyRequest(runId, c.getRequestIndex(), event, run);
        } else if (payload instanceof RequestFailed f) {
            applyRequest(runId, f.getRequestIndex(), event, run);
        } else if (payload instanceof Heartbeat) {
            if (run.scrape(event) >= 0) {
                store.put(runId, event);
            }
        } else if (payload instanceof RunFinished f) {
            String finisher = OpenRun.finisher(event);
            if (run.finished(finisher, event)) {
                store.put(runId, event);
                // a worker a stop rule stopped ended early as an interrupted one did (issue 30)
                p.finish(f.getRequestsSent(), f.getInterrupted() || f.getStopped() != null);
            } else {
                p.duplicate();
            }
        } else {
            LOG.warn("run {}: ignoring event {} with unknown payload {}", runId, event.getEventId(),
                    payload == null ? "null" : payload.getClass().getName());
        }
    }

    /** Stores a request event once per index (the first one wins); indices outside the plan are dropped. */
    private void applyRequest(String runId, int index, RunEvent event, OpenRun run) {
        RunProgress p = run.progress();
        if (index < 0 || (p.started() && index >= p.requests())) {
            LOG.warn("run {}: dropping event {} with request index {} outside the plan 0..{}", runId,
                    event.getEventId(), index, p.requests() - 1);
            return;
        }
        if (p.markRequest(index)) {
            store.put(runId, event);
            run.request(event);
            // a conversation that ended early: its later turns will never come (issue 29)
            p.markUnsent(index, UnsentTurns.of(event.getPayload()));
        } else {
            p.duplicate();
        }
    }

    /** @return the run's scrapes of the endpoint's metrics, in arrival order */
    private static List<ScrapeSample> scrapes(OpenRun run) {
        List<ScrapeSample> out = new ArrayList<>(run.scrapes().size());
        for (RunEvent e : run.scrapes()) {
            Heartbeat h = (Heartbeat) e.getPayload();
            out.add(new ScrapeSample(e.getWorkerId(), e.getEmittedAtMs(), h.getServerTMs(), h.getServerSamples()));
        }
        return out;
    }

    /** Publishes every run past the deadline and forgets published runs past their retention. */
    private void onWallClock(long now) {
        long deadline = config.incompleteDeadline().toMillis();
        long retention = config.doneRetention().toMillis();
        for (Map.Entry<String, RunProgress> e : store.allProgress()) {
            RunProgress p = e.getValue();
            if (p.published()) {
                if (now - p.publishedAtMs() >= retention) {
                    store.deleteRun(e.getKey());
                }
            } else if (now - p.lastEventMs() >= deadline) {
                OpenRun run = openRuns.get(e.getKey());
                publish(e.getKey(), run != null ? run : store.load(e.getKey(), p), now);
            }
        }
    }

    /**
     * Builds the run's data from the open run, computes and forwards the report, deletes the run's
     * events from the store and keeps a published marker.
     */
    private void publish(String runId, OpenRun run, long now) {
        openRuns.remove(runId);
        RunProgress p = run.progress();
        RunEvent startedEvent = run.started();
        List<RunEvent> requestEvents = run.requestsByIndex();
        // the self-check's statistics, per worker, from its raw data and its request events
        List<RunEvent> finishedEvents = io.capstream.aggregator.report.calc.ClientCheckCalculator.computed(
                run.finishedEvents(), requestEvents);
        RunStarted started = startedEvent == null ? null : (RunStarted) startedEvent.getPayload();
        if (started == null) {
            LOG.warn("run {}: no RunStarted after {}; publishing an incomplete report from {} request event(s)",
                    runId, config.incompleteDeadline(), p.received());
        }
        List<RequestCompleted> completed = new ArrayList<>(requestEvents.size());
        List<RequestFailed> failed = new ArrayList<>();
        BitSet present = new BitSet();
        WorkerTally workers = new WorkerTally();
        int limit = started == null ? Integer.MAX_VALUE : Math.max(0, started.getRequests());
        for (RunEvent e : requestEvents) {
            Object payload = e.getPayload();
            int index = OpenRun.requestIndex(e);
            if (index < 0 || index >= limit) {
                LOG.warn("run {}: ignoring request index {} outside the plan 0..{}", runId, index, limit - 1);
                continue;
            }
            present.set(index);
            UnsentTurns.mark(present, index, UnsentTurns.of(payload), limit);
            workers.request(e.getWorkerId(), payload instanceof RequestCompleted);
            if (payload instanceof RequestCompleted c) {
                completed.add(c);
            } else {
                failed.add((RequestFailed) payload);
            }
        }
        run.finishedByWorker().forEach((finisher, ev) -> workers.finished(ev.getWorkerId(), (RunFinished) ev.getPayload()));
        // Without RunStarted the plan size is unknown: indices up to the highest one seen are expected. A
        // time-bounded run that reached its bound ran requests_sent requests (indices are taken in order):
        // the planned ones it had no time for are not missing.
        long ranToBound = p.ranToTimeBound();
        int n = started == null ? present.length()
                : ranToBound >= 0 ? (int) Math.min(limit, Math.max(ranToBound, present.length())) : limit;
        // a run a stop rule ended (issue 30): once every RunFinished is in and every request its workers say they
        // sent has arrived, the planned indices still absent were never sent: not missing
        io.capstream.schemas.avro.RunStop stop = io.capstream.aggregator.report.calc.StopReports.first(
                finishedEvents.stream().map(ev -> (RunFinished) ev.getPayload()).toList());
        if (stop != null && p.allFinished() && p.received() >= p.sentTotal()) {
            n = 0;
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = present.nextClearBit(0); i < n; i = present.nextClearBit(i + 1)) {
            missing.add(i);
        }
        RunFinished finished = finishedEvents.stream()
                .map(ev -> (RunFinished) ev.getPayload())
                .max(Comparator.comparingLong(RunFinished::getFinishedAtEpochMs)
                        .thenComparingLong(RunFinished::getWallClockNs))
                .orElse(null);
        // a distributed run: the client may have distorted the numbers when any worker says so
        Map<String, RunFinished> finishedByWorker = new java.util.TreeMap<>();
        for (RunEvent ev : finishedEvents) {
            RunFinished f = (RunFinished) ev.getPayload();
            String who = finishedByWorker.containsKey(ev.getWorkerId()) && f.getShare() != null
                    ? ev.getWorkerId() + " share " + f.getShare() : ev.getWorkerId();
            finishedByWorker.put(who, f);
        }
        finished = io.capstream.aggregator.report.calc.WorkerClientChecks.withEveryWorkersWarnings(finished,
                finishedByWorker);
        if (finished != null && stop != null && finished.getStopped() != stop) {
            finished = RunFinished.newBuilder(finished).setStopped(stop).build(); // the first rule of any worker
        }
        boolean allFinished = p.allFinished();
        Provenance provenance = Provenance.newBuilder()
                .setKind(Origins.kind(started == null ? null : started.getOrigin()))
                .setReplayOf(Origins.replayedRunId(started == null ? null : started.getOrigin()))
                .setSourceFile(started == null ? null : started.getSourceFile())
                .setComplete(started != null && missing.isEmpty() && allFinished)
                .setMissingRequestIndices(missing)
                .setRunFinishedSeen(allFinished)
                .setGeneratedAtMs(now)
                .setDuplicateEvents(p.duplicates())
                .build();
        ReportChunks.Publication publication;
        try {
            publication = ReportChunks.publication(
                    ReportCalculator.compute(new RunData(runId, started, completed, failed, finished, provenance,
                            workers.events(), scrapes(run)),
                            config.sloParser()));
        } catch (RuntimeException e) {
            // A run whose report cannot be computed or would not fit in a record must not stop the
            // application for every other run: it is logged, dead-lettered and dropped (marked as
            // published, so that its late events are not collected again).
            LOG.error("run {}: cannot publish its report, dead-lettered to {} and dropped: {}", runId,
                    config.dlqTopic(), e.toString(), e);
            context.forward(new Record<>(runId, (ReportOutput) new ReportOutput.DeadLetter(
                    utf8(cut(String.valueOf(e.getMessage())))), now, deadLetterHeaders(runId, e)));
            store.deleteEvents(runId);
            p.markPublished(now);
            store.putProgress(runId, p);
            return;
        }
        // Under exactly-once the report becomes visible when the next transaction commits, within the
        // commit interval (100 ms by default). No commit is requested here: a transaction per report cost
        // 10-17% of the throughput (bench/aggregation) for ~100 ms less latency against a 1 s target.
        // The chunks go first, in the same transaction: a reader that sees the report can read them all.
        for (ReportChunk chunk : publication.chunks()) {
            context.forward(new Record<>(ReportChunks.chunkKey(runId, chunk.getIndex()),
                    (ReportOutput) new ReportOutput.Chunk(chunk), now));
        }
        context.forward(new Record<>(runId, (ReportOutput) new ReportOutput.Report(publication.report()), now));
        if (publication.chunked()) {
            LOG.info("run {}: report published in {} chunks: artifact {} bytes, report record {} bytes, largest chunk"
                            + " record {} bytes", runId, publication.chunks().size(),
                    publication.report().getArtifactBytes(), publication.reportRecordBytes(),
                    publication.largestChunkBytes());
        } else {
            LOG.debug("run {}: report published, record {} bytes", runId, publication.reportRecordBytes());
        }
        store.deleteEvents(runId);
        p.markPublished(now);
        store.putProgress(runId, p);
    }

    /**
     * Headers of a run's dead-letter record: the error, the run id, and the event that completed the
     * run (none when the deadline published it: a punctuation has no source record).
     */
    private Headers deadLetterHeaders(String runId, Throwable error) {
        Headers h = new RecordHeaders();
        h.add(EventsSource.H_ERROR_CLASS, utf8(error.getClass().getName()));
        h.add(EventsSource.H_ERROR_MESSAGE, utf8(cut(String.valueOf(error.getMessage()))));
        h.add(ReportTopology.H_ERROR_STAGE, utf8(ReportTopology.STAGE_REPORT));
        h.add(ReportTopology.H_RUN_ID, utf8(runId));
        context.recordMetadata().filter(m -> m.topic() != null).ifPresent(m -> {
            h.add(EventsSource.H_SOURCE_TOPIC, utf8(m.topic()));
            h.add(EventsSource.H_SOURCE_PARTITION, utf8(Integer.toString(m.partition())));
            h.add(EventsSource.H_SOURCE_OFFSET, utf8(Long.toString(m.offset())));
        });
        return h;
    }

    private static String cut(String s) {
        return s.length() > MAX_MESSAGE ? s.substring(0, MAX_MESSAGE) : s;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (punctuation != null) {
            punctuation.cancel();
        }
        openRuns.clear();
    }
}
