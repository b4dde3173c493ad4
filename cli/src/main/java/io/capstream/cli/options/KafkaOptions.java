package io.capstream.cli.options;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Kafka and schema registry connection options shared by every command that talks to Kafka.
 * With no {@code --bootstrap-servers}, commands that can start the embedded broker do so.
 */
public final class KafkaOptions {
    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers. Default: none (commands that can start an embedded broker do so;"
                    + " env CAPSTREAM_BOOTSTRAP_SERVERS).")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", paramLabel = "URL",
            description = "Confluent-compatible schema registry URL (Confluent, Apicurio /apis/ccompat/v7, Karapace,"
                    + " Redpanda), or mock://SCOPE for the in-memory registry. Default: mock://capstream when Kafka is"
                    + " embedded (env CAPSTREAM_SCHEMA_REGISTRY_URL).")
    String schemaRegistryUrl;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "Extra Kafka client setting, repeatable (e.g. security.protocol=SASL_SSL). Values are never printed.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file with option defaults (key = option name without dashes).")
    String configFile;

    /** @return the bootstrap servers, or null when none was given */
    public String bootstrapServers() {
        return bootstrapServers == null || bootstrapServers.isBlank() ? null : bootstrapServers.trim();
    }

    /** @return the registry URL, or null when none was given */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl == null || schemaRegistryUrl.isBlank() ? null : schemaRegistryUrl.trim();
    }

    /** @return extra Kafka client properties (never null, possibly empty) */
    public Map<String, String> kafkaProperties() {
        return kafkaProperties == null ? Map.of() : kafkaProperties;
    }
}
