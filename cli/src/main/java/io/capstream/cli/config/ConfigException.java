package io.capstream.cli.config;

/**
 * A config file or configuration value that cannot be used (unreadable file, unknown key, malformed
 * Kafka setting). Reported as a usage error (exit code 2) with exactly this message.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and where (file, key or variable); never contains a secret value */
    public ConfigException(String message) {
        super(message);
    }
}
