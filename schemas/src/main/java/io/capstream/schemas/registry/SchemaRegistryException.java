package io.capstream.schemas.registry;

/**
 * A schema registry call failed. The message names the subject (when any), the HTTP status (when
 * any) and the registry's own error code and message.
 */
public class SchemaRegistryException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final int errorCode;

    /**
     * @param message what failed, with subject and registry message
     * @param status  HTTP status, or -1 when no response was received
     * @param cause   underlying cause, or null
     */
    public SchemaRegistryException(String message, int status, Throwable cause) {
        this(message, status, -1, cause);
    }

    /**
     * @param message   what failed, with subject and registry message
     * @param status    HTTP status, or -1 when no response was received
     * @param errorCode the registry's {@code error_code} (e.g. 40401 subject not found, 40403 schema
     *                  not found, 409 incompatible, 42201 invalid schema), or -1 when there is none
     * @param cause     underlying cause, or null
     */
    public SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** @return the HTTP status, or -1 when no response was received */
    public int status() {
        return status;
    }

    /** @return the registry's {@code error_code}, or -1 when the response had none */
    public int errorCode() {
        return errorCode;
    }
}
