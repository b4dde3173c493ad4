package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.aggregator.events.EventsSourceConfig;
import io.capstream.schemas.registry.OutageRegistry;
import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.events.RegistryProbe;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.window.WindowTestEvents;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;

/**
 * {@code /ready} during a schema registry outage: 503 with the reason while the events decoder
 * holds a record, 200 once the registry answered; Streams not RUNNING comes first.
 */
class ReadinessTest {
    private static final String SCOPE = "readiness-test";
    private final HttpClient http = HttpClient.newHttpClient();

    /** Readiness of a RUNNING Streams instance with this registry health; no stores. */
    private record RunningStreams(RegistryHealth health) implements QueryService {
        @Override public List<BenchmarkReport> runs() { return List.of(); }
        @Override public Optional<BenchmarkReport> run(String runId) { return Optional.empty(); }
        @Override public List<WindowSummary> summaries(String t, String m, long f, long to) { return List.of(); }
        @Override public List<SloBreach> alerts(long f, long t) { return List.of(); }
        @Override public List<SloBreach> activeBreaches() { return List.of(); }
        @Override public boolean ready() { return notReadyReason() == null; }
        @Override public String notReadyReason() {
            return StreamsQueryService.notReadyReason(KafkaStreams.State.RUNNING, health);
        }
    }

    @Test
    void streamsStateComesFirstThenTheRegistry() {
        RegistryHealth h = new RegistryHealth();
        h.unreachable("task 0_0", "refused");
        assertEquals("Kafka Streams is REBALANCING, not RUNNING", StreamsQueryService.notReadyReason(KafkaStreams.State.REBALANCING, h));
        assertEquals("schema registry unreachable: refused", StreamsQueryService.notReadyReason(KafkaStreams.State.RUNNING, h));
        h.answered("task 0_0");
        assertNull(StreamsQueryService.notReadyReason(KafkaStreams.State.RUNNING, h));
    }

    @Test
    void readyIsFalseWithTheReasonDuringTheOutageAndTrueAfter() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        RegistryHealth health = new RegistryHealth();
        MonitoringMetrics metrics = new MonitoringMetrics();
        try (OutageRegistry registry = new OutageRegistry(SCOPE);
             ApiServer api = ApiServer.start(new ApiConfig("127.0.0.1", 0), new RunningStreams(health), metrics)) {
            // at every registry request, what /ready answers at that moment
            registry.failNext(3).observe(() -> ready(api.port()));
            EventsSourceConfig config = new EventsSourceConfig(Topics.EVENTS, Topics.EVENTS_DLQ, registry.url(),
                    new RegistryClientConfig(Duration.ofSeconds(2), 3, Duration.ofMillis(10), null, null))
                    .withRegistryRetry(new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofSeconds(10)))
                    .withRegistryHealth(health);
            StreamsBuilder b = new StreamsBuilder();
            EventsSource.stream(b, config).mapValues(RunEvent::getEventId).to("decoded", Produced.with(Serdes.String(), Serdes.String()));
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "readiness-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            RunEvent event = WindowTestEvents.completed("benchmark-ready", 0, 1_767_225_600_000L, 100, 500, 21);
            byte[] bytes = SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE).serializer().serialize(Topics.EVENTS, event);
            try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), props)) {
                assertEquals("200 {\"ready\":true}", ready(api.port()));
                driver.createInputTopic(Topics.EVENTS, new StringSerializer(), new ByteArraySerializer())
                        .pipeInput("benchmark-ready", bytes);
                assertEquals(List.of(event.getEventId()), driver.createOutputTopic("decoded",
                        Serdes.String().deserializer(), Serdes.String().deserializer()).readValuesToList());
            }
            List<String> seen = registry.observed();
            assertEquals(4, seen.size(), seen.toString());
            assertEquals("200 {\"ready\":true}", seen.get(0), "before the first failure");
            for (String s : seen.subList(1, 4)) {
                assertThat(s).startsWith("503 ");
                JsonObject body = new JsonObject(s.substring(4));
                assertEquals(false, body.getBoolean("ready"));
                assertThat(body.getString("reason")).startsWith("schema registry unreachable: schema registry GET "
                        + registry.url() + "/schemas/ids/1 failed: HTTP 503");
            }
            assertEquals("200 {\"ready\":true}", ready(api.port()), "ready again once the registry answered");
        } finally {
            metrics.close();
            MockSchemaRegistry.dropScope(SCOPE);
        }
    }

    @Test
    void theProbeMakesReadyFalseWhileTheRegistryGivesNoAnswerEvenWithNoRecordWaiting() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        RegistryHealth health = new RegistryHealth();
        MonitoringMetrics metrics = new MonitoringMetrics();
        RegistryClientConfig client = new RegistryClientConfig(Duration.ofSeconds(2), 3, Duration.ofMillis(10), null, null);
        try (OutageRegistry registry = new OutageRegistry(SCOPE);
             ApiServer api = ApiServer.start(new ApiConfig("127.0.0.1", 0), new RunningStreams(health), metrics);
             RegistryProbe probe = RegistryProbe.forUrl(registry.url(), client, health)) {
            assertTrue(probe.probeOnce(), "the registry answers");
            assertEquals("200 {\"ready\":true}", ready(api.port()));

            registry.down(true);
            assertFalse(probe.probeOnce(), "503: no answer");
            String during = ready(api.port());
            assertThat(during).startsWith("503 ");
            String reason = new JsonObject(during.substring(4)).getString("reason");
            assertThat(reason).as("the probe's reason: " + reason)
                    .startsWith("schema registry unreachable: schema registry GET " + registry.url()
                            + "/subjects failed: HTTP 503");
            assertEquals(List.of("/subjects", "/subjects"), registry.paths(), "one request per probe (no transport retries)");

            registry.down(false);
            assertTrue(probe.probeOnce());
            assertEquals("200 {\"ready\":true}", ready(api.port()), "ready again after the first answered probe");
        } finally {
            metrics.close();
            MockSchemaRegistry.dropScope(SCOPE);
        }
    }

    @Test
    void aRegistryThatRefusesConnectionsIsUnreachableUntilTheProbeIsClosed() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        RegistryHealth health = new RegistryHealth();
        RegistryProbe probe = RegistryProbe.forUrl("http://127.0.0.1:" + closedPort, RegistryClientConfig.defaults(), health);

        assertFalse(probe.probeOnce());
        String reason = StreamsQueryService.notReadyReason(KafkaStreams.State.RUNNING, health);
        assertThat(reason).as("not ready: " + reason).isNotNull();
        assertThat(reason).as("not ready: " + reason)
                .startsWith("schema registry unreachable: schema registry GET http://127.0.0.1:"
                        + closedPort + "/subjects failed");
        assertThat(reason).as("not ready: " + reason).contains("ConnectException");

        probe.close();
        assertNull(health.problem(), "a closed probe reports nothing: " + health.problem());
        assertNull(RegistryProbe.forUrl("mock://x", RegistryClientConfig.defaults(), health), "no probe of an in-memory registry");
    }

    private String ready(int port) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (Exception e) {
            return "error " + e;
        }
    }
}
