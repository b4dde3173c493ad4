package io.capstream.loadgen.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.continuous.HeartbeatSerializerAccess;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.AuthRegistryStub;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The event sink's and the heartbeat sender's producer serdes send the registry credentials. */
class KafkaSinkRegistryAuthTest {
    private static final String USER_INFO = "gen:pw";
    private static final RegistryClientConfig AUTH =
            new RegistryClientConfig(Duration.ofSeconds(5), 0, Duration.ofMillis(10), USER_INFO, null);

    @Test
    void eventSinkSerializerSendsBasicAuth() throws Exception {
        try (AuthRegistryStub stub = new AuthRegistryStub(USER_INFO)) {
            KafkaSinkConfig c = KafkaSinkConfig.of("127.0.0.1:1", stub.url()).withRegistryClient(AUTH);
            RunEvent e = KafkaEventSinkTest.event("r", 1);
            byte[] bytes = KafkaEventSink.valueSerializer(c).serialize(Topics.EVENTS, e);
            assertEquals(e, SpecificAvroSerde.forValue(RunEvent.class, stub.url(), AUTH).deserializer()
                    .deserialize(Topics.EVENTS, bytes));
            assertThat(stub.requests()).isNotEmpty();
            assertThat(stub.rejected()).as("requests without credentials: " + stub.rejected()).isEmpty();
            assertEquals("/subjects/" + Topics.EVENTS + "-value/versions", stub.requests().get(0).path());
        }
    }

    @Test
    void ofAndWithRegistryClientKeepTheCredentials() {
        assertEquals(RegistryClientConfig.defaults(), KafkaSinkConfig.of("b:1", "mock://x").registryClient());
        assertEquals(AUTH, KafkaSinkConfig.of("b:1", "mock://x").withRegistryClient(AUTH).registryClient());
    }

    @Test
    void heartbeatSerializerSendsBasicAuth() throws Exception {
        try (AuthRegistryStub stub = new AuthRegistryStub(USER_INFO)) {
            HeartbeatSerializerAccess.serializer(stub.url(), AUTH).serialize(Topics.EVENTS, KafkaEventSinkTest.event("h", 1));
            assertThat(stub.requests()).isNotEmpty();
            assertThat(stub.rejected()).as("requests without credentials: " + stub.rejected()).isEmpty();
        }
    }
}
