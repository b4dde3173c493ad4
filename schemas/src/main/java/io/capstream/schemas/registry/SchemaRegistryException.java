package io.capstream.schemas.registry;

/**
 * A schema registry call failed. The message names the subject (when any), the HTTP status (when
 * any) and the registry's own error message.
 */
public class SchemaRegistryException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    /**
     * @param message what failed, with subject and registry message
     * @param status  HTTP status, or -1 when no response was received
     * @param cause   underlying cause, or null
     */
    public SchemaRegistryException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** @return the HTTP status, or -1 when no response was received */
    public int status() {
        return status;
    }
}
