package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class SdkLogBridgeTest {
    @Test
    void aFailedExportIsOneLineNamingTheFirstCauseThatIsNoWrapper() {
        Throwable thrown = new CompletionException(new UncheckedIOException(
                (ConnectException) new ConnectException().initCause(new java.nio.channels.ClosedChannelException())));
        String line = SdkLogBridge.line("Failed to export 11 metrics. The request could not be executed.", thrown);
        assertThat(line).as("logged line").isEqualTo("OTLP export: Failed to export 11 metrics. The request could not"
                + " be executed. (java.net.ConnectException)").doesNotContain("\n");
        assertThat(SdkLogBridge.line("Exporter failed", null)).as("without exception")
                .isEqualTo("OTLP export: Exporter failed");
    }
}
