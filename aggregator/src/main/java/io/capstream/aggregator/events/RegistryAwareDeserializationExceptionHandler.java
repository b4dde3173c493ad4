package io.capstream.aggregator.events;

import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator's {@code deserialization.exception.handler}: like
 * {@link LogAndContinueExceptionHandler} (log, dead-letter the record to
 * {@code errors.dead-letter.queue.topic.name}, skip it) for every record that cannot be decoded,
 * but a record whose writer schema could not be fetched because the schema registry gave no answer
 * ({@link RegistryOutageException} from {@link RegistryWaitingDeserializer} after its hold, or a
 * {@link SchemaRegistryUnavailableException} from an unwrapped deserializer) fails the stream
 * thread instead: the record is valid and must be read again once the registry answers
 * ({@link RegistryOutageThreadHandler} replaces the thread), never dead-lettered. Instantiated by
 * Kafka Streams from its class name (public no-argument constructor).
 */
public class RegistryAwareDeserializationExceptionHandler extends LogAndContinueExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryAwareDeserializationExceptionHandler.class);

    /** Created by Kafka Streams. */
    public RegistryAwareDeserializationExceptionHandler() {
    }

    /**
     * @return {@code fail()} without dead-letter records when the registry gave no answer (see the
     *         class comment), else the superclass's answer (resume, with the record dead-lettered
     *         when a dead-letter topic is configured)
     */
    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        if (RegistryOutageException.isIn(exception) || SchemaRegistryUnavailableException.in(exception) != null) {
            LOG.warn("{} ({}-{} offset {}): not dead-lettered; failing the stream thread so that the record is read again",
                    exception.getMessage(), record.topic(), record.partition(), record.offset());
            return Response.fail();
        }
        return super.handleError(context, record, exception);
    }
}
