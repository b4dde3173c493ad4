package io.capstream.aggregator.otlp;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the OpenTelemetry SDK's {@code java.util.logging} records (logger {@code io.opentelemetry}) to capstream's
 * SLF4J log as one line each: an unreachable endpoint gives {@code OTLP export: Failed to export 11 metrics. The
 * request could not be executed. (java.net.ConnectException)} instead of a 40-line stack trace per attempt. The
 * stack trace goes to DEBUG. The SDK never logs header values.
 */
final class SdkLogBridge extends Handler {
    private static final Logger LOG = LoggerFactory.getLogger(OtlpExport.class);
    /** Held so that the JUL configuration is not garbage-collected with the logger. */
    private static java.util.logging.Logger sdkLogger;

    private final SimpleFormatter formatter = new SimpleFormatter();

    private SdkLogBridge() {
    }

    /** Installs the bridge once per JVM (later calls do nothing). */
    static synchronized void install() {
        if (sdkLogger != null) {
            return;
        }
        sdkLogger = java.util.logging.Logger.getLogger("io.opentelemetry");
        sdkLogger.setUseParentHandlers(false);
        sdkLogger.addHandler(new SdkLogBridge());
    }

    /**
     * @param message the record's formatted message
     * @param thrown  its exception, or null
     * @return the one line logged: {@code OTLP export: <message> (<cause>)}, the cause being the first exception of
     *         the chain that is not a wrapper ({@code CompletionException}, {@code ExecutionException},
     *         {@code UncheckedIOException}), e.g. {@code java.net.ConnectException}
     */
    static String line(String message, Throwable thrown) {
        if (thrown == null) {
            return "OTLP export: " + message;
        }
        Throwable cause = thrown;
        while (cause.getCause() != null && cause.getCause() != cause
                && (cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException
                || cause instanceof java.io.UncheckedIOException)) {
            cause = cause.getCause();
        }
        return "OTLP export: " + message + " (" + cause + ")";
    }

    @Override
    public void publish(LogRecord record) {
        int level = record.getLevel().intValue();
        if (level < Level.INFO.intValue() && !LOG.isDebugEnabled()) {
            return;
        }
        String text = line(formatter.formatMessage(record), record.getThrown());
        if (level >= Level.WARNING.intValue()) {
            LOG.warn(text);
        } else if (level >= Level.INFO.intValue()) {
            LOG.info(text);
        } else {
            LOG.debug(text);
        }
        if (record.getThrown() != null && LOG.isDebugEnabled()) {
            LOG.debug("OTLP export: stack trace", record.getThrown());
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
