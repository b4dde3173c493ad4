package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One open run as objects, held by {@link RunCollector} next to the state stores so that the hot
 * path neither deserializes the run's progress for every event nor reads the run's events back
 * from the store when the report is built. The stores stay the source of truth (they are what the
 * changelog restores); every change is written to both (to the stores' write-behind buffers, which
 * reach the stores and their changelogs at the next commit).
 *
 * <p>A run first seen by this processor instance starts empty; a run whose state was restored
 * from the changelog (the instance started mid-run) is loaded from the store once
 * ({@link RunStore#load}). Not thread-safe: one instance per stream task.
 */
final class OpenRun {
    private static final Comparator<RunEvent> BY_REQUEST_INDEX = Comparator.comparingInt(OpenRun::requestIndex);

    private final RunProgress progress;
    private RunEvent started;
    private final List<RunEvent> requests = new ArrayList<>();
    private final Map<String, RunEvent> finished = new LinkedHashMap<>(2);
    /** Heartbeats with server samples, in arrival order, and their event ids (a re-sent one is dropped). */
    private final List<RunEvent> scrapes = new ArrayList<>();
    private final java.util.Set<String> scrapeIds = new java.util.HashSet<>();

    /**
     * @param progress the run's progress (this object is updated in place); not null
     */
    OpenRun(RunProgress progress) {
        this.progress = progress;
    }

    RunProgress progress() {
        return progress;
    }

    /** Records the stored RunStarted event. */
    void started(RunEvent event) {
        started = event;
    }

    /** Records a stored request event (RequestCompleted or RequestFailed). */
    void request(RunEvent event) {
        requests.add(event);
    }

    /**
     * Records a scrape of the endpoint's metrics (a Heartbeat with server samples) unless its event id is held.
     *
     * @param event the Heartbeat event
     * @return its 0-based sequence among the run's scrapes in arrival order, or -1 for a duplicate
     */
    int scrape(RunEvent event) {
        if (!scrapeIds.add(event.getEventId())) {
            return -1;
        }
        scrapes.add(event);
        return scrapes.size() - 1;
    }

    /** @return the stored scrape events in arrival order (a live view; do not modify) */
    List<RunEvent> scrapes() {
        return Collections.unmodifiableList(scrapes);
    }

    /**
     * What one RunFinished completes: a worker's run, or for a distributed run one share of it (a worker that
     * ran two shares sends two RunFinished events, both needed).
     *
     * @param event a RunFinished event
     * @return the worker id, plus {@code #share} when the RunFinished names a share
     */
    static String finisher(RunEvent event) {
        Integer share = event.getPayload() instanceof io.capstream.schemas.avro.RunFinished f ? f.getShare() : null;
        return share == null ? event.getWorkerId() : event.getWorkerId() + "#" + share;
    }

    /**
     * Records a RunFinished event unless its finisher's ({@link #finisher}) is already held.
     *
     * @param finisher {@link #finisher} of the event
     * @param event    the RunFinished event
     * @return true when recorded, false for a duplicate
     */
    boolean finished(String finisher, RunEvent event) {
        return finished.putIfAbsent(finisher, event) == null;
    }

    /** @return the stored RunStarted event, or null */
    RunEvent started() {
        return started;
    }

    /** @return the stored request events ordered by request index (sorted in place) */
    List<RunEvent> requestsByIndex() {
        requests.sort(BY_REQUEST_INDEX);
        return requests;
    }

    /** @return the stored RunFinished events, one per worker */
    List<RunEvent> finishedEvents() {
        return new ArrayList<>(finished.values());
    }

    /** @return the stored RunFinished events by {@link #finisher} (a live view; do not modify) */
    Map<String, RunEvent> finishedByWorker() {
        return Collections.unmodifiableMap(finished);
    }

    static int requestIndex(RunEvent event) {
        Object payload = event.getPayload();
        return payload instanceof RequestCompleted c ? c.getRequestIndex() : ((RequestFailed) payload).getRequestIndex();
    }
}
