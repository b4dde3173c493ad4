package io.capstream.aggregator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The Prometheus text of capstream's own meters: every family has HELP text (promtool check metrics). */
class MonitoringMetricsTest {
    static WindowSummary fullSummary() {
        Quantiles q = new Quantiles(9L, 120.0, 250.0, 300.0);
        return WindowSummary.newBuilder(ApiServerTest.summary()).setTtfoMs(q).setE2eMs(q).setItlMs(q)
                .setDecodeTokS(q).setPrefillTokS(q).setGoodput(0.9).setFailuresByType(Map.of("URLError", 1L))
                .build();
    }

    @Test
    void everyCapstreamMeterHasANonEmptyHelpLine() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.accept(fullSummary());
            String prom = metrics.scrape();
            List<String> help = prom.lines().filter(l -> l.startsWith("# HELP capstream_")).toList();
            TreeSet<String> families = new TreeSet<>();
            for (String line : help) {
                String[] parts = line.split(" ", 4);         // "#", "HELP", name, text
                assertEquals(4, parts.length, "HELP without text: " + line);
                assertFalse(parts[3].isBlank(), "HELP without text: " + line);
                families.add(parts[2]);
            }
            // 11 gauges (6 quantile families, error rate, throughput, requests, window end, goodput) + 2 counters
            assertEquals(13, families.size(), families.toString());
            prom.lines().filter(l -> l.startsWith("# TYPE capstream_")).forEach(l -> assertTrue(
                    families.contains(l.split(" ")[2]), "TYPE without HELP: " + l));
            // the documented series keep their names
            for (String name : List.of("capstream_window_ttft_ms", "capstream_window_ttfo_ms", "capstream_window_e2e_ms",
                    "capstream_window_itl_ms", "capstream_window_decode_tok_s", "capstream_window_prefill_tok_s",
                    "capstream_window_error_rate", "capstream_window_goodput",
                    "capstream_window_output_throughput_tok_s", "capstream_window_end_timestamp_seconds",
                    "capstream_window_requests_total", "capstream_window_failures_total")) {
                assertTrue(families.contains(name), name + " in " + families);
            }
        }
    }
}
