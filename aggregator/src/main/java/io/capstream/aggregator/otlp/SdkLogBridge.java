package io.capstream.aggregator.otlp;

import io.capstream.schemas.text.Redaction;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
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
 * stack trace goes to DEBUG. One failed export is one WARN line: the periodic reader's {@code Exporter failed} that
 * follows the exporter's line goes to DEBUG; failures the exporter did not describe (its own throttling drops lines
 * past 5 a minute) are counted in the next line ({@code ...; 4 more exports failed since the last line}); the line names
 * the URL posted to ({@link #target}: {@code OTLP export to http://host:4318/v1/metrics: Failed ...}). URL user-info
 * and the OTLP header values ({@link #addSecrets}) are masked in every line.
 */
final class SdkLogBridge extends Handler {
    private static final Logger LOG = LoggerFactory.getLogger(OtlpExport.class);
    /** Held so that the JUL configuration is not garbage-collected with the logger. */
    private static java.util.logging.Logger sdkLogger;

    /** The periodic metric reader's record after every failed export. */
    private static final String EXPORTER_FAILED = "Exporter failed";
    /** How the exporter's record describing a failed export starts. */
    private static final String FAILED_TO_EXPORT = "Failed to export";
    private static final Set<String> SECRETS = new CopyOnWriteArraySet<>();
    /** The metrics URL of the export started last (one per capstream process), named in failure lines; or null. */
    private static volatile String target;

    private final SimpleFormatter formatter = new SimpleFormatter();
    /** Whether the last failure was described by the exporter's line (its reader's record then adds nothing). */
    private boolean described;
    /** Failures since the last WARN line that no exporter line described (the SDK throttles its own lines). */
    private long undescribed;

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
        return line("OTLP export", message, thrown);
    }

    /**
     * As {@link #line(String, Throwable)}, under another prefix.
     *
     * @param prefix  what the line starts with, before the colon: {@code OTLP export} or {@code OTLP export to URL}
     * @param message the record's formatted message
     * @param thrown  its exception, or null
     * @return {@code <prefix>: <message> (<cause>)}
     */
    private static String line(String prefix, String message, Throwable thrown) {
        if (thrown == null) {
            return prefix + ": " + message;
        }
        Throwable cause = thrown;
        while (cause.getCause() != null && cause.getCause() != cause
                && (cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException
                || cause instanceof java.io.UncheckedIOException)) {
            cause = cause.getCause();
        }
        return prefix + ": " + message + " (" + cause + ")";
    }

    /**
     * Masks these values (the OTLP headers' values, e.g. an API key) in every line from now on.
     *
     * @param values secret values; null and short ones ({@link Redaction#MIN_SECRET_LENGTH}) are ignored
     */
    static void addSecrets(Collection<String> values) {
        for (String v : values) {
            if (v != null && v.length() >= Redaction.MIN_SECRET_LENGTH) {
                SECRETS.add(v);
            }
        }
    }

    /**
     * Names this URL in every {@code Failed to export} line from now on ({@code OTLP export to URL: Failed ...}); its
     * user-info is masked ({@link Redaction#urls}) as the whole line is.
     *
     * @param metricsUrl the URL the exporter posts metrics to, or null to name none
     */
    static void target(String metricsUrl) {
        target = metricsUrl;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        int level = record.getLevel().intValue();
        if (level < Level.INFO.intValue() && !LOG.isDebugEnabled()) {
            return;
        }
        String message = formatter.formatMessage(record);
        boolean failedExport = level >= Level.WARNING.intValue() && message != null
                && message.startsWith(FAILED_TO_EXPORT);
        String url = target;
        String prefix = failedExport && url != null ? "OTLP export to " + url : "OTLP export";
        String text = Redaction.text(line(prefix, message, record.getThrown()), SECRETS, false);
        if (EXPORTER_FAILED.equals(message)) {
            // the periodic reader's echo of a failure the exporter has described (or dropped under its throttling)
            if (described) {
                described = false;
            } else {
                undescribed++;
            }
            LOG.debug(text);
        } else if (failedExport) {
            long more = undescribed;
            undescribed = 0;
            described = true;
            LOG.warn(more == 0 ? text
                    : text + "; " + more + " more export" + (more == 1 ? "" : "s") + " failed since the last line");
        } else if (level >= Level.WARNING.intValue()) {
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
