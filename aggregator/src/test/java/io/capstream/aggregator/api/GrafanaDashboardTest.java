package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.runtime.StreamsRuntime;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.schemas.avro.WindowSummary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in the repository ({@code deploy/grafana/capstream-dashboard.json}) only queries
 * metrics that the aggregator's {@code /metrics} really exports: a real {@link ApiServer} with the
 * aggregator's {@link MonitoringMetrics}, bound to the aggregator topology's Kafka Streams client (created,
 * not started: the meters Micrometer binds at start-up, as {@code AggregatorService} binds them), after
 * closed windows were fed to it.
 */
class GrafanaDashboardTest {
    /** The dashboard, relative to the module directory (surefire's working directory). */
    static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "capstream-dashboard.json");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![a-zA-Z0-9_:.])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan", "le", "quantile");
    private static final Pattern TYPE_LINE = Pattern.compile("# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\\w+)");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ].*");
    private static final Pattern SAMPLE_LABEL = Pattern.compile("[{,]([a-zA-Z_][a-zA-Z0-9_]*)=\"");
    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");

    private final HttpClient http = HttpClient.newHttpClient();

    /**
     * The metric names a PromQL expression reads: identifiers that are not function names (followed by
     * {@code (}), keywords, label names inside {@code {...}} or {@code by/without (...)}, durations in
     * {@code [...]}, strings or Grafana variables.
     */
    static Set<String> metricNames(String expr) {
        String s = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^\\]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\$\\{[^}]*}|\\$\\w+", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group().toLowerCase())) {
                names.add(m.group());
            }
        }
        return names;
    }

    @Test
    void extractsMetricNamesFromPromQl() {
        assertEquals(Set.of("foo_total", "bar"), metricNames(
                "sum by (target, model) (rate(foo_total{a=\"b(\",c=~\"$x\"}[$__rate_interval])) / on (target) bar offset 5m"));
        assertEquals(Set.of("x_seconds"), metricNames("histogram_quantile(0.95, x_seconds{quantile=\"0.5\"}) * 1e-3"));
        assertEquals(Set.of("y"), metricNames("time() - max(y{t=~\"${target}\"})"));
    }

    /** Every panel, rows' nested panels included, rows themselves excluded. */
    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            if ("row".equals(p.path("type").asText())) {
                p.path("panels").forEach(out::add);
            } else {
                out.add(p);
            }
        }
        return out;
    }

    @Test
    void theDashboardIsAGrafanaDashboardWithAPrometheusInputAndPanelsWithQueries() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        assertEquals("capstream", d.path("title").asText());
        assertEquals("capstream", d.path("uid").asText());
        assertTrue(d.path("schemaVersion").asInt() >= 38, "Grafana 10+ schema");
        assertEquals("DS_PROMETHEUS", d.path("__inputs").path(0).path("name").asText());
        assertEquals("prometheus", d.path("__inputs").path(0).path("pluginId").asText());
        List<JsonNode> panels = panels(d);
        assertTrue(panels.size() >= 4, panels.size() + " panels");
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode p : panels) {
            String title = p.path("title").asText();
            assertThat(Set.of("timeseries", "stat")).as(title).contains(p.path("type").asText());
            assertEquals("${DS_PROMETHEUS}", p.path("datasource").path("uid").asText(), title);
            assertTrue(p.path("targets").size() >= 1, "no target in " + title);
            for (JsonNode t : p.path("targets")) {
                assertThat(t.path("expr").asText()).as("empty expr in " + title).isNotBlank();
                assertThat(t.path("refId").asText()).as("no refId in " + title).isNotBlank();
            }
            assertTrue(ids.add(p.path("id").asInt()), "duplicate panel id in " + title);
        }
        Set<String> variables = new TreeSet<>();
        d.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
        assertEquals(Set.of("target", "model", "context_bucket"), variables);
    }

    @Test
    void everyMetricTheDashboardQueriesIsExportedOnMetrics() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Map<String, String> usedBy = new TreeMap<>();
        for (JsonNode p : panels(d)) {
            for (JsonNode t : p.path("targets")) {
                metricNames(t.path("expr").asText()).forEach(n -> usedBy.putIfAbsent(n, p.path("title").asText()));
            }
        }
        for (JsonNode a : promAnnotations(d)) {
            metricNames(a.path("expr").asText()).forEach(n -> usedBy.putIfAbsent(n, "annotation " + a.path("name").asText()));
        }
        for (JsonNode v : d.path("templating").path("list")) {
            Matcher m = LABEL_VALUES.matcher(v.path("query").path("query").asText());
            while (m.find()) {
                usedBy.putIfAbsent(m.group(1), "variable " + v.path("name").asText());
            }
        }
        assertThat(usedBy.keySet()).as(usedBy.toString()).anyMatch(n -> n.startsWith("capstream_window_"));
        assertThat(usedBy.keySet()).as(usedBy.toString()).anyMatch(n -> n.startsWith("kafka_stream"));
        assertThat(usedBy.keySet()).as("the histograms, counters and probe success (issue 31): " + usedBy)
                .contains("capstream_ttft_seconds_bucket", "capstream_e2e_seconds_bucket", "capstream_requests_total",
                        "capstream_input_tokens_total", "capstream_output_tokens_total", "capstream_window_probe_success");
        assertThat(exprs(d)).as("quantiles of the TTFT histogram")
                .contains("histogram_quantile(0.95, sum by (le, target, model) (rate(capstream_ttft_seconds_bucket{"
                        + "target=~\"$target\",model=~\"$model\",context_bucket=~\"$context_bucket\"}[$__rate_interval])))");

        String scrape = scrapeAfterWindows();
        Map<String, String> types = new TreeMap<>();
        Map<String, Set<String>> labelsOf = new TreeMap<>();
        for (String line : scrape.lines().toList()) {
            Matcher type = TYPE_LINE.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            if (type.matches()) {
                types.put(type.group(1), type.group(2));
            } else if (!line.startsWith("#") && sample.matches()) {
                Set<String> labels = labelsOf.computeIfAbsent(sample.group(1), k -> new TreeSet<>());
                Matcher label = SAMPLE_LABEL.matcher(line);
                while (label.find()) {
                    labels.add(label.group(1));
                }
            }
        }
        List<String> missing = new ArrayList<>();
        usedBy.forEach((name, panel) -> {
            if (!typed(name, types) || !labelsOf.containsKey(name)) {
                missing.add(name + " (" + panel + ")");
            }
        });
        assertEquals(List.of(), missing, "queried but not exported; exported families: " + types.keySet());

        // the labels the queries match on, group by or show are on the samples of the metrics they read
        List<String> unknownLabels = new ArrayList<>();
        for (JsonNode p : panels(d)) {
            for (JsonNode t : p.path("targets")) {
                String expr = t.path("expr").asText();
                Set<String> available = new TreeSet<>();
                metricNames(expr).forEach(n -> available.addAll(labelsOf.getOrDefault(n, Set.of())));
                for (String label : labelNames(expr + " " + t.path("legendFormat").asText())) {
                    if (!available.contains(label)) {
                        unknownLabels.add(label + " in " + p.path("title").asText() + ": " + expr);
                    }
                }
            }
        }
        for (JsonNode a : promAnnotations(d)) {
            String expr = a.path("expr").asText();
            Set<String> available = new TreeSet<>();
            metricNames(expr).forEach(n -> available.addAll(labelsOf.getOrDefault(n, Set.of())));
            String shown = expr + " " + a.path("titleFormat").asText() + " " + a.path("textFormat").asText();
            for (String label : labelNames(shown)) {
                if (!available.contains(label)) {
                    unknownLabels.add(label + " in annotation " + a.path("name").asText() + ": " + expr);
                }
            }
        }
        assertEquals(List.of(), unknownLabels);
    }

    /** Issue 32: firing alerts and change points are marked on every panel, as Prometheus annotations. */
    @Test
    void alertsAndChangePointsAreAnnotations() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Map<String, String> exprByName = new TreeMap<>();
        promAnnotations(d).forEach(a -> exprByName.put(a.path("name").asText(), a.path("expr").asText()));
        assertThat(exprByName).as("Prometheus annotations").containsOnlyKeys("Firing alerts", "Change points");
        assertThat(metricNames(exprByName.get("Firing alerts"))).as("alerts annotation")
                .containsExactly(AlertStateCollector.NAME);
        assertThat(exprByName.get("Firing alerts")).contains("alertstate=\"firing\"", "target=~\"$target\"");
        assertThat(metricNames(exprByName.get("Change points"))).as("change points annotation")
                .containsExactly("capstream_change_points_total");
        for (JsonNode a : promAnnotations(d)) {
            assertThat(a.path("enable").asBoolean()).as(a.path("name").asText() + " enabled").isTrue();
            assertThat(a.path("datasource").path("uid").asText()).as(a.path("name").asText())
                    .isEqualTo("${DS_PROMETHEUS}");
        }
    }

    /** @return the dashboard's annotations on the Prometheus data source */
    private static List<JsonNode> promAnnotations(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : dashboard.path("annotations").path("list")) {
            if ("prometheus".equals(a.path("datasource").path("type").asText())) {
                out.add(a);
            }
        }
        return out;
    }

    /** @return every panel's query expressions */
    private static List<String> exprs(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        panels(dashboard).forEach(p -> p.path("targets").forEach(t -> out.add(t.path("expr").asText())));
        return out;
    }

    /** @return label names in matchers {@code {a="x"}}, in {@code by/without (a, b)} and in legends {@code {{a}}} */
    static Set<String> labelNames(String text) {
        Set<String> names = new TreeSet<>();
        Matcher legend = LEGEND_LABEL.matcher(text);
        while (legend.find()) {
            names.add(legend.group(1));
        }
        String noLegends = LEGEND_LABEL.matcher(text).replaceAll(" ").replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
        Matcher selector = Pattern.compile("\\{([^}]*)}").matcher(noLegends);
        while (selector.find()) {
            Matcher m = Pattern.compile("([a-zA-Z_]\\w*)\\s*(?:=~|!~|!=|=)").matcher(selector.group(1));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        Matcher grouping = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)").matcher(noLegends);
        while (grouping.find()) {
            for (String label : grouping.group(1).split(",")) {
                if (!label.isBlank()) {
                    names.add(label.trim());
                }
            }
        }
        return names;
    }

    @Test
    void extractsLabelNames() {
        assertEquals(Set.of("a", "b", "c", "d"), labelNames("sum by (a, b) (x{c=~\"$c\",d!=\"}{\"}) {{a}}"));
    }

    /** @return whether a TYPE line declares the name, directly or as a histogram/summary/counter sample name */
    private static boolean typed(String name, Map<String, String> types) {
        if (types.containsKey(name)) {
            return true;
        }
        for (Map.Entry<String, Set<String>> rule : Map.of("_bucket", Set.of("histogram"), "_count",
                Set.of("histogram", "summary"), "_sum", Set.of("histogram", "summary"), "_total", Set.of("counter")).entrySet()) {
            if (name.endsWith(rule.getKey())) {
                String family = name.substring(0, name.length() - rule.getKey().length());
                if (rule.getValue().contains(types.get(family))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** GET /metrics of a real ApiServer after two keys' windows closed, with the aggregator's Streams meters bound. */
    private String scrapeAfterWindows() throws Exception {
        String scope = "grafana-test-" + UUID.randomUUID();
        try (MonitoringMetrics metrics = new MonitoringMetrics()) {
            Topology topology = AggregatorTopology.build(AggregatorConfig.of("mock://" + scope, Duration.ofMinutes(1),
                    Duration.ofSeconds(5), List.of()), metrics);
            // never started: nothing connects; port 9 on loopback is closed
            try (StreamsRuntime runtime = StreamsRuntime.create(topology,
                    StreamsSettings.defaults(scope, "127.0.0.1:9", null).withStreamThreads(1),
                    StreamsRuntime.Options.named(scope).withTempStateDir().withCleanUpOnClose(true)
                            .withCloseTimeout(Duration.ofSeconds(10)))) {
                metrics.bindStreams(runtime.streams());
                try (ApiServer server = ApiServer.start(new ApiConfig("127.0.0.1", 0), new ApiServerTest.FakeQueries(true),
                        metrics)) {
                    metrics.accept(MonitoringMetricsTest.fullSummary());
                    // issue 32: a firing alert and a change point, as the topology's listeners report them
                    AlertStateCollector alerts = new AlertStateCollector();
                    metrics.registry().getPrometheusRegistry().register(alerts);
                    alerts.accept(ApiServerTest.FakeQueries.breach());
                    metrics.changePoint(ApiServerTest.change());
                    metrics.accept(WindowSummary.newBuilder(MonitoringMetricsTest.fullSummary()).setContextBucket("le8192")
                            .setWindowStartMs(120_000).setWindowEndMs(180_000).build());
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                    return r.body();
                }
            }
        }
    }
}
