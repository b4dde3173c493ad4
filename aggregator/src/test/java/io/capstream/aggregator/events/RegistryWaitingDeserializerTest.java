package io.capstream.aggregator.events;

import io.capstream.schemas.time.ManualCapClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.window.WindowTestEvents;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.MockSchemaRegistry;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A record read back while the schema registry refuses connections is held and retried (the
 * outage reported to {@link RegistryHealth} meanwhile), never handed on as undecodable; time is a
 * fake clock that the back-off advances.
 */
class RegistryWaitingDeserializerTest {
    private static final String SCOPE = "registry-waiting-deserializer-test";
    private static final RegistryRetry RETRY = new RegistryRetry(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofSeconds(60));
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

    private final RegistryHealth health = new RegistryHealth();
    private final List<String> healthWhileHolding = new ArrayList<>();
    private final ManualCapClock clock = new ManualCapClock().onSleep(d -> healthWhileHolding.add(health.problem()));
    private String refusingUrl;
    private Deserializer<RunEvent> refusing;
    private Deserializer<RunEvent> answering;

    @BeforeEach
    void registries() throws Exception {
        MockSchemaRegistry.dropScope(SCOPE);
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        refusingUrl = "http://127.0.0.1:" + closedPort;
        refusing = SpecificAvroSerde.forValue(RunEvent.class, refusingUrl, RegistryClientConfig.defaults().withMaxRetries(0))
                .deserializer();
        answering = SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE).deserializer();
    }

    @AfterEach
    void drop() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    private static byte[] validRecord(RunEvent event) {
        return SpecificAvroSerde.forValue(RunEvent.class, "mock://" + SCOPE).serializer().serialize(Topics.EVENTS, event);
    }

    /** The registry refuses connections for the first {@code refusals} attempts, then answers. */
    private RegistryWaitingDeserializer<RunEvent> deserializer(int refusals, Duration holdBound) {
        int[] attempts = {0};
        Deserializer<RunEvent> registryComingBack = (topic, data) ->
                attempts[0]++ < refusals ? refusing.deserialize(topic, data) : answering.deserialize(topic, data);
        return new RegistryWaitingDeserializer<>(registryComingBack, RETRY, holdBound, REQUEST_TIMEOUT, health,
                clock);
    }

    @Test
    void aValidRecordIsHeldWhileTheRegistryRefusesConnectionsAndDecodedOnceItAnswers() {
        RunEvent event = WindowTestEvents.completed("benchmark-read-back", 0, 1_767_225_600_000L, 100, 500, 21);

        RunEvent decoded = deserializer(4, Duration.ofSeconds(60)).deserialize(Topics.REPORTS, validRecord(event));

        assertEquals(event, decoded, "the record decoded after the outage, not handed on as undecodable");
        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(400)),
                clock.sleeps(), "one back-off after each of the 4 refused attempts, doubling to the maximum");
        assertEquals(4, healthWhileHolding.size(), healthWhileHolding.toString());
        for (String p : healthWhileHolding) {
            assertThat(p).as("unreachable while the record is held: " + p).isNotNull();
            assertThat(p).as("unreachable while the record is held: " + p)
                    .startsWith(RegistryHealth.UNREACHABLE + "schema registry GET " + refusingUrl
                            + "/schemas/ids/");
            assertThat(p).as("unreachable while the record is held: " + p).contains("ConnectException");
        }
        assertNull(health.problem(), "reachable again once the registry answered");
    }

    @Test
    void aHoldLongerThanTheBoundThrowsTheOutageExceptionNotAnUndecodableRecordError() {
        RunEvent event = WindowTestEvents.completed("benchmark-long-outage", 1, 1_767_225_600_000L, 100, 500, 21);
        Duration bound = Duration.ofSeconds(5);

        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> deserializer(Integer.MAX_VALUE, bound).deserialize(Topics.REPORTS, validRecord(event)));

        assertTrue(thrown instanceof RegistryOutageException, "the outage exception, which the handler does not dead-letter: " + thrown);
        assertThat(thrown.getMessage()).contains("while reading a record of " + Topics.REPORTS);
        long heldMs = clock.sleeps().stream().mapToLong(Duration::toMillis).sum();
        assertTrue(heldMs + REQUEST_TIMEOUT.toMillis() <= bound.toMillis() && clock.sleeps().size() > 3,
                "held (fake time) within the 5 s bound, one request timeout to spare, after several attempts: " + clock.sleeps());
        assertNull(health.problem(), "the hold's report is withdrawn when it gives up (the probe reports the registry): "
                + health.problem());
    }

    @Test
    void withoutBoundTheRecordIsHeldUntilTheRegistryAnswers() {
        RunEvent event = WindowTestEvents.completed("benchmark-global", 2, 1_767_225_600_000L, 100, 500, 21);

        RunEvent decoded = deserializer(1_000, null).deserialize(Topics.REPORT_CHUNKS, validRecord(event));

        assertEquals(event, decoded);
        assertEquals(1_000, clock.sleeps().size(), "1,000 refusals, 1,000 back-offs, never given up");
    }

    @Test
    void anUndecodableRecordIsThrownAtOnceWithoutHolding() {
        byte[] garbage = "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8);

        SerializationException thrown = assertThrows(SerializationException.class,
                () -> deserializer(Integer.MAX_VALUE, Duration.ofSeconds(60)).deserialize(Topics.REPORTS, garbage));

        assertThat(clock.sleeps()).as("garbage needs no registry and is not held: " + clock.sleeps()).isEmpty();
        assertNull(health.problem());
        assertThat(thrown.getMessage()).startsWith("cannot decode RunEvent");
    }
}
