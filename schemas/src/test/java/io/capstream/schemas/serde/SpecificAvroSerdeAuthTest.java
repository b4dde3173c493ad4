package io.capstream.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.registry.AuthRegistryStub;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** {@link SpecificAvroSerde#forValue(Class, String, RegistryClientConfig)} sends the credentials. */
class SpecificAvroSerdeAuthTest {
    private static final RegistryClientConfig AUTH =
            new RegistryClientConfig(Duration.ofSeconds(5), 0, Duration.ofMillis(10), "alice:s3cret", null);

    private static SloBreach breach() {
        return SloBreach.newBuilder().setTarget("http://e").setModel("m").setContextBucket("all")
                .setSlo("ttft_p95_ms<=500").setMetric("ttft_p95_ms").setComparison("<=").setThreshold(500.0)
                .setObserved(750.0).setState(io.capstream.schemas.avro.SloState.BREACH).setWindowStartMs(0L)
                .setWindowEndMs(60_000L).setDetectedAtMs(60_001L).build();
    }

    @Test
    void credentialsReachTheRegistryForSerializeAndDeserialize() throws Exception {
        try (AuthRegistryStub stub = new AuthRegistryStub("alice:s3cret")) {
            byte[] bytes = SpecificAvroSerde.forValue(SloBreach.class, stub.url(), AUTH).serializer()
                    .serialize("capstream.alerts", breach());
            SloBreach back = SpecificAvroSerde.forValue(SloBreach.class, stub.url(), AUTH).deserializer()
                    .deserialize("capstream.alerts", bytes);
            assertEquals(breach(), back);
            assertThat(stub.requests()).isNotEmpty();
            assertThat(stub.rejected()).as("every request carries basic auth: " + stub.requests()).isEmpty();
        }
    }

    @Test
    void withoutCredentialsTheRegistryRefuses() throws Exception {
        try (AuthRegistryStub stub = new AuthRegistryStub("alice:s3cret")) {
            var serializer = SpecificAvroSerde.forValue(SloBreach.class, stub.url()).serializer();
            assertThrows(SerializationException.class, () -> serializer.serialize("capstream.alerts", breach()));
            assertThat(stub.rejected()).isNotEmpty();
        }
    }
}
