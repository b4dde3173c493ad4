package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowHistogram;
import io.capstream.schemas.avro.WindowSummary;
import io.micrometer.core.instrument.Gauge;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus text of capstream's meters passes {@code promtool check metrics}: every family has a
 * HELP and a TYPE, names in base units, quantiles only on summaries ({@link PromLint}; promtool itself
 * when it is installed).
 */
class MonitoringMetricsTest {
    static final List<String> FAMILIES = List.of("capstream_window_ttft_seconds", "capstream_window_ttfo_seconds",
            "capstream_window_e2e_seconds", "capstream_window_itl_seconds", "capstream_window_decode_tokens_per_second",
            "capstream_window_prefill_tokens_per_second", "capstream_window_error_rate", "capstream_window_goodput",
            "capstream_window_output_throughput_tokens_per_second", "capstream_window_requests_last",
            "capstream_window_end_timestamp_seconds", "capstream_window_probe_success", "capstream_window_late_dropped_total",
            "capstream_ttft_seconds", "capstream_ttfo_seconds", "capstream_e2e_seconds", "capstream_inter_chunk_seconds",
            "capstream_request_latency_seconds", "capstream_requests_total", "capstream_input_tokens_total",
            "capstream_output_tokens_total", "capstream_change_points_total");

    static WindowSummary fullSummary() {
        Quantiles q = new Quantiles(9L, 120.0, 250.0, 300.0, null, null, null, null);
        return WindowSummary.newBuilder(ApiServerTest.summary()).setTtfoMs(q).setE2eMs(q).setItlMs(q)
                .setDecodeTokS(q).setPrefillTokS(q).setGoodput(0.9).setFailuresByType(Map.of("URLError", 1L))
                .setHistograms(histograms()).build();
    }

    /** One value per measure: 0.25 s (bucket le=0.32). */
    static Map<String, WindowHistogram> histograms() {
        Map<String, WindowHistogram> out = new java.util.TreeMap<>();
        for (LatencyMeasure m : LatencyMeasure.values()) {
            List<Long> counts = new java.util.ArrayList<>(java.util.Collections.nCopies(LatencyMeasure.BOUNDS_S.size() + 1, 0L));
            counts.set(LatencyMeasure.BOUNDS_S.indexOf(0.32), 1L);
            out.put(m.id(), new WindowHistogram(LatencyMeasure.BOUNDS_S, counts, 0.25, 1L));
        }
        return out;
    }

