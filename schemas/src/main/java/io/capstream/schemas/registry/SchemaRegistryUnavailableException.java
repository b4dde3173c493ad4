package io.capstream.schemas.registry;

/**
 * The schema registry gave no answer to a call: it could not be connected to, timed out, answered
 * HTTP 5xx or 429 on every attempt, or the call was interrupted before it answered. Unlike its
 * superclass for a 4xx answer (e.g. 404: schema id not found) or an unusable 200 answer, this says
 * nothing about the schema or the bytes being decoded: the same call may well succeed later, so a
 * caller should retry or report the registry as unreachable, never treat the data as bad.
 */
public class SchemaRegistryUnavailableException extends SchemaRegistryException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message   what failed (call, URL, last error); not null
     * @param status    HTTP status of the last attempt (5xx or 429), or -1 when no response was received
     * @param errorCode the registry's {@code error_code} of the last answer, or -1 when there is none
     * @param cause     underlying I/O error, or null
     */
    public SchemaRegistryUnavailableException(String message, int status, int errorCode, Throwable cause) {
        super(message, status, errorCode, cause);
    }

    /**
     * @param error any throwable (for example a Kafka {@code SerializationException} wrapping a
     *              registry error); may be null
     * @return the first {@link SchemaRegistryUnavailableException} in the cause chain of
     *         {@code error} (itself included), or null when there is none
     */
    public static SchemaRegistryUnavailableException in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SchemaRegistryUnavailableException u) {
                return u;
            }
        }
        return null;
    }
}
