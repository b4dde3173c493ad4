package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/** The chunks' global store holds the records' bytes as read; the artifact query decodes them. */
class ReportChunkDecoderTest {
    private static final String TOPIC = "capstream.reports.chunks";

    @Test
    void decodesTheBytesAsWrittenToTheTopic() {
        SpecificAvroSerde<ReportChunk> serde = SpecificAvroSerde.forValue(ReportChunk.class, "mock://chunk-decoder");
        ReportChunk chunk = ReportChunk.newBuilder().setRunId("r1").setArtifactSha256("ab").setIndex(2).setCount(3)
                .setData(ByteBuffer.wrap("{\"x\":1}".getBytes(StandardCharsets.UTF_8))).build();
        byte[] wire = serde.serializer().serialize(TOPIC, chunk);
        ReportChunk decoded = new ReportChunkDecoder(serde.deserializer(), TOPIC).decode("r1", 2, wire);
        assertThat(decoded).as("the chunk decoded from the stored bytes").isEqualTo(chunk);
        assertThat(new ReportChunkDecoder(serde.deserializer(), TOPIC).decode("r1", 2, null))
                .as("a missing chunk").isNull();
    }

    @Test
    void aRegistryWithoutAnswerIsNotReadyOtherErrorsAreThrownAsTheyAre() {
        Deserializer<ReportChunk> noRegistry = (topic, bytes) -> {
            throw new SerializationException("cannot decode ReportChunk from topic " + topic,
                    new SchemaRegistryUnavailableException("schema registry GET /schemas/ids/1 refused", 0, 0, null));
        };
        assertThatThrownBy(() -> new ReportChunkDecoder(noRegistry, TOPIC).decode("r1", 4, new byte[] {0}))
                .as("registry without answer: 503, retry later")
                .isInstanceOf(QueryService.NotReadyException.class)
                .hasMessageContaining("report of run r1: chunk 4 cannot be decoded now")
                .hasMessageContaining("refused");
        Deserializer<ReportChunk> garbage = (topic, bytes) -> {
            throw new SerializationException("invalid Avro payload");
        };
        assertThatThrownBy(() -> new ReportChunkDecoder(garbage, TOPIC).decode("r1", 0, new byte[] {0}))
                .as("bytes that are no chunk").isInstanceOf(SerializationException.class)
                .hasMessage("invalid Avro payload");
    }
}
