package io.capstream.aggregator.events;

/**
 * The events decoder held a record longer than {@link RegistryRetry#holdBound} allows because the
 * schema registry gave no answer. Thrown out of the stream thread on purpose: the record is not
 * dead-lettered ({@link RegistryAwareProcessingExceptionHandler} fails instead of resuming) and
 * {@link RegistryOutageThreadHandler} replaces the thread, which reads the record again from the
 * last commit (exactly-once: nothing is lost, and nothing is processed twice).
 */
public final class RegistryOutageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was held for how long; not null
     * @param cause   the last registry error; may be null
     */
    public RegistryOutageException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param error any throwable (Kafka Streams wraps the processor's exception); may be null
     * @return whether {@code error} or one of its causes is a {@link RegistryOutageException}
     */
    public static boolean isIn(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RegistryOutageException) {
                return true;
            }
        }
        return false;
    }
}
