package io.capstream.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.MockSchemaRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every record type survives a trip through {@link SpecificAvroSerde} with a {@code mock://} registry. */
class SpecificAvroSerdeRoundTripTest {
    private static final String SCOPE = "roundtrip-" + SpecificAvroSerdeRoundTripTest.class.hashCode();

    @AfterEach
    void dropScope() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void runEventsOfEveryPayloadTypeRoundTrip() {
        Set<String> payloadTypes = new TreeSet<>();
        for (RunEvent e : RandomRecords.of(RunEvent.class, 60, 42)) {
            assertEquals(e, roundTrip(RunEvent.class, Topics.EVENTS, e));
            payloadTypes.add(((SpecificRecord) e.getPayload()).getSchema().getName());
        }
        assertEquals(new TreeSet<>(RunEvent.getClassSchema().getField("payload").schema().getTypes().stream()
                .map(Schema::getName).toList()), payloadTypes, "every payload branch was exercised");
    }

    @Test
    void reportsSummariesAndAlertsRoundTrip() {
        for (BenchmarkReport r : RandomRecords.of(BenchmarkReport.class, 10, 7)) {
            assertEquals(r, roundTrip(BenchmarkReport.class, Topics.REPORTS, r));
        }
        for (WindowSummary w : RandomRecords.of(WindowSummary.class, 10, 8)) {
            assertEquals(w, roundTrip(WindowSummary.class, Topics.SUMMARIES, w));
        }
        for (SloBreach b : RandomRecords.of(SloBreach.class, 10, 9)) {
            assertEquals(b, roundTrip(SloBreach.class, Topics.ALERTS, b));
        }
    }

    @Test
    void wireFormatIsMagicByteThenSchemaIdThenAvro() {
        SloBreach b = RandomRecords.of(SloBreach.class, 1, 1).get(0);
        SpecificAvroSerde<SloBreach> serde = SpecificAvroSerde.forValue(SloBreach.class, "mock://" + SCOPE);
        byte[] bytes = serde.serializer().serialize(Topics.ALERTS, b);
        assertEquals(0, bytes[0]);
        int id = AvroWireFormat.schemaId(bytes);
        assertEquals(SloBreach.getClassSchema(), MockSchemaRegistry.forScope(SCOPE).getById(id));
        assertEquals(id, MockSchemaRegistry.forScope(SCOPE).getId(Topics.ALERTS + "-value", SloBreach.getClassSchema()));
        assertNull(serde.serializer().serialize(Topics.ALERTS, null));
        assertNull(serde.deserializer().deserialize(Topics.ALERTS, null));
    }

    @Test
    void withoutAutoRegisterTheSchemaMustExist() {
        SpecificAvroSerde<SloBreach> serde = new SpecificAvroSerde<>(SloBreach.class);
        serde.configure(Map.of(SpecificAvroSerde.SCHEMA_REGISTRY_URL, "mock://" + SCOPE,
                SpecificAvroSerde.AUTO_REGISTER, "false"), false);
        SloBreach b = RandomRecords.of(SloBreach.class, 1, 3).get(0);
        SerializationException e = assertThrows(SerializationException.class,
                () -> serde.serializer().serialize(Topics.ALERTS, b));
        assertThat(e.getMessage()).contains("capstream.alerts-value");
        assertThat(e.getMessage()).contains("auto.register.schemas=false");

        int id = MockSchemaRegistry.forScope(SCOPE).register(Topics.ALERTS + "-value", SloBreach.getClassSchema());
        byte[] bytes = serde.serializer().serialize(Topics.ALERTS, b);
        assertEquals(id, AvroWireFormat.schemaId(bytes));
        assertEquals(b, serde.deserializer().deserialize(Topics.ALERTS, bytes));
    }

    @Test
    void undecodableBytesGiveAClearError() {
        SpecificAvroSerde<RunEvent> serde = SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE);
        SerializationException e = assertThrows(SerializationException.class,
                () -> serde.deserializer().deserialize(Topics.EVENTS, new byte[] {1, 2, 3}));
        assertThat(e.getMessage()).contains("RunEvent", Topics.EVENTS);
    }

    private <T extends SpecificRecord> T roundTrip(Class<T> type, String topic, T record) {
        SpecificAvroSerde<T> writer = SpecificAvroSerde.forValue(type, "mock://" + SCOPE);
        SpecificAvroSerde<T> reader = SpecificAvroSerde.forValue(type, "mock://" + SCOPE); // separate client, same scope
        byte[] bytes = writer.serializer().serialize(topic, record);
        return reader.deserializer().deserialize(topic, bytes);
    }
}
