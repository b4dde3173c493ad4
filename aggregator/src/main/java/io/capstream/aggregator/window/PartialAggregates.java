package io.capstream.aggregator.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 31: the re-keying task's buffer of partial window aggregates (a combiner): the requests it read since its
 * last flush, aggregated per window key and window ({@link WindowAggregate}, as the window step would aggregate
 * them: the same §7 row values, the same per-request SLO check for the {@code good} count), so that one record per
 * key, window and flush crosses the repartition topic instead of one per request ({@link WindowInput.Partial}).
 *
 * <p>Holds no state that outlives a flush: {@link #drain()} empties it. Bounded by its caller, which flushes when
 * {@link #size()} passes its limit. Not thread-safe (one task's processor).
 */
final class PartialAggregates {
    private final long sizeMs;
    private final double relativeAccuracy;
    private final List<RequestCriterion> perRequestSlos;
    /** Partials by store key ({@code <start, 19 digits>|key}). */
    private final Map<String, Entry> entries = new HashMap<>();
    /** The entry the last request went to (null after a drain): the next one usually goes there too. */
    private Entry last;

    /**
     * One partial: its window key (encoded), window start, aggregate and the largest event time in it.
     *
     * @param key         the window key, {@link WindowKey#encode()}; not null
     * @param windowStart the window's start, epoch ms
     * @param aggregate   the requests' aggregate; not null
     * @param maxTime     the largest event time of its requests, epoch ms (the record's timestamp)
     */
    record Partial(String key, long windowStart, WindowAggregate aggregate, long maxTime) {
    }

    /**
     * @param sizeMs           the window size, ms (&gt; 0)
     * @param relativeAccuracy the sketches' relative accuracy, as the window step's
     * @param slos             the SLOs (only the per-request ones count for {@code good}); not null
     */
    PartialAggregates(long sizeMs, double relativeAccuracy, List<? extends RequestCriterion> slos) {
        this.sizeMs = sizeMs;
        this.relativeAccuracy = relativeAccuracy;
        this.perRequestSlos = List.copyOf(slos.stream().filter(RequestCriterion::perRequest).toList());
    }

    /**
     * Adds a request to its partial.
     *
     * @param key       the window key, encoded; not null
     * @param eventTime its event time, epoch ms
     * @param input     a {@link WindowInput.Completed} or {@link WindowInput.Failed} (others are ignored); not null
     */
    void add(String key, long eventTime, WindowInput input) {
        if (!(input instanceof WindowInput.Completed) && !(input instanceof WindowInput.Failed)) {
            return;
        }
        long start = eventTime - Math.floorMod(eventTime, sizeMs);
        Entry e = last;
        if (e == null || e.windowStart != start || !e.key.equals(key)) { // a run's requests come in a row
            e = entries.computeIfAbsent(TumblingWindowProcessor.storeKey(start, key),
                    k -> new Entry(key, start, new WindowAggregate(relativeAccuracy)));
            last = e;
        }
        e.maxTime = Math.max(e.maxTime, eventTime);
        add(e.aggregate, input, perRequestSlos);
    }

    /**
     * Adds one request to an aggregate as the window step does.
     *
     * @param aggregate      the aggregate; not null
     * @param input          a {@link WindowInput.Completed} or {@link WindowInput.Failed}; others are ignored
     * @param perRequestSlos the per-request SLOs a completed request must all meet to count as good; not null
     */
    static void add(WindowAggregate aggregate, WindowInput input, List<RequestCriterion> perRequestSlos) {
        if (input instanceof WindowInput.Completed c) {
            RequestSample s = c.sample();
            aggregate.addCompleted(s, meetsEvery(perRequestSlos, s));
        } else if (input instanceof WindowInput.Failed f) {
            if (f.cancelled()) {
                aggregate.addCancelled(); // cancelled by the client on purpose (issue 30): not a failure
            } else {
                aggregate.addFailed(f.errorType());
            }
        }
    }

    private static boolean meetsEvery(List<RequestCriterion> slos, RequestSample s) {
        for (RequestCriterion slo : slos) {
            if (!slo.metBy(s)) {
                return false;
            }
        }
        return true;
    }

    /** @return partials buffered (key and window pairs) */
    int size() {
        return entries.size();
    }

    /** @return true when nothing is buffered */
    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** @return the buffered partials, in window-start and key order; the buffer is empty afterwards */
    List<Partial> drain() {
        List<String> keys = new ArrayList<>(entries.keySet());
        java.util.Collections.sort(keys);
        List<Partial> out = new ArrayList<>(keys.size());
        for (String k : keys) {
            Entry e = entries.get(k);
            out.add(new Partial(e.key, e.windowStart, e.aggregate, e.maxTime));
        }
        entries.clear();
        last = null;
        return out;
    }

    /** Drops everything buffered (a task initialised again or closed: its unflushed input is read again). */
    void clear() {
        entries.clear();
        last = null;
    }

    private static final class Entry {
        final String key;
        final long windowStart;
        final WindowAggregate aggregate;
        long maxTime = Long.MIN_VALUE;

        Entry(String key, long windowStart, WindowAggregate aggregate) {
            this.key = key;
            this.windowStart = windowStart;
            this.aggregate = aggregate;
        }
    }
}
