package io.capstream.cli.up;

import io.capstream.loadgen.sim.SimConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code capstream up} starts. Every service binds to 127.0.0.1 only.
 *
 * @param kafkaPort        port of the embedded broker, 1..65535 (fixed: other processes connect to it)
 * @param registryPort     port of the Apicurio Registry child process, 1..65535
 * @param dataDir          broker data directory kept between runs, or null for a temp directory deleted on stop
 * @param eventPartitions  partitions of {@code capstream.events}, &gt;= 1
 * @param registryTimeout  how long the registry may take to answer, e.g. 90 s (it starts in ~8–10 s here)
 * @param sim              the simulated engine to serve as well, or null for none
 */
public record UpConfig(int kafkaPort, int registryPort, Path dataDir, int eventPartitions, Duration registryTimeout,
                       SimConfig sim) {
    /** Default broker port (also the host port of the compose file's Kafka). */
    public static final int DEFAULT_KAFKA_PORT = 9092;
    /** Default registry port (also the host port of the compose file's Schema Registry). */
    public static final int DEFAULT_REGISTRY_PORT = 8081;
    /** Default port of the simulated engine with {@code --with-sim}. */
    public static final int DEFAULT_SIM_PORT = 8000;

    /** @throws IllegalArgumentException when a port or count is out of range, or two ports are equal */
    public UpConfig {
        checkPort("kafka port", kafkaPort);
        checkPort("registry port", registryPort);
        if (kafkaPort == registryPort) {
            throw new IllegalArgumentException("the Kafka and registry ports must differ (both " + kafkaPort + ")");
        }
        if (sim != null && (sim.port() == kafkaPort || sim.port() == registryPort)) {
            throw new IllegalArgumentException("the simulated engine's port " + sim.port() + " is already used by the stack");
        }
        if (eventPartitions < 1) {
            throw new IllegalArgumentException("event partitions must be >= 1, got " + eventPartitions);
        }
        if (registryTimeout == null || registryTimeout.isNegative() || registryTimeout.isZero()) {
            throw new IllegalArgumentException("registry timeout must be > 0");
        }
    }

    private static void checkPort(String what, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(what + " must be 1..65535, got " + port);
        }
    }
}
