package io.capstream.aggregator.events;

import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.util.Objects;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator's {@link StreamsUncaughtExceptionHandler}: a stream thread that failed because of
 * a schema registry outage ({@link RegistryOutageException}, or a registry that gave no answer
 * while a record was serialized) is replaced ({@code REPLACE_THREAD}): its tasks go to the new
 * thread, which reads on from the last commit. Every other exception gets the delegate's answer.
 * Thread-safe when the delegate is.
 */
public final class RegistryOutageThreadHandler implements StreamsUncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryOutageThreadHandler.class);

    private final StreamsUncaughtExceptionHandler otherwise;

    /**
     * @param otherwise answers every exception that is not a registry outage; not null
     */
    public RegistryOutageThreadHandler(StreamsUncaughtExceptionHandler otherwise) {
        this.otherwise = Objects.requireNonNull(otherwise, "otherwise");
    }

    /**
     * The handler of every capstream Streams application (the {@code aggregate} service and the
     * in-process report topologies of {@code run}, {@code import} and {@code replay}).
     *
     * @return a handler that replaces a thread stopped by a registry outage and shuts the
     *         application down (after logging the exception) on anything else
     */
    public static RegistryOutageThreadHandler elseShutdownClient() {
        return new RegistryOutageThreadHandler(e -> {
            LOG.error("stream thread failed; shutting down the application", e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    }

    /**
     * @param exception what stopped the stream thread; not null
     * @return {@code REPLACE_THREAD} for a registry outage, else the delegate's answer
     */
    @Override
    public StreamThreadExceptionResponse handle(Throwable exception) {
        if (RegistryOutageException.isIn(exception)
                || SchemaRegistryUnavailableException.in(exception) != null) {
            LOG.warn("stream thread stopped by a schema registry outage; replacing it (it reads on from the last commit): {}",
                    rootMessage(exception));
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        return otherwise.handle(exception);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && !(t instanceof RegistryOutageException)) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
