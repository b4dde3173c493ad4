package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.awaitility.Awaitility.await;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 2: every secret capstream was given is masked in everything it prints or stores. Three runs plant
 * distinct secrets in the user-info of {@code --server-metrics} and {@code --base-url}, in {@code -H 'X-Api-Key: ...'},
 * in {@code -H 'Authorization: Bearer ...'} and in {@code --api-key-env} (the variable is set by the failsafe
 * configuration: a test JVM cannot set its own environment), against a local endpoint that echoes every request
 * header in a 401 body, in an in-stream error, in {@code finish_reason} and in its metrics' 500 body. Then stdout,
 * stderr, the report, the HTML page, the CSV and a raw dump of every topic of the broker (events, reports, server
 * metrics, the aggregator's changelogs and repartition topics) are searched for the planted values.
 */
class SecretsMaskedIT {
    /** Set by the failsafe configuration of the cli module. */
    static final String KEY_VARIABLE = "CAPSTREAM_IT_SECRET_API_KEY";
    private static final String METRICS_PASSWORD = "smPass7Q3xVw";
    private static final String BASE_PASSWORD = "basePass9K2wJd";
    private static final String HEADER_KEY_1 = "xkeyOne4R8tLm";
    private static final String HEADER_KEY_2 = "xkeyTwo2H6pZa";
    private static final String HEADER_KEY_3 = "xkeyThree8N4cYe";
    private static final String BEARER = "bearerTok5M1zQo";

    @TempDir
    Path tmp;

    private Vertx vertx;
    private HttpServer server;
    private final AtomicInteger chats = new AtomicInteger();
    private final AtomicInteger scrapes = new AtomicInteger();

    @BeforeEach
    void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(this::serve);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stopServer() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** @return every header of the request as {@code name: value}, joined by {@code "; "} */
    private static String echo(HttpServerRequest req) {
        List<String> all = new ArrayList<>();
        req.headers().forEach(e -> all.add(e.getKey() + ": " + e.getValue()));
        return String.join("; ", all);
    }

    private void serve(HttpServerRequest req) {
        String echo = echo(req);
        req.body().onSuccess(body -> {
            switch (req.path()) {
                case "/v1/models" -> req.response().putHeader("content-type", "application/json").end(new JsonObject()
                        .put("data", new JsonArray().add(new JsonObject().put("id", "m").put("max_model_len", 4096)))
                        .encode());
                case "/metrics" -> {
                    // every other scrape fails, with the request's headers in the body: the report has an error
                    if (scrapes.incrementAndGet() % 2 == 1) {
                        req.response().setStatusCode(500).end("metrics failed for " + echo);
                    } else {
                        req.response().putHeader("content-type", "text/plain")
                                .end("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 1\n"
                                        + "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 0\n");
                    }
                }
                case "/v1/chat/completions" -> chat(req, echo);
                default -> req.response().setStatusCode(404).end("not found: " + echo);
            }
        });
    }

    /** Request 1 of 4 gets a 401 echoing the headers, 2 an in-stream error, 3 a finish_reason, 4 a normal stream. */
    private void chat(HttpServerRequest req, String echo) {
        int n = chats.incrementAndGet();
        String head = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":";
        String content = head + "[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
        switch (n % 4) {
            case 1 -> req.response().setStatusCode(401).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", new JsonObject().put("message", "invalid credentials: " + echo)
                            .put("type", "auth")).encode());
            case 2 -> req.response().putHeader("content-type", "text/event-stream").end(content + "data: "
                    + new JsonObject().put("error", new JsonObject().put("message", "upstream failed: " + echo)).encode()
                    + "\n\n");
            default -> {
                String finish = n % 4 == 3 ? "stop because " + echo : "stop";
                req.response().putHeader("content-type", "text/event-stream").end(content + head + "[{\"index\":0,"
                        + "\"delta\":{},\"finish_reason\":" + new JsonArray().add(finish).encode().replaceAll("^\\[|]$", "")
                        + "}]}\n\n" + head + "[],\"usage\":{\"prompt_tokens\":60,\"completion_tokens\":2,"
                        + "\"total_tokens\":62}}\n\ndata: [DONE]\n\n");
            }
        }
    }

    @Test
    @Timeout(400)
    void noPlantedSecretIsPrintedOrStored() throws Exception {
        String envKey = System.getenv(KEY_VARIABLE);
        assertThat(envKey).as(KEY_VARIABLE + " must be set (the failsafe configuration sets it)").isNotNull();
        assertThat(envKey).as(KEY_VARIABLE + " must be set (the failsafe configuration sets it)").isNotBlank();
        Map<String, String> planted = new LinkedHashMap<>();
        planted.put("--server-metrics password", METRICS_PASSWORD);
        planted.put("--base-url password", BASE_PASSWORD);
        planted.put("--base-url basic token", Base64.getEncoder().encodeToString(("bu-user:" + BASE_PASSWORD)
                .getBytes(StandardCharsets.UTF_8)));
        planted.put("-H X-Api-Key (run 1)", HEADER_KEY_1);
        planted.put("-H X-Api-Key (run 2)", HEADER_KEY_2);
        planted.put("-H X-Api-Key (run 3)", HEADER_KEY_3);
        planted.put("-H Authorization: Bearer", BEARER);
        planted.put("--api-key-env", envKey);

        int port = server.actualPort();
        String metrics = "http://sm-user:" + METRICS_PASSWORD + "@127.0.0.1:" + port + "/metrics";
        String plainMetrics = "http://127.0.0.1:" + port + "/metrics";
        String registry = "mock://secrets-it-" + UUID.randomUUID();
        Map<String, String> texts = new LinkedHashMap<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            // a standing 'capstream aggregate' service makes the reports (its changelogs stay, as in production)
            try (AggregatorService service = AggregatorService.start(AggregatorConfig.of(registry,
                    RegistryClientConfig.defaults(), Duration.ofMinutes(1), Duration.ofSeconds(10), List.of()),
                    StreamsSettings.defaults(AggregatorGroupOption.DEFAULT_GROUP, bs, tmp.resolve("state")), null)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> service.state() == KafkaStreams.State.RUNNING);
                runAll(bs, registry, metrics, plainMetrics, port, texts);
            }
            texts.putAll(dumpEveryTopic(bs));
        }
        checkNoLeak(texts, planted);
    }

    /**
     * Run 0: the base URL's password (sent as basic auth) and an X-Api-Key, with server metrics scraped (their
     * records key on the target); run 1: a bearer token in -H Authorization and an X-Api-Key; run 2: the key of
     * --api-key-env and an X-Api-Key; runs 1 and 2 name the metrics URL with a password.
     */
    private void runAll(String bs, String registry, String metrics, String plainMetrics, int port,
                        Map<String, String> texts)
            throws Exception {
        List<List<String>> runs = List.of(
                List.of("--base-url", "http://bu-user:" + BASE_PASSWORD + "@127.0.0.1:" + port + "/v1",
                        "-H", "X-Api-Key: " + HEADER_KEY_1),
                List.of("--base-url", "http://127.0.0.1:" + port + "/v1", "-H", "Authorization: Bearer " + BEARER,
                        "-H", "X-Api-Key: " + HEADER_KEY_2),
                List.of("--base-url", "http://127.0.0.1:" + port + "/v1", "--api-key-env", KEY_VARIABLE,
                        "-H", "X-Api-Key: " + HEADER_KEY_3));
        for (int i = 0; i < runs.size(); i++) {
            Path report = tmp.resolve("r" + i + ".json");
            Path html = tmp.resolve("r" + i + ".html");
            Path csv = tmp.resolve("r" + i + ".csv");
            List<String> args = new ArrayList<>(List.of("run", "--model", "m", "--requests", "8", "--concurrency",
                    "2", "--ctx-tokens", "64", "--shared-prefix-tokens", "0", "--max-tokens", "2",
                    "--client-warmup", "0", "--server-metrics", i == 0 ? plainMetrics : metrics,
                    "--run-id", "secrets-" + i, "--output", report.toString(), "--html", html.toString(),
                    "--csv", csv.toString(), "--bootstrap-servers", bs, "--schema-registry-url", registry));
            args.addAll(runs.get(i));
            CommandOutput run = CommandOutput.run(args.toArray(String[]::new));
            assertEquals(1, run.exitCode(), "run " + i + " (some requests fail by design): " + run.err());
            assertTrue(Files.exists(report), "run " + i + " wrote its report: " + run.err());
            texts.put("run " + i + " stdout", run.out());
            texts.put("run " + i + " stderr", run.err());
            texts.put("run " + i + " report", Files.readString(report));
            texts.put("run " + i + " html", Files.readString(html));
            texts.put("run " + i + " csv", Files.readString(csv));
        }
        String report1 = texts.get("run 1 report");
        for (String echoed : List.of("invalid credentials", "upstream failed", "127.0.0.1:" + port + "/metrics")) {
            assertThat(report1).as("the report names what the server echoed (" + echoed + "): "
                    + report1.substring(0, Math.min(report1.length(), 3000))).contains(echoed);
        }
    }

    private static void checkNoLeak(Map<String, String> texts, Map<String, String> planted) {
        for (String topic : List.of("topic capstream.events", "topic capstream.reports", "topic capstream.server-metrics",
                "changelog")) {
            assertThat(texts.keySet()).as(topic + " dumped: " + texts.keySet()).anyMatch(k -> k.contains(topic));
        }
        assertThat(texts.get("topic capstream.server-metrics")).as("run 0's scrapes reached capstream.server-metrics")
                .contains("requests_running");
        String events = texts.get("topic capstream.events");
        assertThat(events).as("the echoes reached the events (in-stream error, finish_reason)")
                .contains("upstream failed", "stop because");
        List<String> leaks = new ArrayList<>();
        texts.forEach((where, text) -> planted.forEach((what, secret) -> {
            if (text.contains(secret)) {
                int at = text.indexOf(secret);
                leaks.add(what + " in " + where + ": ..." + text.substring(Math.max(0, at - 80), Math.min(text.length(),
                        at + secret.length() + 20)).replaceAll("[^\\x20-\\x7e]", "?") + "...");
            }
        }));
        assertEquals(List.of(), leaks, "planted secrets found in what capstream printed or stored");
    }

    /** @return topic name to everything its records hold (keys, values, header values), as ISO-8859-1 text */
    private static Map<String, String> dumpEveryTopic(String bootstrap) throws Exception {
        Set<String> topics;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
        }
        Map<String, String> out = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_uncommitted"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (String topic : topics.stream().sorted().toList()) {
                List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                        .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
                c.assign(parts);
                c.seekToBeginning(parts);
                Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
                StringBuilder text = new StringBuilder();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (parts.stream().anyMatch(p -> c.position(p, Duration.ofSeconds(30)) < end.get(p))
                        && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                        append(text, r.key());
                        append(text, r.value());
                        for (Header h : r.headers()) {
                            append(text, h.value());
                        }
                    }
                }
                out.put("topic " + topic, text.toString());
            }
        }
        return out;
    }

    private static void append(StringBuilder text, byte[] bytes) {
        if (bytes != null) {
            text.append(new String(bytes, StandardCharsets.ISO_8859_1)).append('\n');
        }
    }
}
