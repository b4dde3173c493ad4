package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.capstream.aggregator.api.WindowTotals;
import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.schemas.avro.WindowHistogram;
import io.capstream.schemas.avro.WindowSummary;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The OTLP/HTTP export end to end in one JVM: window summaries (with the histograms the window path fills) go into
 * {@link WindowTotals}, {@link OtlpExport} posts them to a local receiver ({@link OtlpReceiver}), and the posts,
 * decoded with the official {@code opentelemetry-proto} classes, carry the names of {@link LatencyMeasure}, the units,
 * the GenAI bucket bounds, the attributes, and bucket counts, sums and counts equal to the windows' own.
 */
class OtlpExportTest {
    private static final long START_MS = 1_700_000_000_000L;
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(START_MS + 120_000), ZoneOffset.UTC);
    /** A check period long enough that only forceFlush and close export (the flusher is tested on its own). */
    private static final Duration NO_CHECK = Duration.ofHours(1);
    private static final String CHAT_TARGET = "http://****@sim.local:8000/v1";
    private static final String EMBED_TARGET = "https://emb.example";

    private OtlpReceiver receiver;
    private WindowTotals totals;
    private final List<WindowSummary> windows = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        receiver = new OtlpReceiver();
        totals = new WindowTotals(Clock.fixed(Instant.ofEpochMilli(START_MS), ZoneOffset.UTC));
    }

    @AfterEach
    void tearDown() {
        receiver.close();
        System.clearProperty("otel.exporter.otlp.headers");
        System.clearProperty("otel.exporter.otlp.protocol");
        System.clearProperty("otel.exporter.otlp.timeout");
    }

    private OtlpConfig config(OtlpNames names) {
        return new OtlpConfig(OtlpConfig.metricsUrl(receiver.baseUrl()), names, "vllm");
    }

    /** A window of the chat series: every streamed measure, counts shifted by {@code k}. */
    private WindowSummary chatWindow(long startMs, int k) {
        Map<String, WindowHistogram> h = new LinkedHashMap<>();
        for (LatencyMeasure m : List.of(LatencyMeasure.TTFT, LatencyMeasure.TTFO, LatencyMeasure.E2E,
                LatencyMeasure.INTER_CHUNK)) {
            h.put(m.id(), histogram(m.ordinal() + k, 0.5 * (m.ordinal() + 1) + k));
        }
        return window(CHAT_TARGET, "llama-3-8b", startMs, 10 + k, Map.of("HTTPError", 2L + k, "Timeout", 1L), h);
    }

    private WindowSummary embeddingsWindow(long startMs) {
        return window(EMBED_TARGET, "bge-m3", startMs, 4, Map.of(), Map.of(LatencyMeasure.REQUEST_LATENCY.id(),
                histogram(1, 0.125)));
    }

    /** Bucket i holds i + k values (the +Inf bucket too). */
    private static WindowHistogram histogram(int k, double sumS) {
        List<Long> counts = new ArrayList<>();
        long n = 0;
        for (int i = 0; i <= LatencyMeasure.BOUNDS_S.size(); i++) {
            counts.add((long) (i + k));
            n += i + k;
        }
        return new WindowHistogram(LatencyMeasure.BOUNDS_S, counts, sumS, n);
    }

    private WindowSummary window(String target, String model, long startMs, long completed, Map<String, Long> failures,
                                 Map<String, WindowHistogram> histograms) {
        long failed = failures.values().stream().mapToLong(Long::longValue).sum();
        WindowSummary s = WindowSummary.newBuilder().setTarget(target).setModel(model).setContextBucket("le4096")
                .setWindowStartMs(startMs).setWindowEndMs(startMs + 60_000).setRequests(completed + failed)
                .setCompleted(completed).setFailed(failed).setFailuresByType(failures).setErrorRate(0)
                .setPromptTokens(100 * completed).setOutputTokens(30 * completed).setOutputThroughputTokS(0)
                .setRelativeAccuracy(0.01).setLateDropped(0).setCancelled(3L).setHistograms(histograms).build();
        windows.add(s);
        totals.add(s);
        return s;
    }

    private ExportMetricsServiceRequest flushAndReceive(OtlpExport export) {
        int before = receiver.posts().size();
        assertThat(export.forceFlush(Duration.ofSeconds(20))).as("forceFlush succeeded").isTrue();
        assertThat(receiver.posts()).as("one more post").hasSize(before + 1);
        return receiver.posts().get(before).request();
    }

    private static Map<String, Metric> byName(ExportMetricsServiceRequest request) {
        Map<String, Metric> out = new TreeMap<>();
        request.getResourceMetricsList().forEach(rm -> rm.getScopeMetricsList().forEach(sm ->
                sm.getMetricsList().forEach(m -> out.put(m.getName(), m))));
        return out;
    }

    private static Map<String, String> attributes(List<KeyValue> kvs) {
        Map<String, String> out = new TreeMap<>();
        kvs.forEach(kv -> out.put(kv.getKey(), kv.getValue().hasIntValue() ? String.valueOf(kv.getValue().getIntValue())
                : kv.getValue().getStringValue()));
        return out;
    }

    /** The windows' own histogram of a measure, added up: counts per bucket, then sum and count. */
    private List<Long> expectedCounts(LatencyMeasure m, String target) {
        long[] c = new long[LatencyMeasure.BOUNDS_S.size() + 1];
        windows.stream().filter(w -> w.getTarget().equals(target) && w.getHistograms().containsKey(m.id()))
                .forEach(w -> {
                    List<Long> counts = w.getHistograms().get(m.id()).getCounts();
                    for (int i = 0; i < c.length; i++) {
                        c[i] += counts.get(i);
                    }
                });
        List<Long> out = new ArrayList<>();
        for (long x : c) {
            out.add(x);
        }
        return out;
    }

    private double expectedSum(LatencyMeasure m, String target) {
        return windows.stream().filter(w -> w.getTarget().equals(target) && w.getHistograms().containsKey(m.id()))
                .mapToDouble(w -> w.getHistograms().get(m.id()).getSumS()).sum();
    }

    private static HistogramDataPoint point(Metric m, String operation) {
        return m.getHistogram().getDataPointsList().stream()
                .filter(p -> operation.equals(attributes(p.getAttributesList()).get("gen_ai.operation.name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + operation + " point in " + m));
    }

    @Test
    void exportsTheWindowHistogramsUnderCurrentAndLegacyNamesWithTheWindowsCounts() {
        chatWindow(START_MS, 0);
        chatWindow(START_MS + 60_000, 2);
        embeddingsWindow(START_MS);
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK)) {
            ExportMetricsServiceRequest request = flushAndReceive(export);
            Map<String, Metric> metrics = byName(request);

            for (LatencyMeasure m : LatencyMeasure.values()) {
                List<String> names = new ArrayList<>(List.of(m.otelName()));
                if (m.otelLegacyName() != null) {
                    names.add(m.otelLegacyName());
                }
                String target = m == LatencyMeasure.REQUEST_LATENCY ? EMBED_TARGET : CHAT_TARGET;
                String operation = m == LatencyMeasure.REQUEST_LATENCY ? "embeddings" : "chat";
                for (String name : names) {
                    assertThat(metrics).as("metric names").containsKey(name);
                    Metric metric = metrics.get(name);
                    assertThat(metric.getUnit()).as(name + " unit").isEqualTo("s");
                    assertThat(metric.getHistogram().getAggregationTemporality()).as(name + " temporality")
                            .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
                    HistogramDataPoint p = point(metric, operation);
                    assertThat(p.getExplicitBoundsList()).as(name + " bounds").isEqualTo(LatencyMeasure.BOUNDS_S);
                    assertThat(p.getBucketCountsList()).as(name + " bucket counts = the windows' own")
                            .isEqualTo(expectedCounts(m, target));
                    assertThat(p.getCount()).as(name + " count")
                            .isEqualTo(expectedCounts(m, target).stream().mapToLong(Long::longValue).sum());
                    assertThat(p.getSum()).as(name + " sum, s").isEqualTo(expectedSum(m, target));
                    assertThat(p.getStartTimeUnixNano()).as(name + " start = the series' start")
                            .isEqualTo(START_MS * 1_000_000L);
                    assertThat(p.getTimeUnixNano()).as(name + " time = collection").isEqualTo((START_MS + 120_000) * 1_000_000L);
                }
            }
            Metric duration = metrics.get(LatencyMeasure.E2E.otelName());
            assertThat(duration.getHistogram().getDataPointsList()).as("duration: chat E2E and embeddings latency")
                    .hasSize(2);

            Map<String, String> chat = attributes(point(metrics.get(LatencyMeasure.TTFO.otelName()), "chat")
                    .getAttributesList());
            assertThat(chat).as("attributes of a chat series").containsExactlyInAnyOrderEntriesOf(Map.of(
                    "gen_ai.operation.name", "chat", "gen_ai.provider.name", "vllm",
                    "gen_ai.request.model", "llama-3-8b", "server.address", "sim.local", "server.port", "8000",
                    "capstream.target", "http://***@sim.local:8000/v1", "capstream.context_bucket", "le4096"));
            Map<String, String> embed = attributes(point(duration, "embeddings").getAttributesList());
            assertThat(embed).as("default https port, no path")
                    .containsEntry("server.address", "emb.example").containsEntry("server.port", "443")
                    .containsEntry("gen_ai.request.model", "bge-m3");
            String body = new String(receiver.posts().get(0).body(), StandardCharsets.ISO_8859_1);
            assertThat(body).as("no user-info and no run id in the post").doesNotContain("****").doesNotContain("run_id")
                    .doesNotContain("run.id");
            Map<String, String> resource = attributes(request.getResourceMetrics(0).getResource().getAttributesList());
            assertThat(resource).as("resource").containsEntry("service.name", "capstream-aggregate");
        }
    }

    @Test
    void exportsTokensAndRequestsAsCumulativeCounters() {
        chatWindow(START_MS, 0);
        chatWindow(START_MS + 60_000, 2);
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK)) {
            Map<String, Metric> metrics = byName(flushAndReceive(export));
            long completed = 10 + 12;
            Metric input = metrics.get("gen_ai.client.inference.usage.input_tokens");
            Metric output = metrics.get("gen_ai.client.inference.usage.output_tokens");
            assertThat(input.getUnit()).as("token unit").isEqualTo("{token}");
            assertThat(input.getSum().getIsMonotonic()).as("monotonic").isTrue();
            assertThat(input.getSum().getAggregationTemporality()).as("temporality")
                    .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
            assertThat(input.getSum().getDataPoints(0).getAsInt()).as("input tokens").isEqualTo(100 * completed);
            assertThat(output.getSum().getDataPoints(0).getAsInt()).as("output tokens").isEqualTo(30 * completed);

            Metric usage = metrics.get("gen_ai.client.token.usage");
            Map<String, HistogramDataPoint> byType = usage.getHistogram().getDataPointsList().stream().collect(
                    Collectors.toMap(p -> attributes(p.getAttributesList()).get("gen_ai.token.type"), p -> p));
            assertThat(byType).as("v1.41 token usage by type").containsOnlyKeys("input", "output");
            assertThat(byType.get("input").getExplicitBoundsList()).as("totals only: no bounds").isEmpty();
            assertThat(byType.get("input").getCount()).as("count = completed requests").isEqualTo(completed);
            assertThat(byType.get("input").getSum()).as("sum = input tokens").isEqualTo(100.0 * completed);
            assertThat(byType.get("output").getSum()).as("sum = output tokens").isEqualTo(30.0 * completed);

            Metric requests = metrics.get("capstream.client.requests");
            assertThat(requests.getUnit()).as("requests unit").isEqualTo("{request}");
            Map<String, Long> byOutcome = new TreeMap<>();
            for (NumberDataPoint p : requests.getSum().getDataPointsList()) {
                Map<String, String> a = attributes(p.getAttributesList());
                byOutcome.put(a.get("capstream.outcome") + (a.containsKey("error.type") ? "/" + a.get("error.type") : ""),
                        p.getAsInt());
            }
            assertThat(byOutcome).as("requests by outcome and error.type").containsExactlyInAnyOrderEntriesOf(Map.of(
                    "completed", completed, "failed/HTTPError", 2L + 4L, "failed/Timeout", 2L, "cancelled", 6L));
        }
    }

    /**
     * A fresh user's finding: from the second export on, the SDK's own exporter counters ({@code otlp.exporter.seen},
     * {@code otlp.exporter.exported}) went out beside capstream's measurements; only the documented names are sent.
     */
    @Test
    void onlyCapstreamsOwnMetricsAreExportedNotTheSdksSelfTelemetry() {
        chatWindow(START_MS, 0);
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.CURRENT), totals::snapshot, CLOCK, NO_CHECK)) {
            flushAndReceive(export);
            Set<String> second = byName(flushAndReceive(export)).keySet();
            assertThat(second).as("names of the second export").isNotEmpty()
                    .allMatch(n -> n.startsWith("gen_ai.") || n.startsWith("capstream."), "a gen_ai.* or capstream.* name");
        }
    }

    @Test
    void theNamesSwitchLeavesOutTheOtherGeneration() {
        chatWindow(START_MS, 0);
        embeddingsWindow(START_MS);
        try (OtlpExport current = OtlpExport.start(config(OtlpNames.CURRENT), totals::snapshot, CLOCK, NO_CHECK)) {
            Set<String> names = byName(flushAndReceive(current)).keySet();
            assertThat(names).as("current only").noneMatch(n -> n.startsWith("gen_ai.client.operation.")
                    || n.equals("gen_ai.client.token.usage")).contains(LatencyMeasure.TTFO.otelName(),
                    "gen_ai.client.inference.usage.input_tokens");
        }
        try (OtlpExport legacy = OtlpExport.start(config(OtlpNames.LEGACY), totals::snapshot, CLOCK, NO_CHECK)) {
            Set<String> names = byName(flushAndReceive(legacy)).keySet();
            assertThat(names).as("legacy only; TTFT keeps its capstream name")
                    .noneMatch(n -> n.startsWith("gen_ai.client.inference."))
                    .contains(LatencyMeasure.TTFO.otelLegacyName(), "gen_ai.client.token.usage",
                            LatencyMeasure.TTFT.otelName(), "capstream.client.requests");
        }
    }

    @Test
    void nothingIsPostedBeforeTheFirstWindowAndCloseSendsTheLastWindows() {
        OtlpExport export = OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK);
        try {
            assertThat(export.forceFlush(Duration.ofSeconds(20))).as("empty flush succeeds").isTrue();
            assertThat(receiver.posts()).as("no window yet, no post").isEmpty();
            chatWindow(START_MS, 0);
        } finally {
            export.close();
        }
        assertThat(receiver.posts()).as("close exported the window").hasSize(1);
        Metric ttfo = byName(receiver.posts().get(0).request()).get(LatencyMeasure.TTFO.otelName());
        assertThat(point(ttfo, "chat").getCount()).as("the window's TTFO count")
                .isEqualTo(windows.get(0).getHistograms().get("ttfo").getCount());
    }

    @Test
    void aNewWindowIsSentWithoutWaitingForTheExportInterval() {
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.CURRENT), totals::snapshot, CLOCK,
                Duration.ofMillis(20))) {
            assertThat(export.destination().interval()).as("periodic interval (SDK default)")
                    .isEqualTo(Duration.ofSeconds(60));
            chatWindow(START_MS, 0);
            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.posts().size() >= 1);
            chatWindow(START_MS + 60_000, 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> receiver.posts().size() >= 2);
            Metric e2e = byName(receiver.posts().get(receiver.posts().size() - 1).request())
                    .get(LatencyMeasure.E2E.otelName());
            assertThat(point(e2e, "chat").getBucketCountsList()).as("both windows in the latest post")
                    .isEqualTo(expectedCounts(LatencyMeasure.E2E, CHAT_TARGET));
        }
    }

    @Test
    void headersFromTheEnvironmentAreSentAndMaskedInTheDescription() {
        System.setProperty("otel.exporter.otlp.headers", "api-key=s3cr3tValue,x-tenant=team-a");
        chatWindow(START_MS, 0);
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK)) {
            flushAndReceive(export);
            Map<String, List<String>> headers = receiver.posts().get(0).headers();
            assertThat(headers).as("headers sent").containsEntry("Api-key", List.of("s3cr3tValue"));
            String described = export.destination().describe();
            assertThat(described).as("description").contains(receiver.baseUrl() + "/v1/metrics", "api-key=****",
                    "x-tenant=****").doesNotContain("s3cr3tValue").doesNotContain("team-a");
        }
    }

    @Test
    void aFailedPostIsAWarnLineNamingTheUrl() {
        Logger log = (Logger) LoggerFactory.getLogger(OtlpExport.class);
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        log.setLevel(Level.WARN);
        log.addAppender(seen);
        String nowhere = receiver.baseUrl() + "/nowhere";
        chatWindow(START_MS, 0);
        try (OtlpExport export = OtlpExport.start(new OtlpConfig(nowhere, OtlpNames.CURRENT, "vllm"), totals::snapshot,
                CLOCK, NO_CHECK)) {
            // the exporter logs its failure before it completes the export that forceFlush waits for
            export.forceFlush(Duration.ofSeconds(20));
        } finally {
            log.detachAppender(seen);
            log.setLevel(null);
        }
        List<String> warnings = seen.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings).as("WARN lines").isNotEmpty()
                .allSatisfy(w -> assertThat(w).startsWith("OTLP export to " + nowhere + ": Failed to export"));
    }

    @Test
    void grpcIsAOneLineConfigurationError() {
        System.setProperty("otel.exporter.otlp.protocol", "grpc");
        assertThatThrownBy(() -> OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK))
                .isInstanceOf(OtlpConfigException.class).hasMessageContaining("http/protobuf")
                .hasMessageNotContaining("\n");
    }

    @Test
    void anUnparsableTimeoutIsAOneLineConfigurationErrorNamingTheSetting() {
        System.setProperty("otel.exporter.otlp.timeout", "soon");
        assertThatThrownBy(() -> OtlpExport.start(config(OtlpNames.BOTH), totals::snapshot, CLOCK, NO_CHECK))
                .isInstanceOf(OtlpConfigException.class).hasMessageContaining("otel.exporter.otlp.timeout")
                .hasMessageNotContaining("\n");
    }

    @Test
    void eachMeasureHasItsOwnCountsWhenSeveralShareAName() {
        // a chat and an embeddings series: gen_ai.client.inference.duration carries both, told apart by operation
        chatWindow(START_MS, 0);
        embeddingsWindow(START_MS);
        Map<LatencyMeasure, Long> counts = new EnumMap<>(LatencyMeasure.class);
        try (OtlpExport export = OtlpExport.start(config(OtlpNames.CURRENT), totals::snapshot, CLOCK, NO_CHECK)) {
            Metric duration = byName(flushAndReceive(export)).get(LatencyMeasure.E2E.otelName());
            counts.put(LatencyMeasure.E2E, point(duration, "chat").getCount());
            counts.put(LatencyMeasure.REQUEST_LATENCY, point(duration, "embeddings").getCount());
        }
        assertThat(counts).as("count per operation").containsExactlyInAnyOrderEntriesOf(Map.of(
                LatencyMeasure.E2E, windows.get(0).getHistograms().get("e2e").getCount(),
                LatencyMeasure.REQUEST_LATENCY, windows.get(1).getHistograms().get("request_latency").getCount()));
    }
}
