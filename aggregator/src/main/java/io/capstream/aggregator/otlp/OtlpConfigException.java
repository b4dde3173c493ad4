package io.capstream.aggregator.otlp;

/**
 * The OTLP export's settings (the {@code OTEL_*} variables or {@code otel.*} properties, as read by the SDK) are not
 * usable, e.g. an unsupported protocol or an unparsable timeout. The message is one line and names the setting; it
 * never contains a header value.
 */
public final class OtlpConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, one line
     * @param cause   the SDK's exception, or null
     */
    public OtlpConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
