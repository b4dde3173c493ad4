package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Mutable, mergeable aggregate of one window of one key (target, model, context bucket): counts,
 * failures by error type, token sums, requests meeting every per-request SLO, one DDSketch per
 * {@link Quantity}, and exact bucket counts per {@link LatencyMeasure} (issue 31: one value per request, per output
 * chunk gap for {@link LatencyMeasure#INTER_CHUNK}). Not thread-safe (one instance per processor call).
 *
 * <p>State-store form ({@link #toBytes()}, {@link #fromBytes}): see {@link WindowAggregateSerde}.
 */
public final class WindowAggregate {
    /** Stateless and thread-safe. */
    private static final WindowAggregateSerde SERDE = new WindowAggregateSerde();

    private final double relativeAccuracy;
    private long completed;
    private long failed;
    private long cancelled;
    private long promptTokens;
    private long outputTokens;
    private long goodRequests;
    private final TreeMap<String, Long> failuresByType = new TreeMap<>();
    private final EnumMap<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);
    private final EnumMap<LatencyMeasure, BucketCounts> histograms = new EnumMap<>(LatencyMeasure.class);

    /**
     * @param relativeAccuracy DDSketch relative accuracy, e.g. 0.01
     */
    public WindowAggregate(double relativeAccuracy) {
        this.relativeAccuracy = relativeAccuracy;
        for (Quantity q : Quantity.values()) {
            sketches.put(q, Sketches.create(relativeAccuracy));
        }
        for (LatencyMeasure m : LatencyMeasure.values()) {
            histograms.put(m, new BucketCounts());
        }
    }

    /**
     * Restores a decoded aggregate (used by the serde and its legacy decoder).
     *
     * @param relativeAccuracy DDSketch relative accuracy
     * @param completed        completed requests
     * @param failed           failed requests
     * @param promptTokens     sum of prompt tokens
     * @param outputTokens     sum of output tokens
     * @param goodRequests     completed requests meeting every SLO
     * @param failuresByType   failures per error type; not null, copied
     * @param decodedSketches  sketches per quantity; not null, taken over; a missing quantity gets an empty sketch
     */
    WindowAggregate(double relativeAccuracy, long completed, long failed, long promptTokens, long outputTokens,
                    long goodRequests, Map<String, Long> failuresByType, Map<Quantity, DDSketch> decodedSketches) {
        this(relativeAccuracy, completed, failed, 0, promptTokens, outputTokens, goodRequests, failuresByType,
                decodedSketches);
    }

    /**
     * Restores a decoded aggregate with cancelled requests (state version 3).
     *
     * @param relativeAccuracy DDSketch relative accuracy
     * @param completed        completed requests
     * @param failed           failed requests
     * @param cancelled        requests the client cancelled on purpose (issue 30)
     * @param promptTokens     sum of prompt tokens
     * @param outputTokens     sum of output tokens
     * @param goodRequests     completed requests meeting every SLO
     * @param failuresByType   failures per error type; not null, copied
     * @param decodedSketches  sketches per quantity; not null, taken over; a missing quantity gets an empty sketch
     */
    WindowAggregate(double relativeAccuracy, long completed, long failed, long cancelled, long promptTokens,
                    long outputTokens, long goodRequests, Map<String, Long> failuresByType,
                    Map<Quantity, DDSketch> decodedSketches) {
        this(relativeAccuracy, completed, failed, cancelled, promptTokens, outputTokens, goodRequests, failuresByType,
                decodedSketches, Map.of());
    }

    /**
     * Restores a decoded aggregate with bucket counts (state version 4, issue 31).
     *
     * @param relativeAccuracy DDSketch relative accuracy
     * @param completed        completed requests
     * @param failed           failed requests
     * @param cancelled        requests the client cancelled on purpose (issue 30)
     * @param promptTokens     sum of prompt tokens
     * @param outputTokens     sum of output tokens
     * @param goodRequests     completed requests meeting every SLO
     * @param failuresByType   failures per error type; not null, copied
     * @param decodedSketches  sketches per quantity; not null, taken over; a missing quantity gets an empty sketch
     * @param decodedHistograms bucket counts per measure; not null, taken over; a missing measure gets empty counts
     */
    WindowAggregate(double relativeAccuracy, long completed, long failed, long cancelled, long promptTokens,
                    long outputTokens, long goodRequests, Map<String, Long> failuresByType,
                    Map<Quantity, DDSketch> decodedSketches, Map<LatencyMeasure, BucketCounts> decodedHistograms) {
        for (LatencyMeasure m : LatencyMeasure.values()) {
            BucketCounts h = decodedHistograms.get(m);
            histograms.put(m, h != null ? h : new BucketCounts());
        }
        this.cancelled = cancelled;
        this.relativeAccuracy = relativeAccuracy;
        this.completed = completed;
        this.failed = failed;
        this.promptTokens = promptTokens;
        this.outputTokens = outputTokens;
        this.goodRequests = goodRequests;
        this.failuresByType.putAll(failuresByType);
        for (Quantity q : Quantity.values()) {
            DDSketch s = decodedSketches.get(q);
            sketches.put(q, s != null ? s : Sketches.create(relativeAccuracy));
        }
    }

    /**
     * Adds a completed request.
     *
     * @param sample its row values; not null
     * @param good   whether it meets every per-request SLO
     */
    public void addCompleted(RequestSample sample, boolean good) {
        completed++;
        if (good) {
            goodRequests++;
        }
        if (sample.promptTokens() != null) {
            promptTokens += sample.promptTokens();
        }
        outputTokens += sample.outputTokens();
        for (Quantity q : Quantity.values()) {
            Double v = sample.value(q);
            if (v != null && Double.isFinite(v) && v >= 0) {
                sketches.get(q).accept(v);
            }
        }
        // issue 31: exact bucket counts in seconds (BucketCounts ignores NaN: no TTFT for embeddings)
        if (sample.streamed()) {
            histograms.get(LatencyMeasure.TTFT).add(sample.ttftMs() / 1000.0);
            histograms.get(LatencyMeasure.TTFO).add(sample.ttfoMs() / 1000.0);
            histograms.get(LatencyMeasure.E2E).add(sample.e2eMs() / 1000.0);
            if (sample.chunkGapsUs() != null) {
                BucketCounts gaps = histograms.get(LatencyMeasure.INTER_CHUNK);
                for (Integer us : sample.chunkGapsUs()) {
                    gaps.add(us / 1e6);
                }
            }
        } else {
            histograms.get(LatencyMeasure.REQUEST_LATENCY).add(sample.e2eMs() / 1000.0);
        }
    }

    /**
     * Adds a failed request (it never meets an SLO and feeds no statistic, spec §6).
     *
     * @param errorType reference error class name, e.g. URLError; null counts as {@code unknown}
     */
    public void addFailed(String errorType) {
        failed++;
        failuresByType.merge(errorType == null || errorType.isEmpty() ? "unknown" : errorType, 1L, Long::sum);
    }

    /**
     * Adds a request the client cancelled on purpose (issue 30, {@code --cancel-rate}): neither completed nor failed,
     * in no statistic and not in {@link #requests()}.
     */
    public void addCancelled() {
        cancelled++;
    }

    /**
     * Merges another aggregate into this one: every count, sum, error type, sketch bin and bucket count adds up, so
     * merging aggregates of parts of a window's requests gives the aggregate of all of them (issue 31: the partial
     * aggregates of the re-keying step). An aggregate of another relative accuracy is converted to this one's
     * ({@link Sketches#merge}).
     *
     * @param other the other aggregate, unchanged; not null
     */
    public void merge(WindowAggregate other) {
        completed += other.completed;
        failed += other.failed;
        cancelled += other.cancelled;
        promptTokens += other.promptTokens;
        outputTokens += other.outputTokens;
        goodRequests += other.goodRequests;
        other.failuresByType.forEach((k, v) -> failuresByType.merge(k, v, Long::sum));
        for (Quantity q : Quantity.values()) {
            Sketches.merge(sketches.get(q), other.sketches.get(q));
        }
        for (LatencyMeasure m : LatencyMeasure.values()) {
            histograms.get(m).merge(other.histograms.get(m));
        }
    }

    /** @return completed requests */
    public long completed() {
        return completed;
    }

    /** @return failed requests */
    public long failed() {
        return failed;
    }

    /** @return requests the client cancelled on purpose (issue 30) */
    public long cancelled() {
        return cancelled;
    }

    /** @return completed + failed (cancelled requests are not counted) */
    public long requests() {
        return completed + failed;
    }

    /** @return sum of prompt tokens of completed requests */
    public long promptTokens() {
        return promptTokens;
    }

    /** @return sum of output tokens of completed requests */
    public long outputTokens() {
        return outputTokens;
    }

    /** @return completed requests that met every per-request SLO */
    public long goodRequests() {
        return goodRequests;
    }

    /** @return failures per error type (read-only, sorted by type) */
    public Map<String, Long> failuresByType() {
        return Collections.unmodifiableMap(failuresByType);
    }

    /** @return the relative accuracy of every sketch */
    public double relativeAccuracy() {
        return relativeAccuracy;
    }

    /**
     * @param quantity which quantity
     * @return its sketch (live, not a copy)
     */
    public DDSketch sketch(Quantity quantity) {
        return sketches.get(quantity);
    }

    /**
     * @param measure which latency
     * @return its bucket counts (live, not a copy; empty when the window had no value of it)
     */
    public BucketCounts histogram(LatencyMeasure measure) {
        return histograms.get(measure);
    }

    /**
     * @return the state-store form, {@link WindowAggregateSerde} version {@value WindowAggregateSerde#VERSION}
     */
    public byte[] toBytes() {
        return SERDE.encode(this);
    }

    /**
     * @param data bytes from {@link #toBytes()}, or version-1 bytes written by an earlier capstream
     *             version; not null
     * @return the aggregate
     * @throws org.apache.kafka.common.errors.SerializationException for an unknown version or
     *         truncated data
     */
    public static WindowAggregate fromBytes(byte[] data) {
        return SERDE.decode(data);
    }
}
