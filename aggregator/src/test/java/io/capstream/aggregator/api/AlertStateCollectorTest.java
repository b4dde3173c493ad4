package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AlertStateCollectorTest {
    private static SloBreach alert(String rule, SloState state) {
        return SloBreach.newBuilder().setTarget("http://e").setModel("m").setContextBucket("all")
                .setSlo(rule == null ? "ttft_p95_ms<=500" : "ttft_p95_ms<=500, no failure @ 99%")
                .setMetric(rule == null ? "ttft_p95_ms" : "burn_rate").setComparison("<=").setThreshold(500)
                .setState(state).setWindowStartMs(0).setWindowEndMs(60_000).setDetectedAtMs(0).setRule(rule)
                .setSeverity(rule == null ? null : "page").build();
    }

    private static String scrape(PrometheusRegistry registry) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void firingAlertsAreSeriesAndResolvedOnesDisappear() throws Exception {
        AlertStateCollector c = new AlertStateCollector();
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(c);
        c.accept(alert(null, SloState.BREACH));
        c.accept(alert("page-1h-5m", SloState.BREACH));
        String text = scrape(registry);
        assertThat(text).contains("# TYPE capstream_alerts gauge")
                .contains("capstream_alerts{alertname=\"ttft_p95_ms\",alertstate=\"firing\",context_bucket=\"all\","
                        + "model=\"m\",severity=\"slo\",slo=\"ttft_p95_ms<=500\",target=\"http://e\"} 1.0")
                .contains("alertname=\"page-1h-5m\"").contains("severity=\"page\"");
        c.accept(alert("page-1h-5m", SloState.RECOVERED));
        assertThat(scrape(registry)).as("after the recovery").doesNotContain("page-1h-5m").contains("ttft_p95_ms");
    }
}