    /** A scrape with every capstream family and a Kafka meter that Kafka registers without a description. */
    static String scrape() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.accept(fullSummary());
            metrics.lateDropped("http://t/v1", "m", "le4096");
            metrics.changePoint(ApiServerTest.change());
            Gauge.builder("kafka.producer.node.request.latency.avg", () -> 4.25).tag("client_id", "c").tag("node_id", "node-1")
                    .register(metrics.registry());
            return metrics.scrape();
        }
    }

    @Test
    void everyCapstreamFamilyHasANonEmptyHelpAndAType() {
        String prom = scrape();
        TreeSet<String> families = new TreeSet<>();
        for (String line : prom.lines().filter(l -> l.startsWith("# HELP capstream_")).toList()) {
            String[] parts = line.split(" ", 4);         // "#", "HELP", name, text
            assertEquals(4, parts.length, "HELP without text: " + line);
            assertThat(parts[3]).as("HELP without text: " + line).isNotBlank();
            families.add(parts[2]);
        }
        assertEquals(new TreeSet<>(FAMILIES), families);
        TreeSet<String> typed = new TreeSet<>();
        prom.lines().filter(l -> l.startsWith("# TYPE capstream_")).forEach(l -> typed.add(l.split(" ")[2]));
        assertEquals(families, typed);
    }

    @Test
    void lateRequestsAreCountedPerTargetAndModel() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.lateDropped("http://t/v1", "m", "le4096");
            metrics.lateDropped("http://t/v1", "m", "le8192");
            String prom = metrics.scrape();
            assertThat(prom).contains("capstream_window_late_dropped_total{model=\"m\",target=\"http://t/v1\"} 2.0");
        }
    }

    /** Issue 32: each published change point counts on its series, metric and direction. */
    @Test
    void changePointsAreCountedPerSeriesMetricAndDirection() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.changePoint(ApiServerTest.change());
            metrics.changePoint(ApiServerTest.change());
            metrics.changePoint(io.capstream.schemas.avro.ChangePoint.newBuilder(ApiServerTest.change())
                    .setDirection("down").build());
            String prom = metrics.scrape();
            assertThat(prom).as("scrape").contains("# TYPE capstream_change_points_total counter\n",
                    "capstream_change_points_total{context_bucket=\"le4096\",direction=\"up\",metric=\"ttft_p95_ms\","
                            + "model=\"m\",target=\"http://h/v1\"} 2.0",
                    "capstream_change_points_total{context_bucket=\"le4096\",direction=\"down\",metric=\"ttft_p95_ms\","
                            + "model=\"m\",target=\"http://h/v1\"} 1.0");
        }
    }

    @Test
    void promtoolsRulesFindNothingOnCapstreamFamiliesAndNoFamilyWithoutHelp() {
        String prom = scrape();
        List<String> problems = PromLint.problems(prom);
        assertEquals(List.of(), problems.stream().filter(p -> p.startsWith("capstream_")).toList(), prom);
        assertEquals(List.of(), problems.stream().filter(p -> p.contains("no help text")).toList(), prom);
        assertThat(prom).contains("# HELP kafka_producer_node_request_latency_avg The average request latency to the broker node");
    }

    @Test
    void latencyQuantilesAreSummariesInSecondsAndRatesInTokensPerSecond() {
        String prom = scrape();
        assertThat(prom).contains("# TYPE capstream_window_ttft_seconds summary\n");
        assertThat(prom).contains("capstream_window_ttft_seconds{context_bucket=\"le4096\",model=\"m\",target=\"http://h/v1\","
                + "quantile=\"0.95\"} 0.25\n");
        assertThat(prom).contains("capstream_window_decode_tokens_per_second{context_bucket=\"le4096\",model=\"m\","
                + "target=\"http://h/v1\",quantile=\"0.99\"} 300.0\n");
        assertThat(prom).as("one window's count is no cumulative _count")
                .doesNotContain("capstream_window_ttft_seconds_count");
    }

    @Test
    void aWindowWithoutAQuantityRemovesItsSeriesAndTheNextOneSetsItAgain() {
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            metrics.accept(fullSummary());
            metrics.accept(WindowSummary.newBuilder(fullSummary()).setTtftMs(null).build());
            assertThat(metrics.scrape()).doesNotContain("capstream_window_ttft_seconds");
            assertThat(metrics.scrape()).contains("capstream_window_e2e_seconds{");
            metrics.accept(ApiServerTest.summary());
            assertThat(metrics.scrape()).contains("capstream_window_ttft_seconds{");
        }
    }

    @Test
    void promtoolCheckMetricsHasNothingToSayAboutCapstreamSeries() throws Exception {
        File promtool = Stream.concat(Stream.of("/usr/bin"),
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)))
                .map(dir -> new File(dir, "promtool")).filter(File::canExecute).findFirst().orElse(null);
        Assumptions.assumeTrue(promtool != null, "promtool is not installed");
        String scrape = scrape();
        assertThat(scrape).as("the histograms, counters and probe gauge are in what promtool checks")
                .contains("capstream_ttft_seconds_bucket{", "capstream_requests_total{", "capstream_window_probe_success{");
        Process p = new ProcessBuilder(promtool.getPath(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(scrape.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // promtool stopped reading: its output says why
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(List.of(), out.lines().filter(l -> l.startsWith("capstream_") || l.contains("no help text")
                || l.contains("error")).toList(), out);
    }
}
