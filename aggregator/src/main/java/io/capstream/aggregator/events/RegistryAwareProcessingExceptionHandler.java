package io.capstream.aggregator.events;

import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator's {@code processing.exception.handler}: like
 * {@link LogAndContinueProcessingExceptionHandler} (log, dead-letter the record to
 * {@code errors.dead.letter.queue.topic.name}, continue) for every exception but a
 * {@link RegistryOutageException}, which fails the stream thread instead: the record is valid and
 * must be read again once the registry answers, not dead-lettered. Instantiated by Kafka Streams
 * from its class name (public no-argument constructor); stateless apart from the superclass's
 * configuration.
 */
public class RegistryAwareProcessingExceptionHandler extends LogAndContinueProcessingExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryAwareProcessingExceptionHandler.class);

    /** Created by Kafka Streams. */
    public RegistryAwareProcessingExceptionHandler() {
    }

    /**
     * @return {@code fail()} without dead-letter records for a {@link RegistryOutageException} (in
     *         the cause chain of {@code exception}), else the superclass's answer (resume, with the
     *         record dead-lettered when a dead-letter topic is configured)
     */
    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (RegistryOutageException.isIn(exception)) {
            LOG.warn("{} (task {}, {}-{} offset {}): failing the stream thread so that the record is read again",
                    exception.getMessage(), context.taskId(), context.topic(), context.partition(), context.offset());
            return Response.fail();
        }
        return super.handleError(context, record, exception);
    }
}
