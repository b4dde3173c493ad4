package io.capstream.loadgen.continuous;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link HeartbeatSender} with its own Kafka producer: each beat sends one {@code RunEvent} with a
 * {@link Heartbeat} payload to every partition of the events topic (explicit partition numbers;
 * key and run id {@code heartbeat-<workerId>}, emitted_at = now). Heartbeats are not idempotent
 * or transactional (a lost one is replaced by the next); failures are counted, never thrown.
 */
public final class KafkaHeartbeatSender implements HeartbeatSender {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaHeartbeatSender.class);

    private final Producer<String, RunEvent> producer;
    private final String topic;
    private final String workerId;
    private final Clock clock;
    private final AtomicLong failed = new AtomicLong();

    /**
     * @param producer producer (closed by {@link #close()}); not null
     * @param topic    events topic; not null
     * @param workerId id of this generator process; not null
     * @param clock    clock for emitted_at_ms; not null
     */
    public KafkaHeartbeatSender(Producer<String, RunEvent> producer, String topic, String workerId, Clock clock) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Creates the producer.
     *
     * @param bootstrapServers  Kafka bootstrap servers; not null
     * @param schemaRegistryUrl registry URL; not null
     * @param clientProperties  extra producer properties (security etc.); may be empty
     * @param workerId          id of this generator process; not null
     * @return the sender (topic {@link Topics#EVENTS})
     */
    public static KafkaHeartbeatSender create(String bootstrapServers, String schemaRegistryUrl,
                                              Map<String, String> clientProperties, String workerId) {
        return create(bootstrapServers, schemaRegistryUrl, RegistryClientConfig.defaults(), clientProperties, workerId);
    }

    /**
     * Creates the producer.
     *
     * @param bootstrapServers  Kafka bootstrap servers; not null
     * @param schemaRegistryUrl registry URL; not null
     * @param registryClient    registry client settings (credentials, timeouts) of the serde; not null
     * @param clientProperties  extra producer properties (security etc.); may be empty
     * @param workerId          id of this generator process; not null
     * @return the sender (topic {@link Topics#EVENTS})
     */
    public static KafkaHeartbeatSender create(String bootstrapServers, String schemaRegistryUrl,
                                              RegistryClientConfig registryClient,
                                              Map<String, String> clientProperties, String workerId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        if (clientProperties != null) {
            p.putAll(clientProperties);
        }
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "capstream-heartbeat-" + workerId);
        return new KafkaHeartbeatSender(new KafkaProducer<>(p, new StringSerializer(),
                valueSerializer(schemaRegistryUrl, registryClient)),
                Topics.EVENTS, workerId, Clock.systemUTC());
    }

    /**
     * @param schemaRegistryUrl registry URL
     * @param registryClient    registry client settings (credentials, timeouts)
     * @return the producer's value serializer
     */
    static Serializer<RunEvent> valueSerializer(String schemaRegistryUrl, RegistryClientConfig registryClient) {
        return SpecificAvroSerde.forValue(RunEvent.class, schemaRegistryUrl, registryClient).serializer();
    }

    @Override
    public int beat(Heartbeat heartbeat) {
        List<PartitionInfo> partitions;
        try {
            partitions = producer.partitionsFor(topic);
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            LOG.warn("heartbeat: cannot list the partitions of {}: {}", topic, e.toString());
            return 0;
        }
        String id = "heartbeat-" + workerId;
        int sent = 0;
        for (PartitionInfo info : partitions) {
            RunEvent event = RunEvent.newBuilder()
                    .setRunId(id)
                    .setEventId(UUID.randomUUID().toString())
                    .setWorkerId(workerId)
                    .setEmittedAtMs(clock.millis())
                    .setPayload(Heartbeat.newBuilder(heartbeat).build())
                    .build();
            try {
                producer.send(new ProducerRecord<>(topic, info.partition(), id, event), (md, e) -> {
                    if (e != null) {
                        failed.incrementAndGet();
                        LOG.debug("heartbeat to partition {} failed: {}", info.partition(), e.toString());
                    }
                });
                sent++;
            } catch (RuntimeException e) {
                failed.incrementAndGet();
                LOG.warn("heartbeat to partition {} failed: {}", info.partition(), e.toString());
            }
        }
        return sent;
    }

    /** @return heartbeat records (or partition listings) that failed so far */
    public long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        try {
            producer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debug("closing the heartbeat producer: {}", e.toString());
        }
    }
}
