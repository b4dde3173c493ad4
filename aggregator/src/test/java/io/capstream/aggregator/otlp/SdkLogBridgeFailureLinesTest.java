package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A failed OTLP export as the SDK reports it (the exporter's {@code Failed to export ...} record, then the periodic
 * reader's {@code Exporter failed}): one WARN line per failure, not two, with credentials in it masked.
 */
class SdkLogBridgeFailureLinesTest {
    private static final String EXPORTER = "io.opentelemetry.exporter.internal.http.HttpExporter";
    private static final String READER = "io.opentelemetry.sdk.metrics.export.PeriodicMetricReader";
    private final Logger log = (Logger) LoggerFactory.getLogger(OtlpExport.class);
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();

    @BeforeEach
    void listen() {
        SdkLogBridge.install();
        SdkLogBridge.target(null); // an OtlpExport started earlier in this JVM names its URL
        seen.start();
        log.setLevel(Level.INFO);
        log.addAppender(seen);
    }

    @AfterEach
    void stopListening() {
        log.detachAppender(seen);
        log.setLevel(null);
    }

    private static void failedExport(String detail) {
        java.util.logging.Logger.getLogger(EXPORTER).log(java.util.logging.Level.SEVERE, detail,
                new UncheckedIOException(new ConnectException("Connection refused")));
        java.util.logging.Logger.getLogger(READER).log(java.util.logging.Level.WARNING, "Exporter failed");
    }

    private List<String> warnings() {
        return seen.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void aFailedExportIsOneWarnLineWithTheCredentialsInItsUrlMasked() {
        failedExport("Failed to export 11 metrics. The request could not be executed. Full error message:"
                + " http://otel:hunter2secret@127.0.0.1:1/v1/metrics");
        assertThat(warnings()).as("WARN lines of one failed export").containsExactly("OTLP export: Failed to export 11"
                + " metrics. The request could not be executed. Full error message: http://***@127.0.0.1:1/v1/metrics"
                + " (java.net.ConnectException: Connection refused)");
    }

    @Test
    void aFailedExportNamesTheUrlItPostedToWithItsUserInfoMasked() {
        SdkLogBridge.target("http://otel:hunter2secret@127.0.0.1:1/v1/metrics");
        failedExport("Failed to export 11 metrics. The request could not be executed.");
        assertThat(warnings()).as("WARN lines of one failed export").containsExactly("OTLP export to"
                + " http://***@127.0.0.1:1/v1/metrics: Failed to export 11 metrics. The request could not be executed."
                + " (java.net.ConnectException: Connection refused)");
    }

    @Test
    void failuresTheSdkDidNotDescribeAreCountedInTheNextLine() {
        failedExport("Failed to export 11 metrics. The request could not be executed.");
        // the SDK's own throttling drops its detail line: only the reader's record arrives
        java.util.logging.Logger.getLogger(READER).log(java.util.logging.Level.WARNING, "Exporter failed");
        java.util.logging.Logger.getLogger(READER).log(java.util.logging.Level.WARNING, "Exporter failed");
        failedExport("Failed to export 11 metrics. The request could not be executed.");
        assertThat(warnings()).as("WARN lines").hasSize(2);
        assertThat(warnings().get(1)).as("second line").endsWith("(java.net.ConnectException: Connection refused);"
                + " 2 more exports failed since the last line");
    }

    @Test
    void anOtlpHeaderValueInAnSdkLineIsMasked() {
        SdkLogBridge.addSecrets(List.of("hdrKey9Xq41"));
        java.util.logging.Logger.getLogger(EXPORTER).log(java.util.logging.Level.WARNING, "Failed to export 3 metrics."
                + " Server responded with HTTP status code 401. Error message: bad api-key hdrKey9Xq41");
        assertThat(warnings()).as("WARN lines").containsExactly("OTLP export: Failed to export 3 metrics. Server"
                + " responded with HTTP status code 401. Error message: bad api-key ***");
    }
}
