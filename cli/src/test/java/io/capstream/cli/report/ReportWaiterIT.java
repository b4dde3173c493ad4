package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.report.ReportChunks;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one report waiter of run, import and replay: attached before the run, read_committed, stops
 * waiting when the aggregator fails, gives up after the timeout.
 */
class ReportWaiterIT {
    private static final String REGISTRY = "mock://report-waiter-it-" + UUID.randomUUID();
    private static EmbeddedKafka kafka;
    private static KafkaClientProperties props;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), 1);
        props = new KafkaClientProperties(kafka.bootstrapServers(), Map.of());
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static ReportWaiter waiter() {
        return ReportWaiter.forReports(props, REGISTRY, RegistryClientConfig.defaults());
    }

    /** A report with every field at its default or a zero value; only the run id matters here. */
    private static BenchmarkReport report(String runId) {
        BenchmarkReport r = (BenchmarkReport) filled(BenchmarkReport.getClassSchema());
        r.setRunId(runId);
        return r;
    }

    private static Object filled(org.apache.avro.Schema schema) {
        org.apache.avro.specific.SpecificData data = org.apache.avro.specific.SpecificData.get();
        switch (schema.getType()) {
            case RECORD -> {
                var rec = (org.apache.avro.specific.SpecificRecordBase) data.newRecord(null, schema);
                for (org.apache.avro.Schema.Field f : schema.getFields()) {
                    rec.put(f.pos(), f.hasDefaultValue() ? data.deepCopy(f.schema(), data.getDefaultValue(f))
                            : filled(f.schema()));
                }
                return rec;
            }
            case UNION -> {
                return schema.getTypes().get(0).getType() == org.apache.avro.Schema.Type.NULL ? null
                        : filled(schema.getTypes().get(0));
            }
            case STRING -> {
                return "x";
            }
            case INT -> {
                return 0;
            }
            case LONG -> {
                return 0L;
            }
            case DOUBLE -> {
                return 0.0;
            }
            case FLOAT -> {
                return 0.0f;
            }
            case BOOLEAN -> {
                return false;
            }
            case ARRAY -> {
                return new java.util.ArrayList<>();
            }
            case MAP -> {
                return new java.util.HashMap<>();
            }
            case ENUM -> {
                return data.createEnum(schema.getEnumSymbols().get(0), schema);
            }
            default -> throw new IllegalArgumentException("unexpected type " + schema);
        }
    }

    private static KafkaProducer<String, BenchmarkReport> producer(String txId) {
        Map<String, Object> p = new java.util.HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()));
        if (txId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txId);
        }
        return new KafkaProducer<>(p, new StringSerializer(),
                SpecificAvroSerde.forValue(BenchmarkReport.class, REGISTRY).serializer());
    }

    @Test
    @Timeout(60)
    void seesAReportPublishedAfterAttachingEvenBeforeTheRunIdIsKnown() throws Exception {
        String runId = "waiter-early-" + UUID.randomUUID();
        try (ReportWaiter waiter = waiter(); KafkaProducer<String, BenchmarkReport> p = producer(null)) {
            p.send(new ProducerRecord<>(Topics.REPORTS, runId, report(runId))).get(30, TimeUnit.SECONDS);
            Optional<BenchmarkReport> got = waiter.await(runId, Duration.ofSeconds(30));
            assertEquals(runId, got.orElseThrow().getRunId());
        }
    }

    /**
     * The sweep and run steps register the run id before the run, then do more work (send the server metrics)
     * before they await: a report read in between was dropped (its future removed once completed, and await
     * made a new one), and the step waited its whole report timeout (CI: SweepIT "no report within 120 s").
     */
    @Test
    @Timeout(60)
    void aReportThatArrivesBetweenExpectAndAwaitIsStillThereForAwait() throws Exception {
        String runId = "waiter-between-" + UUID.randomUUID();
        try (ReportWaiter waiter = waiter(); KafkaProducer<String, BenchmarkReport> p = producer(null)) {
            CompletableFuture<BenchmarkReport> registered = waiter.expect(runId);
            p.send(new ProducerRecord<>(Topics.REPORTS, runId, report(runId))).get(30, TimeUnit.SECONDS);
            assertEquals(runId, registered.get(30, TimeUnit.SECONDS).getRunId(), "read by the waiter's thread");
            assertSame(registered, waiter.expect(runId), "expecting again gives the completed future");
            Optional<BenchmarkReport> got = waiter.await(runId, Duration.ofSeconds(5));
            assertEquals(runId, got.orElseThrow().getRunId());
            // once awaited it is let go: a later wait is for a later report
            assertEquals(Optional.empty(), waiter.await(runId, Duration.ofMillis(500)));
        }
    }

    @Test
    @Timeout(60)
    void ignoresReportsPublishedBeforeAttachingAndAbortedOnes() throws Exception {
        String old = "waiter-old-" + UUID.randomUUID();
        String aborted = "waiter-aborted-" + UUID.randomUUID();
        try (KafkaProducer<String, BenchmarkReport> p = producer(null)) {
            p.send(new ProducerRecord<>(Topics.REPORTS, old, report(old))).get(30, TimeUnit.SECONDS);
        }
        try (ReportWaiter waiter = waiter(); KafkaProducer<String, BenchmarkReport> tx = producer("waiter-it-tx")) {
            tx.initTransactions();
            tx.beginTransaction();
            tx.send(new ProducerRecord<>(Topics.REPORTS, aborted, report(aborted))).get(30, TimeUnit.SECONDS);
            tx.flush();
            tx.abortTransaction();
            assertEquals(Optional.empty(), waiter.await(old, Duration.ofSeconds(2)), "published before attaching");
            assertEquals(Optional.empty(), waiter.await(aborted, Duration.ofSeconds(2)), "read_committed");
        }
    }

    @Test
    @Timeout(60)
    void putsALargeReportBackTogetherFromItsChunksInOneTransaction() throws Exception {
        String runId = "waiter-chunked-" + UUID.randomUUID();
        String artifact = "{\n  \"run_id\": \"" + runId + "\",\n  \"rows\": \"" + "r".repeat(700_000) + "\"\n}\n";
        BenchmarkReport full = report(runId);
        full.setArtifactJson(artifact);
        ReportChunks.Publication pub = ReportChunks.publication(full);
        assertEquals(3, pub.chunks().size());
        Map<String, Object> p = new java.util.HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(), ProducerConfig.TRANSACTIONAL_ID_CONFIG, "waiter-it-chunks"));
        try (ReportWaiter waiter = waiter();
             KafkaProducer<String, Object> tx = new KafkaProducer<>(p, new StringSerializer(), (topic, value) ->
                     topic.equals(Topics.REPORTS)
                             ? SpecificAvroSerde.forValue(BenchmarkReport.class, REGISTRY).serializer()
                                     .serialize(topic, (BenchmarkReport) value)
                             : SpecificAvroSerde.forValue(ReportChunk.class, REGISTRY).serializer()
                                     .serialize(topic, (ReportChunk) value))) {
            CompletableFuture<BenchmarkReport> pending = waiter.expect(runId);
            tx.initTransactions();
            tx.beginTransaction();
            // a stale chunk of an earlier publication of the same run id is ignored
            tx.send(new ProducerRecord<>(Topics.REPORT_CHUNKS, ReportChunks.chunkKey(runId, 1),
                    ReportChunk.newBuilder(pub.chunks().get(1)).setArtifactSha256("0".repeat(64)).build()));
            // the report record first, its chunks after it and in reverse order: all in one transaction
            tx.send(new ProducerRecord<>(Topics.REPORTS, runId, pub.report()));
            for (int i = pub.chunks().size() - 1; i >= 0; i--) {
                tx.send(new ProducerRecord<>(Topics.REPORT_CHUNKS, ReportChunks.chunkKey(runId, i), pub.chunks().get(i)));
            }
            tx.commitTransaction();
            BenchmarkReport got = pending.get(30, TimeUnit.SECONDS);
            assertEquals(artifact, got.getArtifactJson());
            assertEquals(3, got.getArtifactChunks());
        }
        // what replay reads back later: the latest report of the run id, its artifact whole
        Map<String, BenchmarkReport> stored = StoredReports.latest(props.consumer(Map.of()), Topics.REPORTS,
                Topics.REPORT_CHUNKS, List.of(runId, "waiter-never-published"),
                SpecificAvroSerde.forValue(BenchmarkReport.class, REGISTRY).deserializer(),
                SpecificAvroSerde.forValue(ReportChunk.class, REGISTRY).deserializer());
        assertEquals(java.util.Set.of(runId), stored.keySet());
        assertEquals(artifact, stored.get(runId).getArtifactJson());
    }

    @Test
    @Timeout(60)
    void stopsWaitingAsSoonAsTheAggregatorFails() throws Exception {
        AtomicReference<String> failure = new AtomicReference<>();
        try (ReportWaiter waiter = waiter().failWhen(failure::get)) {
            CompletableFuture<BenchmarkReport> pending = waiter.expect("waiter-never");
            failure.set("the report aggregator stopped (Kafka Streams state ERROR)");
            ExecutionException e = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
            assertInstanceOf(ReportWaiter.Stopped.class, e.getCause());
            assertThat(e.getCause().getMessage()).contains("Kafka Streams state ERROR");
            // a timeout far beyond the test's own (60 s): waiting it out fails the test; a busy machine's stalls
            // (seconds) stay far below it
            long t = System.nanoTime();
            assertEquals(Optional.empty(), waiter.await("waiter-later", Duration.ofMinutes(10)));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t);
            assertTrue(waitedMs < TimeUnit.SECONDS.toMillis(45), "not the 10 min timeout: waited " + waitedMs + " ms");
        }
    }

    @Test
    @Timeout(90)
    void attachesToATopicCreatedJustAfterTheWaiterAsksForIt() throws Exception {
        // Regression: partitionsFor() on a topic whose metadata is not there yet returned no
        // partitions; the waiter assigned nothing and its first poll failed with "Consumer is not
        // subscribed to any topics or assigned any partitions".
        String topic = "late-reports-" + UUID.randomUUID();
        String runId = "waiter-late-" + UUID.randomUUID();
        CompletableFuture<ReportWaiter> attaching = CompletableFuture.supplyAsync(() -> new ReportWaiter(
                props.consumer(Map.of(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false")), topic,
                SpecificAvroSerde.forValue(BenchmarkReport.class, REGISTRY).deserializer()));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (ReportWaiter waiter = attaching.get(60, TimeUnit.SECONDS);
             KafkaProducer<String, BenchmarkReport> p = producer(null)) {
            p.send(new ProducerRecord<>(topic, runId, report(runId))).get(30, TimeUnit.SECONDS);
            assertEquals(runId, waiter.await(runId, Duration.ofSeconds(30)).orElseThrow().getRunId());
        }
    }
}
