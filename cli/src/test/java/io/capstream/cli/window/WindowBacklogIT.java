package io.capstream.cli.window;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The aggregator started on a backlog (the events topic filled first, an hour of event time in 4 partitions, one
 * of them 20 times denser than the others, so that the stream thread reads the others' hour while it is still in
 * its first minutes) makes the same windows as a live feed: every window's request count equals the count of the
 * events with their completion time in it.
 */
@Timeout(300)
class WindowBacklogIT {
    private static final String REGISTRY = "mock://window-backlog-it";
    private static final int PARTITIONS = 4;
    private static final long MINUTE = 60_000;
    private static final String MODEL = "m";

    @Test
    void windowsOnABacklogHoldEveryRequest() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), PARTITIONS);
            long t0 = (System.currentTimeMillis() / MINUTE - 61) * MINUTE;
            Map<String, Long> expected = fill(kafka.bootstrapServers(), t0);

            Path state = Files.createTempDirectory("window-backlog-it");
            AggregatorService service = AggregatorService.start(
                    AggregatorConfig.of(REGISTRY, Duration.ofMinutes(1), Duration.ofSeconds(10), List.of()),
                    StreamsSettings.defaults("window-backlog-it", kafka.bootstrapServers(), state).withStreamThreads(1),
                    null);
            Map<String, Long> seen = new TreeMap<>();
            try (KafkaConsumer<String, WindowSummary> consumer = summaries(kafka.bootstrapServers())) {
                consumer.subscribe(List.of(Topics.SUMMARIES));
                try {
                    await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ZERO).until(() -> {
                        for (ConsumerRecord<String, WindowSummary> r : consumer.poll(Duration.ofMillis(500))) {
                            seen.put(r.key(), r.value().getRequests());
                        }
                        return seen.keySet().containsAll(expected.keySet());
                    });
                } catch (ConditionTimeoutException e) {
                    // some windows never came: the assertions below say how many requests are missing
                }
            } finally {
                service.close();
            }
            long total = expected.values().stream().mapToLong(Long::longValue).sum();
            assertEquals(total, seen.values().stream().mapToLong(Long::longValue).sum(),
                    "requests in the window summaries, of " + total + " sent");
            assertEquals(expected.size(), seen.size(), "windows");
            assertEquals(expected, seen, "requests per window");
        }
    }

    /**
     * Partition 0: a request every 1.5 s for an hour; partitions 1-3: one every 30 s; 5 targets; each partition
     * ends with a heartbeat 5 minutes after the hour (closes the last windows).
     *
     * @return requests per summary key ({@code target|model|le4096|window start})
     */
    private static Map<String, Long> fill(String bootstrap, long t0) throws Exception {
        Map<String, Long> expected = new TreeMap<>();
        Random random = new Random(7);
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        // one request in flight per partition: the topics were created a moment ago, and a first batch refused
        // with NOT_LEADER_OR_FOLLOWER (the broker had not applied the partition yet) while the next was accepted
        // left the idempotent producer retrying the first with OUT_OF_ORDER_SEQUENCE_NUMBER until the acks timed
        // out (seen here under load; KAFKA-15591)
        try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, "20",
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1"),
                new StringSerializer(), SpecificAvroSerde.forValue(RunEvent.class, REGISTRY).serializer())) {
            for (int p = 0; p < PARTITIONS; p++) {
                long period = p == 0 ? 1500 : 30_000;
                String run = "run-" + p;
                int index = 0;
                for (long t = t0 + period; t < t0 + 60 * MINUTE; t += period) {
                    long completed = t - random.nextInt(2000);
                    String target = "http://10.0.0." + (1 + random.nextInt(5)) + ":8000/v1";
                    RequestCompleted c = RequestCompleted.newBuilder().setRequestIndex(index++).setPlannedContextTokens(3000)
                            .setTarget(target).setModel(MODEL).setTtftNs(100_000_000L).setTtfoNs(100_000_000L)
                            .setE2eNs(1_000_000_000L).setPromptTokens(3000L).setCompletionTokens(50L)
                            .setOutputTokenSource("usage").setContentChunks(50).setCompletedAtEpochMs(completed).build();
                    acks.add(producer.send(new ProducerRecord<>(Topics.EVENTS, p, run, event(run, t, c))));
                    expected.merge(target + "|" + MODEL + "|le4096|" + (completed - completed % MINUTE), 1L, Long::sum);
                }
                long end = t0 + 65 * MINUTE;
                acks.add(producer.send(new ProducerRecord<>(Topics.EVENTS, p, run,
                        event(run, end, new Heartbeat("http://10.0.0.1:8000/v1", MODEL, Map.of(), null)))));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }
        return expected;
    }

    private static RunEvent event(String run, long emittedAt, Object payload) {
        return RunEvent.newBuilder().setRunId(run).setEventId(UUID.randomUUID().toString()).setWorkerId("w")
                .setEmittedAtMs(emittedAt).setPayload(payload).build();
    }

    private static KafkaConsumer<String, WindowSummary> summaries(String bootstrap) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "window-backlog-it-reader",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY).deserializer());
    }
}
