package io.capstream.aggregator.events;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the events decoder waits out a schema registry that gives no answer: it retries the record's
 * schema lookup after {@code initialBackoff}, doubling up to {@code maxBackoff}, and holds the record
 * (blocking its stream thread) for at most {@code maxHold}; then it throws
 * {@link RegistryOutageException} so that Kafka Streams replaces the thread and the record is read
 * again from the last commit. The hold is further bounded by what the stream thread may block
 * ({@link #holdBound(Map)}).
 *
 * @param initialBackoff wait before the first retry; positive
 * @param maxBackoff     longest wait between two attempts; &gt;= initialBackoff
 * @param maxHold        longest time one record is held; positive
 */
public record RegistryRetry(Duration initialBackoff, Duration maxBackoff, Duration maxHold) {
    /** Default first back-off: 100 ms. */
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
    /** Default longest back-off: 5 s. */
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(5);
    /** Default longest hold of one record: 60 s. */
    public static final Duration DEFAULT_MAX_HOLD = Duration.ofSeconds(60);
    /** Kafka Streams' {@code transaction.timeout.ms} under exactly-once when none is configured, ms. */
    static final long STREAMS_EOS_TRANSACTION_TIMEOUT_MS = 10_000;
    /** The consumer's default {@code max.poll.interval.ms} (Kafka Streams does not change it), ms. */
    static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;

    /** Validates. */
    public RegistryRetry {
        requirePositive(initialBackoff, "initialBackoff");
        requirePositive(maxBackoff, "maxBackoff");
        requirePositive(maxHold, "maxHold");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff " + maxBackoff + " is shorter than initialBackoff " + initialBackoff);
        }
    }

    /** @return 100 ms doubling to 5 s, a record held at most 60 s */
    public static RegistryRetry defaults() {
        return new RegistryRetry(DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, DEFAULT_MAX_HOLD);
    }

    /**
     * @param previous the back-off just waited; not null
     * @return the next back-off: twice {@code previous}, at most {@link #maxBackoff()}
     */
    public Duration next(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
    }

    /**
     * The longest a stream thread may hold one record with these Streams settings: {@link #maxHold()},
     * but at most half of {@code max.poll.interval.ms} (the consumer leaves the group when a poll
     * loop takes longer) and, under exactly-once, at most half of the producer's
     * {@code transaction.timeout.ms} (the broker aborts a transaction open longer; Kafka Streams'
     * default is 10 s, {@code StreamsSettings} raises it).
     *
     * @param appConfigs the application's Streams settings (as {@code ProcessorContext.appConfigs()}
     *                   returns them; values may be strings or numbers); not null
     * @return the bound; positive
     * @throws IllegalArgumentException when one of those settings is not a number
     */
    public Duration holdBound(Map<String, ?> appConfigs) {
        long bound = maxHold.toMillis();
        long poll = millis(appConfigs, DEFAULT_MAX_POLL_INTERVAL_MS, "main.consumer.max.poll.interval.ms",
                "consumer.max.poll.interval.ms", "max.poll.interval.ms");
        bound = Math.min(bound, poll / 2);
        Object guarantee = appConfigs.get("processing.guarantee");
        if (guarantee != null && guarantee.toString().startsWith("exactly_once")) {
            long txn = millis(appConfigs, STREAMS_EOS_TRANSACTION_TIMEOUT_MS, "producer.transaction.timeout.ms",
                    "transaction.timeout.ms");
            bound = Math.min(bound, txn / 2);
        }
        return Duration.ofMillis(Math.max(1, bound));
    }

    private static long millis(Map<String, ?> configs, long dflt, String... keys) {
        for (String key : keys) {
            Object v = configs.get(key);
            if (v != null) {
                try {
                    return Long.parseLong(v.toString().trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(key + " must be a number of ms, got '" + v + "'", e);
                }
            }
        }
        return dflt;
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
