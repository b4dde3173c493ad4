package io.capstream.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Starts the in-process KRaft broker and uses it like a real one. */
class EmbeddedKafkaIT {

    @Test
    void producesConsumesTransactsAndClosesCleanly() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path dir;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            dir = kafka.dataDir();
            assertTrue(Files.isDirectory(dir));
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            assertTrue(kafka.port() > 0);

            Set<String> created = TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), 3);
            assertEquals(Set.of(Topics.EVENTS, Topics.REPORTS, Topics.REPORT_CHUNKS, Topics.SWEEPS, Topics.SUMMARIES,
                    Topics.ALERTS, Topics.CHANGES, Topics.SERVER_METRICS, Topics.EVENTS_DLQ), created);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                // ensureTopics returns once the new partitions have leaders: a producer may send at once
                Map<String, TopicDescription> described = admin.describeTopics(created).allTopicNames().get(30, TimeUnit.SECONDS);
                described.values().forEach(d -> assertThat(d.partitions()).as("partitions of %s", d.name())
                        .allSatisfy(p -> assertThat(p.leader()).as("leader of %s-%d", d.name(), p.partition())
                                .matches(l -> l != null && !l.isEmpty())));
            }
            assertEquals(Set.of(), TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), 3), "second call creates nothing");
            checkTopicLayout(kafka.bootstrapServers());

            produceAndConsumeWithAcksAll(kafka.bootstrapServers());
            transactionsCommitVisibleAbortInvisible(kafka.bootstrapServers());
        }
        assertFalse(Files.exists(dir), "temp dir deleted on close");
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<String> lingering = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && !t.isDaemon() && !before.contains(t))
                    .map(Thread::getName)
                    .collect(Collectors.toList());
            assertEquals(List.of(), lingering, "non-daemon threads left after close");
        });
    }

    @Test
    void fixedPortIsUsed() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withPort(port))) {
            assertEquals("127.0.0.1:" + port, kafka.bootstrapServers());
            try (KafkaProducer<String, String> p = producer(kafka.bootstrapServers(), Map.of())) {
                RecordMetadata md = p.send(new ProducerRecord<>("fixed", "k", "v")).get(30, TimeUnit.SECONDS);
                assertEquals(0, md.offset());
            }
        }
    }

    @Test
    void aGivenDataDirIsKeptAndReused(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("kafka");
        EmbeddedKafkaConfig config = EmbeddedKafkaConfig.defaults().withDataDir(dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(config)) {
            try (KafkaProducer<String, String> p = producer(kafka.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
                p.send(new ProducerRecord<>("kept", "k", "survives a restart")).get(30, TimeUnit.SECONDS);
            }
        }
        assertTrue(Files.isDirectory(dir.resolve("data")), "given data dir kept on close");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(config)) {
            assertEquals(List.of("survives a restart"), consumeAll(kafka.bootstrapServers(), "kept", "read_committed", 1));
        }
    }

    @Test
    void aCompactedTopicCreatedBeforeGetsTheSegmentSettingsNobodyChose() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            // as an earlier version created them: compacted, no segment settings; sweeps with a segment.ms of its own
            admin.createTopics(List.of(
                    new NewTopic(Topics.REPORT_CHUNKS, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(Topics.SWEEPS, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                            "segment.ms", "86400000")))).all().get(30, TimeUnit.SECONDS);
            ConfigResource chunks = new ConfigResource(ConfigResource.Type.TOPIC, Topics.REPORT_CHUNKS);
            ConfigResource sweeps = new ConfigResource(ConfigResource.Type.TOPIC, Topics.SWEEPS);
            // topics created "before" exist by the time capstream starts: wait until the broker serves their configs
            // (right after createTopics its metadata may not have them yet, and the describe of ensureTopics then
            // failed: the CI of 2026-12-06 20:08 saw segment.ms still at the default)
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> admin.describeConfigs(
                    List.of(chunks, sweeps)).all().get(10, TimeUnit.SECONDS).get(sweeps).get("segment.ms").value()
                    .equals("86400000"));
            TopicSetup.ensureTopics(admin, kafka.bootstrapServers(), 3);
            // the alteration is committed by the controller; a broker applies it from the metadata log a moment later
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                var configs = admin.describeConfigs(List.of(chunks, sweeps)).all().get(10, TimeUnit.SECONDS);
                for (var e : TopicSetup.segmentSettings().entrySet()) {
                    assertThat(configs.get(chunks).get(e.getKey()).value())
                            .as("%s of the existing chunks topic", e.getKey()).isEqualTo(e.getValue());
                }
                assertThat(configs.get(sweeps).get("segment.ms").value()).as("segment.ms chosen on the sweeps topic")
                        .isEqualTo("86400000");
                assertThat(configs.get(sweeps).get("segment.bytes").value()).as("segment.bytes of the sweeps topic")
                        .isEqualTo(Integer.toString(TopicSetup.REPORT_SEGMENT_BYTES));
            });
        }
    }

    private static void checkTopicLayout(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<String, TopicDescription> d = admin.describeTopics(List.of(Topics.EVENTS, Topics.REPORTS))
                    .allTopicNames().get(30, TimeUnit.SECONDS);
            assertEquals(3, d.get(Topics.EVENTS).partitions().size(), "the partitions asked for");
            for (String topic : List.of(Topics.REPORTS, Topics.REPORT_CHUNKS, Topics.SWEEPS)) {
                ConfigResource reports = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                var configs = admin.describeConfigs(List.of(reports)).all().get(30, TimeUnit.SECONDS).get(reports);
                assertEquals("compact", configs.get("cleanup.policy").value(), topic);
                assertEquals(Integer.toString(TopicSetup.REPORT_MAX_MESSAGE_BYTES), configs.get("max.message.bytes").value(),
                        topic);
                assertEquals(Integer.toString(TopicSetup.REPORT_SEGMENT_BYTES), configs.get("segment.bytes").value(), topic);
            }
        }
    }

    private static void produceAndConsumeWithAcksAll(String bootstrap) throws Exception {
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<String, String> p = producer(bootstrap, Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"))) {
            for (int i = 0; i < 100; i++) {
                String v = "event-" + i;
                RecordMetadata md = p.send(new ProducerRecord<>(Topics.EVENTS, "run-" + (i % 7), v)).get(30, TimeUnit.SECONDS);
                assertTrue(md.offset() >= 0);
                sent.add(v);
            }
        }
        List<String> got = consumeAll(bootstrap, Topics.EVENTS, "read_uncommitted", 100);
        assertEquals(new TreeSet<>(sent), new TreeSet<>(got));
    }

    private static void transactionsCommitVisibleAbortInvisible(String bootstrap) throws Exception {
        String topic = "tx-test";
        try (KafkaProducer<String, String> p = producer(bootstrap, Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "capstream-it-tx",
                ProducerConfig.ACKS_CONFIG, "all"))) {
            p.initTransactions();
            p.beginTransaction();
            p.send(new ProducerRecord<>(topic, "k", "committed-1"));
            p.send(new ProducerRecord<>(topic, "k", "committed-2"));
            p.commitTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>(topic, "k", "aborted-1"));
            p.flush();
            p.abortTransaction();
            p.beginTransaction();
            p.send(new ProducerRecord<>(topic, "k", "committed-3"));
            p.commitTransaction();
        }
        List<String> committed = consumeAll(bootstrap, topic, "read_committed", 3);
        assertEquals(List.of("committed-1", "committed-2", "committed-3"), committed);
        List<String> all = consumeAll(bootstrap, topic, "read_uncommitted", 4);
        assertEquals(List.of("committed-1", "committed-2", "aborted-1", "committed-3"), all);
    }

    private static KafkaProducer<String, String> producer(String bootstrap, Map<String, Object> extra) {
        Map<String, Object> props = new java.util.HashMap<>(extra);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return new KafkaProducer<>(props);
    }

    /** Reads until {@code expected} records arrived (or 30 s passed), then a little longer to catch extras. */
    private static List<String> consumeAll(String bootstrap, String topic, String isolation, int expected) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + topic + "-" + isolation,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<String> got = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
            c.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ZERO).until(() -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    got.add(r.value());
                }
                return got.size() >= expected;
            });
            // Nothing beyond the expected records (e.g. no aborted record) shows up afterwards.
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                got.add(r.value());
            }
        }
        return got;
    }
}
