package io.capstream.aggregator.window;

import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The replays among the runs one re-keying task reads, so that the windows leave them out: {@code capstream replay}
 * republishes a past run's events, their original completion times included, under a new run id whose
 * {@code RunStarted.origin} is {@value #ORIGIN_PREFIX}{@code <original run id>} (ARCHITECTURE.md, "Replaying a run is
 * re-reading its events"). Those requests were counted in their windows when they first ran; counted again they
 * doubled a window's requests, its percentiles' samples and the Prometheus and OpenTelemetry counters built from it.
 * A replay still gets its report (the report topology reads every event); only the windows skip it.
 *
 * <p>A run's events share its key and partition, so its {@code RunStarted} comes before its requests. The replays seen
 * and not yet finished are kept in a changelogged store (exactly-once: a task restarted mid-replay restores them with
 * the offsets it resumes from) and mirrored in memory, so that the check per request is a set lookup, or nothing
 * while no replay is in flight. A replay's {@code RunFinished} removes it.
 */
final class ReplayedRuns {
    /** {@code RunStarted.origin} prefix of a replay (the report topology's {@code replay_of} is what follows it). */
    static final String ORIGIN_PREFIX = "replay:";

    private final Set<String> inFlight = new HashSet<>();
    private KeyValueStore<String, Long> store;

    /**
     * @param name the store's name
     * @return the builder of its store: in memory, changelogged, run id to the {@code RunStarted}'s epoch ms
     */
    static StoreBuilder<KeyValueStore<String, Long>> storeBuilder(String name) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.Long());
    }

    /**
     * Starts from the store's content (a task initialised again, or restored from the changelog).
     *
     * @param store the task's store; not null
     */
    void init(KeyValueStore<String, Long> store) {
        this.store = store;
        inFlight.clear();
        try (KeyValueIterator<String, Long> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<String, Long> e = all.next();
                inFlight.add(e.key);
            }
        }
    }

    /**
     * Notes a replay's start and end, and answers whether an event is a replay's.
     *
     * @param runId   the event's run id (its record key); null is never a replay
     * @param payload the event's payload
     * @return true when the event belongs to a replay (its {@code RunStarted}, requests and {@code RunFinished}): the
     *         windows leave it out
     */
    boolean isReplay(String runId, Object payload) {
        if (runId == null) {
            return false;
        }
        if (payload instanceof RunStarted s) {
            CharSequence origin = s.getOrigin();
            if (origin != null && origin.toString().startsWith(ORIGIN_PREFIX)) {
                inFlight.add(runId);
                store.put(runId, s.getStartedAtEpochMs());
                return true;
            }
            return false;
        }
        if (inFlight.isEmpty() || !inFlight.contains(runId)) {
            return false;
        }
        if (payload instanceof RunFinished) {
            inFlight.remove(runId);
            store.delete(runId);
        }
        return true;
    }
}
