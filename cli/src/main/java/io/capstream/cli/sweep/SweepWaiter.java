package io.capstream.cli.sweep;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.report.TopicPartitions;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a sweep's capacity curve on {@code capstream.sweeps} (key: sweep id), the counterpart of
 * {@link io.capstream.cli.report.ReportWaiter} for curves. Attach it before the sweep's first report
 * can be published: it pins the current end of every partition (read_committed, as the aggregator
 * writes with exactly-once) and later reads from there, so it sees every curve published afterwards.
 * The aggregator rewrites the curve as each step's report arrives; {@link #await} returns the first
 * curve that holds a point for every run id asked for. Not thread-safe (one caller at a time); close
 * it to close the consumer.
 */
public final class SweepWaiter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SweepWaiter.class);
    /** How long attaching waits for the topic's partitions. */
    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Consumer<String, byte[]> consumer;
    private final CapClock clock;
    private final Deserializer<SweepCurve> deserializer;
    private Supplier<String> failure = () -> null;

    /**
     * Assigns every partition of {@code topic} at its end (resolved now) without reading.
     *
     * @param consumerProps consumer settings (bootstrap servers, security); not null
     * @param topic         the sweeps topic; not null
     * @param deserializer  curve deserializer; not null
     * @throws IllegalStateException when the topic has no partitions within 30 s
     */
    public SweepWaiter(Map<String, Object> consumerProps, String topic, Deserializer<SweepCurve> deserializer) {
        this(new KafkaConsumer<>(props(consumerProps), new StringDeserializer(), new ByteArrayDeserializer()), topic,
                deserializer, CapClock.system());
    }

    private static Map<String, Object> props(Map<String, Object> consumerProps) {
        Map<String, Object> props = new HashMap<>(consumerProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return props;
    }

    /**
     * Assigns every partition of {@code topic} at its end (resolved now) without reading.
     *
     * @param consumer     a consumer without a group, read_committed (closed by {@link #close}); not null
     * @param topic        the sweeps topic; not null
     * @param deserializer curve deserializer; not null
     * @param clock        the clock of the attach and {@link #await} deadlines; not null
     * @throws IllegalStateException when the topic has no partitions within 30 s
     */
    SweepWaiter(Consumer<String, byte[]> consumer, String topic, Deserializer<SweepCurve> deserializer,
                CapClock clock) {
        this.deserializer = deserializer;
        this.consumer = consumer;
        this.clock = clock;
        try {
            List<TopicPartition> parts = TopicPartitions.await(consumer, topic, ATTACH_TIMEOUT, clock);
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position); // resolve the end offsets now, before any curve is produced
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(5));
            throw e;
        }
    }

    /**
     * A waiter on {@link Topics#SWEEPS} decoding with the registry at {@code schemaRegistryUrl}.
     *
     * @param kafka             client settings with the bootstrap servers set; not null
     * @param schemaRegistryUrl registry URL; not null
     * @param registryClient    registry client settings; not null
     * @return the attached waiter
     * @throws IllegalStateException when the topic has no partitions within 30 s
     */
    public static SweepWaiter forSweeps(KafkaClientProperties kafka, String schemaRegistryUrl,
                                        RegistryClientConfig registryClient) {
        return new SweepWaiter(kafka.consumer(Map.of()), Topics.SWEEPS,
                SpecificAvroSerde.forValue(SweepCurve.class, schemaRegistryUrl, registryClient).deserializer());
    }

    /**
     * @param why e.g. the in-process aggregator's failure; returns null while curves can still come
     * @return this
     */
    public SweepWaiter failWhen(Supplier<String> why) {
        this.failure = why;
        return this;
    }

    /**
     * Reads the topic until the curve of {@code sweepId} holds a point for each of {@code runIds}.
     *
     * @param sweepId the sweep id (the record key); not null
     * @param runIds  the run ids of the steps whose reports arrived; not null
     * @param timeout how long to wait
     * @return the curve, or empty when none complete arrived in time or {@link #failWhen} reported a failure
     */
    public Optional<SweepCurve> await(String sweepId, Set<String> runIds, Duration timeout) {
        long deadline = clock.nanoTime() + timeout.toNanos();
        while (clock.nanoTime() - deadline < 0) {
            if (failure.get() != null) {
                return Optional.empty();
            }
            for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                if (!sweepId.equals(r.key()) || r.value() == null) {
                    continue;
                }
                SweepCurve curve;
                try {
                    curve = deserializer.deserialize(r.topic(), r.headers(), r.value());
                } catch (RuntimeException e) {
                    LOG.warn("skipping an undecodable curve of sweep {} ({}-{}@{}): {}", sweepId, r.topic(),
                            r.partition(), r.offset(), e.toString());
                    continue;
                }
                if (covers(curve, runIds)) {
                    return Optional.of(curve);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @param curve  a curve
     * @param runIds run ids
     * @return whether the curve has a point for every run id
     */
    static boolean covers(SweepCurve curve, Set<String> runIds) {
        Set<String> have = new HashSet<>();
        for (SweepPoint p : curve.getPoints()) {
            have.add(p.getRunId());
        }
        return have.containsAll(runIds);
    }


    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
