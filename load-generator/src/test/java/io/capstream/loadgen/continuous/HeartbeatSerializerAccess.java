package io.capstream.loadgen.continuous;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.RegistryClientConfig;
import org.apache.kafka.common.serialization.Serializer;

/** Test access to {@link KafkaHeartbeatSender}'s package-private value serializer factory. */
public final class HeartbeatSerializerAccess {
    private HeartbeatSerializerAccess() {
    }

    /**
     * @param url    registry URL
     * @param config registry client settings
     * @return the heartbeat producer's value serializer
     */
    public static Serializer<RunEvent> serializer(String url, RegistryClientConfig config) {
        return KafkaHeartbeatSender.valueSerializer(url, config);
    }
}
