package io.capstream.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.HttpSchemaRegistryClient;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.AvroWireFormat;
import io.capstream.schemas.serde.RandomRecords;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11, item 2: restarting {@code capstream up --data-dir DIR} keeps the registry's schemas
 * (an H2 file under {@code DIR/registry}), so records written before the restart still decode with
 * the schema id they carry, registering the same schema again gives the same id, and a new schema
 * never reuses an old id. Before the fix the restarted registry was empty: id lookups failed with
 * 404 and the first new schema got id 1 again.
 */
class UpStackRestartIT {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void registrySchemasAndIdsSurviveARestartWithTheDataDir() throws Exception {
        Path data = dir.resolve("data");
        UpConfig cfg = new UpConfig(Ports.freePort(), Ports.freePort(), data, 1, Duration.ofSeconds(120), null);
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 5, 42);
        int idBefore;
        try (UpStack stack = UpStack.start(cfg, QUIET)) {
            SpecificAvroSerde<RunEvent> serde = serde(stack.schemaRegistryUrl());
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
                for (RunEvent e : events) {
                    producer.send(new ProducerRecord<>(Topics.EVENTS, e.getRunId(),
                            serde.serializer().serialize(Topics.EVENTS, e))).get();
                }
            }
            idBefore = HttpSchemaRegistryClient.create(stack.schemaRegistryUrl(), RegistryClientConfig.defaults())
                    .getId(Topics.EVENTS + "-value", RunEvent.getClassSchema());
        }
        assertTrue(Files.isRegularFile(data.resolve(RegistryProcess.STORAGE_SUBDIR)
                .resolve(io.capstream.cli.stack.ApicurioConfig.DATABASE_NAME + ".mv.db")), "the registry's H2 file is in the data dir");

        try (UpStack stack = UpStack.start(cfg, QUIET)) {
            assertThat(stack.createdTopics()).as("the topics were kept: " + stack.createdTopics()).isEmpty();
            List<byte[]> values = readAll(stack.bootstrapServers(), events.size());
            SpecificAvroSerde<RunEvent> fresh = serde(stack.schemaRegistryUrl());
            List<RunEvent> decoded = new ArrayList<>();
            for (byte[] v : values) {
                assertEquals(idBefore, AvroWireFormat.schemaId(v), "records carry the id registered before the restart");
                decoded.add(fresh.deserializer().deserialize(Topics.EVENTS, v));
            }
            assertEquals(events, decoded, "every record written before the restart decodes after it");

            HttpSchemaRegistryClient client = HttpSchemaRegistryClient.create(stack.schemaRegistryUrl(),
                    RegistryClientConfig.defaults());
            assertEquals(idBefore, client.register(Topics.EVENTS + "-value", RunEvent.getClassSchema()),
                    "registering the same schema again gives the same id");
            int newId = client.register("restart-it.other-value", SchemaBuilder.builder().stringType());
            assertNotEquals(idBefore, newId, "a new schema never reuses an id from before the restart");
        }
    }

    private static SpecificAvroSerde<RunEvent> serde(String registryUrl) {
        SpecificAvroSerde<RunEvent> serde = new SpecificAvroSerde<>(RunEvent.class)
                .withClient(HttpSchemaRegistryClient.create(registryUrl, RegistryClientConfig.defaults()), true);
        serde.configure(Map.of(), false);
        return serde;
    }

    private static List<byte[]> readAll(String bootstrap, int expected) {
        List<byte[]> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, "restart-it"), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.EVENTS));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    out.add(r.value());
                }
            }
        }
        assertEquals(expected, out.size(), "records kept across the restart");
        return out;
    }
}
