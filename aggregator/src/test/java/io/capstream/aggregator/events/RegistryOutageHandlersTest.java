package io.capstream.aggregator.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.Topics;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** A registry outage fails and replaces the stream thread; every other error keeps its handling. */
class RegistryOutageHandlersTest {
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    private static ErrorHandlerContext context() {
        return new ErrorHandlerContext() {
            @Override public String topic() { return Topics.EVENTS; }
            @Override public int partition() { return 2; }
            @Override public long offset() { return 41; }
            @Override public org.apache.kafka.common.header.Headers headers() { return new RecordHeaders(); }
            @Override public String processorNodeId() { return "capstream-events-decode"; }
            @Override public TaskId taskId() { return new TaskId(0, 2); }
            @Override public long timestamp() { return 1L; }
            @Override public byte[] sourceRawKey() { return "k".getBytes(StandardCharsets.UTF_8); }
            @Override public byte[] sourceRawValue() { return VALUE; }
        };
    }

    @Test
    void processingHandlerFailsOnARegistryOutageAndDeadLettersEverythingElse() {
        RegistryAwareProcessingExceptionHandler h = new RegistryAwareProcessingExceptionHandler();
        h.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, Topics.EVENTS_DLQ));
        Record<String, byte[]> record = new Record<>("k", VALUE, 1L);

        ProcessingExceptionHandler.Response outage = h.handleError(context(), record,
                new RegistryOutageException("schema registry gave no answer for 60000 ms", null));
        assertEquals(ProcessingExceptionHandler.Result.FAIL, outage.result());
        assertThat(outage.deadLetterQueueRecords()).isEmpty();

        ProcessingExceptionHandler.Response other = h.handleError(context(), record, new IllegalStateException("bug"));
        assertEquals(ProcessingExceptionHandler.Result.RESUME, other.result());
        assertEquals(1, other.deadLetterQueueRecords().size());
        assertEquals(Topics.EVENTS_DLQ, other.deadLetterQueueRecords().get(0).topic());
    }

    @Test
    void deserializationHandlerFailsOnARegistryOutageAndDeadLettersEverythingElse() {
        RegistryAwareDeserializationExceptionHandler h = new RegistryAwareDeserializationExceptionHandler();
        h.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, Topics.EVENTS_DLQ));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(Topics.REPORTS, 2, 41, "k".getBytes(StandardCharsets.UTF_8), VALUE);

        DeserializationExceptionHandler.Response held = h.handleError(context(), record,
                new RegistryOutageException("schema registry gave no answer for 60000 ms", null));
        assertEquals(DeserializationExceptionHandler.Result.FAIL, held.result(), "a valid record is read again, not skipped");
        assertThat(held.deadLetterQueueRecords()).as("nothing dead-lettered: " + held.deadLetterQueueRecords())
                .isEmpty();

        DeserializationExceptionHandler.Response refused = h.handleError(context(), record, new SerializationException(
                "cannot decode BenchmarkReport", new SchemaRegistryUnavailableException("refused", -1, -1, null)));
        assertEquals(DeserializationExceptionHandler.Result.FAIL, refused.result(), "an unwrapped registry outage too");
        assertThat(refused.deadLetterQueueRecords()).isEmpty();

        DeserializationExceptionHandler.Response garbage = h.handleError(context(), record,
                new SerializationException("cannot decode BenchmarkReport: unknown magic byte"));
        assertEquals(DeserializationExceptionHandler.Result.RESUME, garbage.result());
        assertEquals(1, garbage.deadLetterQueueRecords().size(), "undecodable bytes still go to the dead-letter topic");
        assertEquals(Topics.EVENTS_DLQ, garbage.deadLetterQueueRecords().get(0).topic());
    }

    @Test
    void threadHandlerReplacesTheThreadOnARegistryOutageOnly() {
        RegistryOutageThreadHandler h = new RegistryOutageThreadHandler(e -> StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        StreamsException wrapped = new StreamsException("Exception caught in process. taskId=0_2",
                new StreamsException("failed processing", new RegistryOutageException("held too long", null)));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, h.handle(wrapped));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, h.handle(new StreamsException("send",
                new SerializationException("cannot serialize", new SchemaRegistryUnavailableException("refused", -1, -1, null)))),
                "a registry outage while a report was serialized");
        assertEquals(StreamThreadExceptionResponse.SHUTDOWN_CLIENT, h.handle(new StreamsException("bug", new IllegalStateException())));
    }
}
