package io.capstream.aggregator.api;

import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a report chunk as stored in the chunks' global store (the record's bytes as read from
 * {@code capstream.reports.chunks}: a {@link ReportChunk} in the schema registry's wire format) when the artifact of a
 * run is queried. A chunk whose writer schema cannot be fetched because the registry gives no answer is a
 * {@link QueryService.NotReadyException} (HTTP 503, retry later); any other failure (bytes that are no chunk) is
 * thrown as the deserializer threw it.
 */
public final class ReportChunkDecoder {
    private final Deserializer<ReportChunk> deserializer;
    private final String topic;

    /**
     * @param deserializer the chunks' deserializer ({@code SpecificAvroSerde.forValue(ReportChunk.class, ...)}); not null
     * @param topic        the chunks topic (named in the deserializer's messages); not null
     */
    public ReportChunkDecoder(Deserializer<ReportChunk> deserializer, String topic) {
        this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /**
     * @param runId the run (for the message)
     * @param index the chunk's index (for the message)
     * @param bytes the stored bytes, or null
     * @return the chunk, or null when {@code bytes} is null
     * @throws QueryService.NotReadyException when the schema registry gives no answer
     */
    public ReportChunk decode(String runId, int index, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return deserializer.deserialize(topic, bytes);
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof SchemaRegistryUnavailableException) {
                    throw new QueryService.NotReadyException("report of run " + runId + ": chunk " + index
                            + " cannot be decoded now: " + t.getMessage(), e);
                }
            }
            throw e;
        }
    }
}
