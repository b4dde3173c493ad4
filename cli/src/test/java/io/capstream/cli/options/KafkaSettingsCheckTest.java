package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaSettingsCheck}: the user's Kafka client settings go through Kafka's own config classes before any
 * client is made. A bad value is refused naming its key; valid settings and keys Kafka does not define pass.
 */
class KafkaSettingsCheckTest {
    @Test
    void aValueKafkaRefusesIsNamedWithItsKey() {
        KafkaSettingsCheck.Refusal r = KafkaSettingsCheck.problem(Map.of("security.protocol", "BOGUS"));
        assertThat(r).as("security.protocol=BOGUS").isNotNull();
        assertThat(r.key()).as("key").isEqualTo("security.protocol");
        assertThat(r.message()).as("message").startsWith("security.protocol=BOGUS: Invalid value BOGUS for"
                + " configuration security.protocol: String must be one of").contains("SASL_SSL");

        assertThat(KafkaSettingsCheck.problem(Map.of("linger.ms", "soon"))).as("linger.ms=soon (a long)")
                .extracting(KafkaSettingsCheck.Refusal::key).isEqualTo("linger.ms");
        assertThat(KafkaSettingsCheck.problem(Map.of("acks", "maybe"))).as("acks=maybe (producer)")
                .extracting(KafkaSettingsCheck.Refusal::key).isEqualTo("acks");
        assertThat(KafkaSettingsCheck.problem(Map.of("auto.offset.reset", "sometimes"))).as("consumer key")
                .extracting(KafkaSettingsCheck.Refusal::key).isEqualTo("auto.offset.reset");
        assertThat(KafkaSettingsCheck.problem(Map.of("processing.guarantee", "twice"))).as("Streams key")
                .extracting(KafkaSettingsCheck.Refusal::key).isEqualTo("processing.guarantee");
    }

    @Test
    void theKeyIsFoundAmongValidOnes() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.protocol", "SASL_SSL");
        settings.put("sasl.mechanism", "PLAIN");
        settings.put("compression.type", "zip");
        assertThat(KafkaSettingsCheck.problem(settings)).as("compression.type=zip among valid settings")
                .extracting(KafkaSettingsCheck.Refusal::key).isEqualTo("compression.type");
    }

    @Test
    void validSettingsAndKeysKafkaDoesNotDefinePass() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.protocol", "SASL_SSL");
        settings.put("sasl.mechanism", "PLAIN");
        settings.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"u\" password=\"p\";");
        settings.put("linger.ms", "5");
        settings.put("compression.type", "zstd");
        settings.put("acks", "1");
        settings.put("ssl.endpoint.identification.algorithm", "");
        settings.put("no.such.setting", "whatever"); // Kafka merely warns about it when a client is made
        settings.put("producer.batch.size", "x"); // a Streams-prefixed key: not a key of any config class itself
        assertThat(KafkaSettingsCheck.problem(settings)).as("refusal of %s", settings).isNull();
        assertThat(KafkaSettingsCheck.problem(Map.of())).as("no settings").isNull();
    }

    @Test
    void aSecretValueIsNeverInTheMessage() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("sasl.jaas.config", "S3cretJaas");
        settings.put("sasl.login.refresh.window.factor", "S3cretJaas"); // a double: refused, message quotes it
        KafkaSettingsCheck.Refusal r = KafkaSettingsCheck.problem(settings);
        assertThat(r).as("refusal").isNotNull();
        assertThat(r.message()).as("message").doesNotContain("S3cretJaas").contains("[hidden]");
    }
}
