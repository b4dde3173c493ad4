package io.capstream.cli.options;

import io.capstream.cli.config.Secrets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Checks the user's Kafka client settings ({@code --kafka-property}, {@code CAPSTREAM_KAFKA_PROPERTY}, the config
 * file's {@code kafka.*} lines) with Kafka's own config classes before any client is made: {@link ProducerConfig},
 * {@link ConsumerConfig}, {@link AdminClientConfig} and {@link StreamsConfig} parse every key they define (its type
 * and allowed values, e.g. {@code security.protocol}, {@code acks}, {@code linger.ms}) and the rules between keys, and
 * throw a {@code ConfigException} otherwise. A run used to send its whole load and only then find, when the embedded
 * broker's clients were made, that {@code security.protocol=BOGUS} is no protocol. Keys no config class defines (a
 * typo, another client's key, a Streams-prefixed {@code producer.*} key) pass, as before: Kafka only warns about
 * unused keys when a client is made.
 *
 * <p>The capstream-owned keys ({@link KafkaClientProperties#RESERVED}) are filled with placeholders (the user may not
 * set them); capstream's own per-client settings are not part of the check, so a conflict with one of them (rare:
 * they are acks, idempotence, offsets and the like) still surfaces when that client is made. Stateless.
 */
final class KafkaSettingsCheck {
    /** The keys each config class requires that capstream sets itself, with values of the right type. */
    private static final Map<String, Object> PLACEHOLDERS = Map.of(
            "bootstrap.servers", "127.0.0.1:9092",
            "key.serializer", ByteArraySerializer.class.getName(),
            "value.serializer", ByteArraySerializer.class.getName(),
            "key.deserializer", ByteArrayDeserializer.class.getName(),
            "value.deserializer", ByteArrayDeserializer.class.getName(),
            "group.id", "capstream-settings-check",
            "application.id", "capstream-settings-check");

    /** The config classes of every client capstream makes: each constructor validates the settings it defines. */
    private static final List<Function<Map<String, Object>, Object>> CONFIGS = List.of(
            ProducerConfig::new, ConsumerConfig::new, AdminClientConfig::new, StreamsConfig::new);

    /** The key in a {@code ConfigException}'s message: {@code Invalid value V for configuration KEY[: why]}. */
    private static final Pattern CONFIG_KEY = Pattern.compile("for configuration ([^\\s:]+)");

    private KafkaSettingsCheck() {
    }

    /**
     * What Kafka says is wrong with the settings, naming the setting it refuses: the key of a {@code ConfigException}
     * ({@code Invalid value V for configuration KEY: ...}), else the keys its message names (a rule between keys).
     *
     * @param settings the user's settings, key to value (a reserved key's value is replaced by a placeholder); not
     *                 null
     * @return the refused setting, or null when every config class accepts the settings
     */
    static Refusal problem(Map<String, String> settings) {
        if (settings.isEmpty()) {
            return null; // nothing of the user's: capstream's own settings are not checked here
        }
        String rejected = rejection(settings);
        if (rejected == null) {
            return null;
        }
        Matcher m = CONFIG_KEY.matcher(rejected);
        List<String> named = settings.keySet().stream().filter(rejected::contains).toList();
        String key = m.find() && settings.containsKey(m.group(1)) ? m.group(1) : named.size() == 1 ? named.get(0) : null;
        if (key != null) {
            return new Refusal(key, masked(Secrets.redactSetting(key + "=" + settings.get(key)) + ": " + rejected,
                    settings));
        }
        return new Refusal(null, masked((named.isEmpty() ? "the settings" : String.join(", ", named))
                + " do not go together: " + rejected, settings));
    }

    /**
     * A setting Kafka refuses.
     *
     * @param key     the refused key, or null when Kafka refuses a combination of settings
     * @param message e.g. {@code "security.protocol=BOGUS: Invalid value BOGUS for configuration security.protocol:
     *                String must be one of: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"}, secret values masked
     */
    record Refusal(String key, String message) {
    }

    /** @return the message of the first config class that refuses {@code settings}, or null */
    private static String rejection(Map<String, String> settings) {
        Map<String, Object> config = new LinkedHashMap<>(settings);
        config.putAll(PLACEHOLDERS);
        // unless the user sets it: StreamsConfig's constructor warns that it is off (a log line, no problem)
        config.putIfAbsent(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        for (Function<Map<String, Object>, Object> configClass : CONFIGS) {
            try {
                configClass.apply(config);
            } catch (KafkaException e) { // a ConfigException, or a rule between keys some constructors check
                return String.valueOf(e.getMessage());
            }
        }
        return null;
    }

    /** @return {@code message} with the value of every secret setting masked, and URL credentials */
    private static String masked(String message, Map<String, String> settings) {
        String out = message;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            if (Secrets.isSecret(e.getKey()) && e.getValue() != null && !e.getValue().isEmpty()) {
                out = out.replace(e.getValue(), Secrets.MASK);
            }
        }
        return Secrets.redactUrls(out);
    }
}
