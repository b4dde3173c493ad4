package io.capstream.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.HttpSchemaRegistryClient;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryException;
import io.capstream.schemas.serde.AvroWireFormat;
import io.capstream.schemas.serde.RandomRecords;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The registry client and serde against a REAL Confluent-compatible registry: Apicurio Registry
 * 2.6.13 as a child process (unpacked into target/apicurio by the build; see the cli pom).
 */
class ApicurioRegistryIT {
    private static final Map<String, Class<? extends SpecificRecord>> VALUES = new LinkedHashMap<>();

    static {
        VALUES.put(Topics.EVENTS, RunEvent.class);
        VALUES.put(Topics.REPORTS, BenchmarkReport.class);
        VALUES.put(Topics.SUMMARIES, WindowSummary.class);
        VALUES.put(Topics.ALERTS, SloBreach.class);
    }

    private static ApicurioRegistry registry;
    private static HttpSchemaRegistryClient client;

    @BeforeAll
    static void startRegistry() {
        String dir = System.getProperty("capstream.apicurio.dir");
        Path install = dir != null && Files.isRegularFile(Path.of(dir, ApicurioRegistry.RUNNER_JAR)) ? Path.of(dir) : null;
        registry = ApicurioRegistry.start(ApicurioConfig.defaults().withInstallDir(install)
                .withLogFile(Path.of("target", "apicurio-it.log")));
        client = HttpSchemaRegistryClient.create(registry.ccompatUrl(), RegistryClientConfig.defaults());
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) {
            long pid = registry.pid();
            registry.close();
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "registry process stopped");
        }
    }

    @Test
    void ccompatUrlIsLoopback() {
        assertEquals("http://127.0.0.1:" + registry.port() + "/apis/ccompat/v7", registry.ccompatUrl());
    }

    @Test
    void registersEveryCapstreamSchemaAndLooksItUp() {
        for (Map.Entry<String, Class<? extends SpecificRecord>> e : VALUES.entrySet()) {
            String subject = "it-register." + e.getKey() + "-value";
            Schema schema = org.apache.avro.specific.SpecificData.get().getSchema(e.getValue());
            int id = client.register(subject, schema);
            assertTrue(id >= 0, subject + " id " + id);
            // A fresh client (no cache) sees the same id and the same schema.
            HttpSchemaRegistryClient fresh = HttpSchemaRegistryClient.create(registry.ccompatUrl(), RegistryClientConfig.defaults());
            assertEquals(id, fresh.register(subject, schema), "registering again gives the same id");
            assertEquals(id, fresh.getId(subject, schema));
            assertEquals(SchemaNormalization.parsingFingerprint64(schema),
                    SchemaNormalization.parsingFingerprint64(fresh.getById(id)), subject);
            assertTrue(fresh.testCompatibility(subject, schema));
        }
    }

    @Test
    void roundTripsEveryRecordTypeThroughTheSerde() {
        for (Map.Entry<String, Class<? extends SpecificRecord>> e : VALUES.entrySet()) {
            roundTrip("it-serde." + e.getKey(), e.getValue());
        }
    }

    private <T extends SpecificRecord> void roundTrip(String topic, Class<T> type) {
        SpecificAvroSerde<T> writer = SpecificAvroSerde.forValue(type, registry.ccompatUrl());
        SpecificAvroSerde<T> reader = SpecificAvroSerde.forValue(type, registry.ccompatUrl());
        int id = -1;
        for (T record : RandomRecords.of(type, 5, topic.hashCode())) {
            byte[] bytes = writer.serializer().serialize(topic, record);
            assertEquals(0, bytes[0], "magic byte");
            if (id < 0) {
                id = AvroWireFormat.schemaId(bytes);
            }
            assertEquals(id, AvroWireFormat.schemaId(bytes));
            assertEquals(record, reader.deserializer().deserialize(topic, bytes), topic);
        }
        // A serde that must not register finds the existing id.
        SpecificAvroSerde<T> lookupOnly = new SpecificAvroSerde<>(type);
        lookupOnly.configure(Map.of(SpecificAvroSerde.SCHEMA_REGISTRY_URL, registry.ccompatUrl(),
                SpecificAvroSerde.AUTO_REGISTER, "false"), false);
        T record = RandomRecords.one(type, 99);
        assertEquals(id, AvroWireFormat.schemaId(lookupOnly.serializer().serialize(topic, record)));
    }

    @Test
    void lookupOnlySerdeFailsClearlyForAnUnregisteredSubject() {
        SpecificAvroSerde<SloBreach> lookupOnly = new SpecificAvroSerde<>(SloBreach.class);
        lookupOnly.configure(Map.of(SpecificAvroSerde.SCHEMA_REGISTRY_URL, registry.ccompatUrl(),
                SpecificAvroSerde.AUTO_REGISTER, "false"), false);
        SerializationException e = assertThrows(SerializationException.class,
                () -> lookupOnly.serializer().serialize("it-never-registered", RandomRecords.one(SloBreach.class, 1)));
        assertThat(e.getMessage()).contains("it-never-registered-value", "HTTP 404");
    }

    @Test
    void backwardRefusesAnIncompatibleRunEventChange() throws Exception {
        String subject = "it-compat." + Topics.EVENTS + "-value";
        Schema current = RunEvent.getClassSchema();
        client.register(subject, current);
        client.setCompatibility(subject, "BACKWARD");
        assertEquals("BACKWARD", client.getCompatibility(subject));

        Schema additive = withField(current, "{\"name\":\"region\",\"type\":[\"null\",\"string\"],\"default\":null}");
        Schema breaking = withField(current, "{\"name\":\"region\",\"type\":\"string\"}");
        assertTrue(client.testCompatibility(subject, additive), "new optional field with default is BACKWARD compatible");
        assertFalse(client.testCompatibility(subject, breaking), "new required field is not");

        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client.register(subject, breaking));
        assertEquals(409, e.status());
        assertThat(e.getMessage()).contains("'" + subject + "'");
        assertThat(e.getMessage()).contains("HTTP 409");
        assertThat(e.getMessage().toLowerCase()).as(e.getMessage()).contains("incompatible");

        int v2 = client.register(subject, additive);
        assertNotEquals(client.getId(subject, current), v2);
    }

    @Test
    void compatibilityLevelsCanBeReadAndSet() {
        String subject = "it-config-value";
        Schema v1 = SchemaBuilder.record("Cfg").namespace("it").fields().requiredString("a").endRecord();
        Schema v2 = SchemaBuilder.record("Cfg").namespace("it").fields().requiredString("a").requiredLong("b").endRecord();
        client.register(subject, v1);
        client.setCompatibility(subject, "NONE");
        assertEquals("NONE", client.getCompatibility(subject));
        assertTrue(client.testCompatibility(subject, v2));
        client.setCompatibility(subject, "FULL");
        assertEquals("FULL", client.getCompatibility(subject));
        assertFalse(client.testCompatibility(subject, v2));

        String global = client.getCompatibility(null);
        try {
            client.setCompatibility(null, "FORWARD");
            assertEquals("FORWARD", client.getCompatibility(null));
        } finally {
            client.setCompatibility(null, global);
        }
        assertEquals(global, client.getCompatibility(null));
        assertTrue(client.testCompatibility("it-no-such-subject-value", v1), "a new subject accepts anything");
    }

    private static Schema withField(Schema schema, String fieldJson) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(schema.toString());
        ((ArrayNode) root.get("fields")).add(json.readTree(fieldJson));
        return new Schema.Parser().parse(root.toString());
    }

}
