package io.capstream.cli.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the in-process KRaft broker.
 *
 * @param port             broker (PLAINTEXT) port on 127.0.0.1; 0 picks a free port
 * @param dataDir          directory for the metadata log and data logs; null = a fresh temp directory
 *                         that {@link EmbeddedKafka#close()} deletes. A given directory is kept on close
 *                         and reused on the next start (formatted only when empty).
 * @param brokerProperties extra broker settings that override the embedded defaults (never null; may
 *                         be empty), e.g. {@code log.retention.ms}
 */
public record EmbeddedKafkaConfig(int port, Path dataDir, Map<String, String> brokerProperties) {

    /** Validates and copies the arguments. */
    public EmbeddedKafkaConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        brokerProperties = Map.copyOf(Objects.requireNonNullElse(brokerProperties, Map.of()));
    }

    /** @return free port, temp directory, no overrides */
    public static EmbeddedKafkaConfig defaults() {
        return new EmbeddedKafkaConfig(0, null, Map.of());
    }

    /**
     * @param newPort broker port, 0 = free port
     * @return a copy with that port
     */
    public EmbeddedKafkaConfig withPort(int newPort) {
        return new EmbeddedKafkaConfig(newPort, dataDir, brokerProperties);
    }

    /**
     * @param dir data directory to keep between starts, or null for a temp directory
     * @return a copy with that directory
     */
    public EmbeddedKafkaConfig withDataDir(Path dir) {
        return new EmbeddedKafkaConfig(port, dir, brokerProperties);
    }

    /**
     * @param props broker settings overriding the embedded defaults
     * @return a copy with those overrides
     */
    public EmbeddedKafkaConfig withBrokerProperties(Map<String, String> props) {
        return new EmbeddedKafkaConfig(port, dataDir, props);
    }
}
