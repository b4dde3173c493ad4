package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.slo.SloParser;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code capstream_window_probe_success}: 1 for a window with a completed request that met its SLOs, 0 for one
 * without a completed request or with an SLO missed (as the SLO alerts judge it), per target, model and bucket.
 */
class MonitoringMetricsProbeTest {
    private static final String SERIES = "capstream_window_probe_success{context_bucket=\"le4096\",model=\"m\","
            + "target=\"http://h/v1\"} ";

    /** ApiServerTest's window: 9 of 10 completed, p95 TTFT 250 ms, error rate 0.1. */
    private static String probe(List<String> slos, WindowSummary window) {
        try (MonitoringMetrics metrics = new MonitoringMetrics(SloParser.parseAll(slos), Clock.systemUTC())) {
            metrics.accept(window);
            return metrics.scrape();
        }
    }

    @Test
    void aWindowWithACompletedRequestAndNoSlosSucceeds() {
        assertThat(probe(List.of(), ApiServerTest.summary())).contains(SERIES + "1.0\n");
    }

    @Test
    void aWindowThatMeetsEverySloSucceeds() {
        assertThat(probe(List.of("ttft_p95_ms<=300", "error_rate<=0.2"), ApiServerTest.summary()))
                .contains(SERIES + "1.0\n");
    }

    @Test
    void aWindowThatMissesAnSloFails() {
        assertThat(probe(List.of("ttft_p95_ms<=200", "error_rate<=0.2"), ApiServerTest.summary()))
                .as("p95 TTFT 250 ms > 200 ms").contains(SERIES + "0.0\n");
        assertThat(probe(List.of("error_rate<=0.05"), ApiServerTest.summary()))
                .as("error rate 0.1 > 0.05").contains(SERIES + "0.0\n");
    }

    @Test
    void aWindowWithoutACompletedRequestFailsEvenWithoutSlos() {
        WindowSummary allFailed = WindowSummary.newBuilder(ApiServerTest.summary()).setCompleted(0).setFailed(10)
                .setErrorRate(1.0).setTtftMs(null).build();
        assertThat(probe(List.of(), allFailed)).contains(SERIES + "0.0\n");
        assertThat(probe(List.of("ttft_p95_ms<=300"), allFailed))
                .as("no TTFT to judge, still no completed request").contains(SERIES + "0.0\n");
    }

    @Test
    void theLatestWindowDecides() {
        try (MonitoringMetrics metrics = new MonitoringMetrics(SloParser.parseAll(List.of("ttft_p95_ms<=200")),
                Clock.systemUTC())) {
            metrics.accept(ApiServerTest.summary());
            assertThat(metrics.scrape()).contains(SERIES + "0.0\n");
            metrics.accept(WindowSummary.newBuilder(ApiServerTest.summary()).setWindowStartMs(120_000)
                    .setWindowEndMs(180_000).setTtftMs(new io.capstream.schemas.avro.Quantiles(9L, 90.0, 150.0, 190.0, null, null, null, null))
                    .build());
            assertThat(metrics.scrape()).as("next window met the SLO").contains(SERIES + "1.0\n");
        }
    }
}
