package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunProgress;
import io.capstream.aggregator.report.state.StateKeys;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The report topology's state for open runs, over two key-value stores: one small
 * {@link RunProgress} per run, and every event of a run stored once under {@link StateKeys}
 * (request events keyed {@code runId|R|<zero-padded index>}, scanned by prefix when the run is
 * published). Not thread-safe: one instance per stream task.
 */
final class RunStore {
    private static final StringSerializer KEYS = new StringSerializer();

    private final ProgressStore progress;
    private final KeyValueStore<String, RunEvent> events;

    RunStore(ProgressStore progress, KeyValueStore<String, RunEvent> events) {
        this.progress = progress;
        this.events = events;
    }

    /** @return the run's stored progress, or null when the store has none */
    RunProgress storedProgress(String runId) {
        return progress.get(runId);
    }

    /** Keeps the run's progress; it reaches the store and its changelog at the next commit ({@link ProgressStore}). */
    void putProgress(String runId, RunProgress p) {
        progress.put(runId, p);
    }

    /**
     * Loads a run restored from the changelog (its progress is in the store, its events were not
     * seen by this processor instance) into an {@link OpenRun}.
     *
     * @param runId    run id
     * @param progress the run's stored progress
     * @return the run with every event the store holds for it
     */
    OpenRun load(String runId, RunProgress progress) {
        OpenRun run = new OpenRun(progress);
        RunEvent started = events.get(StateKeys.started(runId));
        if (started != null) {
            run.started(started);
        }
        for (KeyValue<String, RunEvent> kv : scan(StateKeys.requestPrefix(runId))) {
            run.request(kv.value);
        }
        for (KeyValue<String, RunEvent> kv : scan(StateKeys.finishedPrefix(runId))) {
            run.finished(OpenRun.finisher(kv.value), kv.value);
        }
        for (KeyValue<String, RunEvent> kv : scan(StateKeys.scrapePrefix(runId))) {
            run.scrape(kv.value);
        }
        return run;
    }

    /** Stores an event under a key (the caller has checked that it is new). */
    void put(String key, RunEvent event) {
        events.put(key, event);
    }

    /** @return the events (with their keys) whose keys start with the prefix, in key order */
    private List<KeyValue<String, RunEvent>> scan(String prefix) {
        List<KeyValue<String, RunEvent>> out = new ArrayList<>();
        try (KeyValueIterator<String, RunEvent> it = events.prefixScan(prefix, KEYS)) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    /** Deletes the given event keys (e.g. the keys a publishing scan returned). */
    void deleteKeys(List<String> keys) {
        for (String k : keys) {
            delete(k);
        }
    }

    /**
     * Deletes one event: a put of null, which the store and its changelog take as a delete (a tombstone), without
     * what {@link KeyValueStore#delete} does besides: decode the deleted event to return it (issue 31: that was
     * about a third of the time spent deleting a published run's events).
     */
    private void delete(String key) {
        events.put(key, null);
    }

    /** Deletes every event of the run and its progress. */
    void deleteRun(String runId) {
        deleteEvents(runId);
        progress.delete(runId);
    }

    /** Deletes every event of the run (keeps its progress). */
    void deleteEvents(String runId) {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<String, RunEvent> it = events.prefixScan(StateKeys.runPrefix(runId), KEYS)) {
            while (it.hasNext()) {
                keys.add(it.next().key);
            }
        }
        for (String k : keys) {
            delete(k);
        }
    }

    /** @return a snapshot of every run's progress (the iterator is closed before returning) */
    List<Map.Entry<String, RunProgress>> allProgress() {
        return progress.all();
    }
}
