package io.capstream.aggregator.events;

import io.capstream.schemas.time.CapClock;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read side's counterpart of the events decoder's hold ({@link EventsSource}): wraps the
 * deserializer of a topic the aggregator reads back (e.g. {@code capstream.reports} into the
 * reports table) so that a record whose writer schema cannot be fetched because the registry gives
 * no answer ({@link SchemaRegistryUnavailableException}: refused, timed out, 5xx, 429) is held and
 * retried with the back-off of {@link RegistryRetry}, not handed to the deserialization exception
 * handler (which would dead-letter a valid record). While it holds a record the outage is reported
 * to {@link RegistryHealth} (so {@code /ready} is false), under a reporter of its own per topic and
 * thread. After {@code holdBound} it throws {@link RegistryOutageException}:
 * {@link RegistryAwareDeserializationExceptionHandler} then fails the stream thread, which Kafka
 * Streams replaces ({@link RegistryOutageThreadHandler}) and which reads the record again from the
 * last commit. Every other error (garbage, 404 unknown schema id) is thrown at once, as before.
 *
 * <p>Kafka Streams shares one deserializer instance among the tasks of all threads; this class is
 * thread-safe when the delegate is.
 *
 * @param <T> the deserialized type
 */
public final class RegistryWaitingDeserializer<T> implements Deserializer<T> {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryWaitingDeserializer.class);

    private final Deserializer<T> delegate;
    private final RegistryRetry retry;
    private final Duration holdBound;
    private final Duration requestTimeout;
    private final RegistryHealth health;
    private final CapClock clock;

    /**
     * @param delegate       the deserializer that calls the registry; not null
     * @param retry          back-off between attempts; not null
     * @param holdBound      longest one record is held, or null to hold until the registry answers or
     *                       the thread is interrupted (the global thread, which Kafka Streams cannot replace)
     * @param requestTimeout how long one attempt of the delegate may take (a record is not held past
     *                       the bound for one more attempt); not null
     * @param health         where the outage is reported; not null
     * @param clock          the clock of the hold bound and the back-off's waits ({@link CapClock#system()} in
     *                       production, a manual clock in tests); not null
     */
    public RegistryWaitingDeserializer(Deserializer<T> delegate, RegistryRetry retry, Duration holdBound,
                                       Duration requestTimeout, RegistryHealth health, CapClock clock) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.retry = Objects.requireNonNull(retry, "retry");
        this.holdBound = holdBound;
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.health = Objects.requireNonNull(health, "health");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A serde for a topic the aggregator reads back: Avro specific records from the registry at
     * {@code registryUrl}, deserialized by a {@link RegistryWaitingDeserializer} (one HTTP request
     * per attempt; it retries itself), serialized as by {@link SpecificAvroSerde}.
     *
     * @param type        the generated Avro class; not null
     * @param registryUrl registry URL; not null
     * @param client      registry client settings; not null
     * @param retry       back-off; not null
     * @param holdBound   longest one record is held, or null for no bound (see the constructor)
     * @param health      where outages are reported; not null
     * @param <T>         the generated Avro class
     * @return the serde
     */
    public static <T extends SpecificRecord> Serde<T> serde(Class<T> type, String registryUrl, RegistryClientConfig client,
                                                            RegistryRetry retry, Duration holdBound, RegistryHealth health) {
        SpecificAvroSerde<T> reading = SpecificAvroSerde.forValue(type, registryUrl, client.withMaxRetries(0));
        SpecificAvroSerde<T> writing = SpecificAvroSerde.forValue(type, registryUrl, client);
        return Serdes.serdeFrom(writing.serializer(), new RegistryWaitingDeserializer<>(reading.deserializer(), retry,
                holdBound, client.requestTimeout(), health, CapClock.system()));
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        delegate.configure(configs, isKey);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return hold(topic, () -> delegate.deserialize(topic, data));
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        return hold(topic, () -> delegate.deserialize(topic, headers, data));
    }

    private interface Attempt<T> {
        T run();
    }

    private T hold(String topic, Attempt<T> attempt) {
        long start = clock.nanoTime();
        Duration backoff = retry.initialBackoff();
        String reporter = null;
        try {
            for (int attempts = 1; ; attempts++) {
                SchemaRegistryUnavailableException outage;
                try {
                    T value = attempt.run();
                    if (reporter != null) {
                        LOG.info("schema registry answers again after {} ms ({} attempts): a record of {} decoded",
                                millisSince(start), attempts, topic);
                    }
                    return value;
                } catch (RuntimeException e) {
                    outage = SchemaRegistryUnavailableException.in(e);
                    if (outage == null) {
                        throw e; // the registry answered (e.g. 404) or the bytes are bad: the handler's case
                    }
                }
                if (reporter == null) {
                    reporter = "reader of " + topic + " on " + Thread.currentThread().getName();
                    LOG.warn("schema registry gives no answer; holding a record of {} and retrying{}: {}", topic,
                            holdBound == null ? " until it answers" : " for up to " + holdBound.toMillis() + " ms",
                            outage.getMessage());
                }
                health.unreachable(reporter, outage.getMessage());
                long nextAttemptEnd = clock.nanoTime() - start + backoff.toNanos() + requestTimeout.toNanos();
                if (holdBound != null && nextAttemptEnd > holdBound.toNanos()) {
                    throw outage(topic, start, attempts, outage);
                }
                try {
                    clock.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw outage(topic, start, attempts, outage);
                }
                backoff = retry.next(backoff);
            }
        } finally {
            if (reporter != null) {
                // held no longer: answered, or given up (the thread is replaced; the probe keeps /ready false)
                health.answered(reporter);
            }
        }
    }

    private RegistryOutageException outage(String topic, long start, int attempts, SchemaRegistryUnavailableException last) {
        return new RegistryOutageException("schema registry gave no answer for " + millisSince(start) + " ms ("
                + attempts + (attempts == 1 ? " attempt" : " attempts") + ") while reading a record of " + topic
                + "; last error: " + last.getMessage(), last);
    }

    private long millisSince(long startNs) {
        return (clock.nanoTime() - startNs) / 1_000_000;
    }

    @Override
    public void close() {
        delegate.close();
    }
}
