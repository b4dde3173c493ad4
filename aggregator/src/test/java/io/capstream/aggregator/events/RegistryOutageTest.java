package io.capstream.aggregator.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.window.WindowTestEvents;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.OutageRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The events source during a schema registry outage: a record whose writer schema cannot be
 * fetched because the registry gives no answer is held and retried (never dead-lettered), the
 * outage is reported to {@link RegistryHealth}, and the record is processed once the registry
 * answers; an outage longer than the hold fails the thread instead; undecodable records (unknown
 * schema id, garbage) still go to the dead-letter topic.
 */
class RegistryOutageTest {
    private static final String SCOPE = "registry-outage-test";
    private static final String DECODED = "decoded";
    /** As in production: 3 transport retries (the decoder turns them off and retries itself). */
    private static final RegistryClientConfig CLIENT =
            new RegistryClientConfig(Duration.ofSeconds(2), 3, Duration.ofMillis(10), null, null);
    private static final RegistryRetry FAST = new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofSeconds(10));

    private final RegistryHealth health = new RegistryHealth();
    private OutageRegistry registry;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> in;
    private TestOutputTopic<String, String> decoded;
    private TestOutputTopic<String, byte[]> dlq;

    @BeforeEach
    void startRegistry() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        registry = new OutageRegistry(SCOPE);
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
        registry.close();
        MockSchemaRegistry.dropScope(SCOPE);
    }

    private void startDriver(String registryUrl, RegistryClientConfig client, RegistryRetry retry, Properties extra) {
        EventsSourceConfig config = new EventsSourceConfig(Topics.EVENTS, Topics.EVENTS_DLQ, registryUrl, client)
                .withRegistryRetry(retry).withRegistryHealth(health);
        StreamsBuilder builder = new StreamsBuilder();
        EventsSource.stream(builder, config).mapValues(RunEvent::getEventId)
                .to(DECODED, Produced.with(Serdes.String(), Serdes.String()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "registry-outage-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.putAll(extra);
        driver = new TopologyTestDriver(builder.build(), props);
        in = driver.createInputTopic(Topics.EVENTS, new StringSerializer(), new ByteArraySerializer());
        decoded = driver.createOutputTopic(DECODED, new StringDeserializer(), new StringDeserializer());
        dlq = driver.createOutputTopic(Topics.EVENTS_DLQ, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** @return a valid event in the wire format, its schema registered in {@link #SCOPE} (id 1) */
    private static byte[] validEvent(RunEvent event) {
        return SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE).serializer().serialize(Topics.EVENTS, event);
    }

    private static RunEvent event(String runId, int index) {
        return WindowTestEvents.completed(runId, index, 1_767_225_600_000L + index, 100, 500, 21);
    }

    @Test
    void aRecordIsHeldThroughAnOutageAndProcessedOnceTheRegistryAnswers() {
        RunEvent event = event("benchmark-held", 0);
        byte[] bytes = validEvent(event);
        // more 503s than the transport's own 1 + 3 attempts: without holding, the record would be dead-lettered
        registry.failNext(6).observe(health::problem);
        startDriver(registry.url(), CLIENT, FAST, new Properties());

        in.pipeInput("benchmark-held", bytes);

        assertTrue(dlq.isEmpty(), "a registry outage dead-letters nothing");
        assertEquals(List.of(event.getEventId()), decoded.readValuesToList(), "the held record is processed once");
        assertEquals(Collections.nCopies(7, "/schemas/ids/1"), registry.paths(),
                "one request per attempt: 6 answered 503, the 7th the schema");
        List<String> seen = registry.observed();
        assertEquals("null", seen.get(0), "reachable before the first failure");
        for (String s : seen.subList(1, 7)) {
            assertThat(s).as("unreachable with the reason while the record is held: " + s)
                    .startsWith(RegistryHealth.UNREACHABLE + "schema registry GET " + registry.url() + "/schemas/ids/1 failed: HTTP 503");
        }
        assertNull(health.problem(), "reachable again once the registry answered");
        assertTrue(health.reachable());
    }

    @Test
    void anOutageLongerThanTheHoldFailsTheThreadInsteadOfDeadLetteringAndTheRecordIsReadAgainLater() {
        RunEvent event = event("benchmark-long-outage", 1);
        byte[] bytes = validEvent(event);
        registry.failNext(Integer.MAX_VALUE);
        // a 3 s hold and 500 ms per request: another attempt starts while one more fits in the hold (elapsed +
        // back-off + request timeout), so a loaded machine still retries (at 300 ms and 100 ms one slow first attempt
        // left no room for a second, load 17-28); the 503s answer at once
        RegistryRetry shortHold = new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(3));
        RegistryClientConfig client = CLIENT.withRequestTimeout(Duration.ofMillis(500));
        // the aggregator's own settings: LogAndContinue + dead-letter topic for processing errors
        startDriver(registry.url(), client, shortHold,
                StreamsSettings.defaults("registry-outage-test", "unused:9092", null).toProperties());

        long start = System.nanoTime();
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> in.pipeInput("benchmark-long-outage", bytes));
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertTrue(RegistryOutageException.isIn(thrown), "the dedicated exception stops the thread: " + thrown);
        assertTrue(dlq.isEmpty(), "nothing dead-lettered, neither by the source nor by the processing exception handler");
        assertTrue(decoded.isEmpty());
        assertTrue(registry.paths().size() > 1, "retried before giving up: " + registry.paths());
        assertTrue(tookMs < 60_000, "held about the 3 s bound, not without end: " + tookMs + " ms");
        assertThat(health.problem()).startsWith(RegistryHealth.UNREACHABLE);

        // Kafka Streams replaces the thread and reads the record again from the last commit; now the registry answers
        registry.failNext(0);
        in.pipeInput("benchmark-long-outage", bytes);
        assertEquals(List.of(event.getEventId()), decoded.readValuesToList());
        assertTrue(dlq.isEmpty());
        assertNull(health.problem());
    }

    @Test
    void aRefusedConnectionHoldsTheRecordToo() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        String closed = "http://127.0.0.1:" + closedPort;
        RegistryRetry shortHold = new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(300));
        // 2 s per request: a refused connection answers at once; at 100 ms a loaded machine's connect timed out first
        startDriver(closed, CLIENT.withRequestTimeout(Duration.ofSeconds(2)), shortHold,
                StreamsSettings.defaults("registry-outage-test", "unused:9092", null).toProperties());

        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> in.pipeInput("benchmark-refused", validEvent(event("benchmark-refused", 0))));

        assertTrue(RegistryOutageException.isIn(thrown), thrown.toString());
        assertTrue(dlq.isEmpty(), "a stopped registry dead-letters nothing");
        assertThat(health.problem()).startsWith(RegistryHealth.UNREACHABLE + "schema registry GET " + closed
                + "/schemas/ids/");
        assertThat(health.problem()).contains("ConnectException");
    }

    @Test
    void anUnknownSchemaIdAndGarbageBytesStillGoToTheDeadLetterTopic() {
        RunEvent good = event("benchmark-dlq", 0);
        byte[] goodBytes = validEvent(good);
        byte[] unknownId = ByteBuffer.allocate(8).put((byte) 0).putInt(999).put(new byte[] {2, 4, 6}).array();
        byte[] garbage = "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8);
        startDriver(registry.url(), CLIENT, FAST, new Properties());

        in.pipeInput("benchmark-dlq", unknownId);
        in.pipeInput("benchmark-dlq", garbage);
        in.pipeInput("benchmark-dlq", goodBytes);

        List<TestRecord<String, byte[]>> dead = dlq.readRecordsToList();
        assertEquals(2, dead.size());
        assertEquals(ByteBuffer.wrap(unknownId), ByteBuffer.wrap(dead.get(0).value()));
        assertThat(header(dead.get(0), EventsSource.H_ERROR_MESSAGE)).contains("HTTP 404 (error_code 40403)");
        assertEquals(ByteBuffer.wrap(garbage), ByteBuffer.wrap(dead.get(1).value()));
        assertEquals("org.apache.kafka.common.errors.SerializationException", header(dead.get(1), EventsSource.H_ERROR_CLASS));
        assertEquals(List.of(good.getEventId()), decoded.readValuesToList());
        assertEquals(List.of("/schemas/ids/999", "/schemas/ids/1"), registry.paths(),
                "a 404 is an answer (not retried); garbage needs no registry");
        assertNull(health.problem());
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
