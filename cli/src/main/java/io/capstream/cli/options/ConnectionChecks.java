package io.capstream.cli.options;

import io.capstream.schemas.registry.RegistryClientConfig;
import java.util.function.Supplier;

/**
 * The reachability checks of every command that needs both Kafka and a schema registry ({@code run} and
 * {@code generate} on an external Kafka, {@code generate --continuous}, {@code sweep}, {@code worker}, {@code tail},
 * {@code report} and {@code compare} with run ids, {@code import} and {@code replay} on an external Kafka), in one
 * order and one wording: Kafka first ({@link KafkaReachability}: {@code cannot reach Kafka at <servers>: <reason>}),
 * then the registry ({@link RegistryReachability}: {@code cannot reach the schema registry at <url>: <reason>},
 * credentials masked). Kafka first because it is what every one of them reads or writes, and because with both down
 * (a stopped {@code capstream up} or compose stack) the line then names the first thing to start. Only the first
 * failure is reported; the registry is not asked when Kafka does not answer. Stateless.
 */
public final class ConnectionChecks {
    private ConnectionChecks() {
    }

    /**
     * @param kafka       client settings; bootstrap servers null = the embedded broker, not checked
     * @param registryUrl the registry URL(s); null or {@code mock://...} is not checked
     * @param registry    registry client settings (credentials); not null
     * @return null when both answered (or need no check), else the one-line message of the first that did not
     */
    public static String kafkaThenRegistry(KafkaClientProperties kafka, String registryUrl,
                                           RegistryClientConfig registry) {
        return kafkaThenRegistry(() -> kafka.bootstrapServers() == null ? null : KafkaReachability.check(kafka),
                registryUrl, registry);
    }

    /**
     * @param kafkaCheck  the Kafka check to make (e.g. a {@link KafkaWait}, or a test's fake): null when a broker
     *                    answered, else its one-line message; not null
     * @param registryUrl the registry URL(s); null or {@code mock://...} is not checked
     * @param registry    registry client settings (credentials); not null
     * @return null when both answered (or need no check), else the one-line message of the first that did not
     */
    public static String kafkaThenRegistry(Supplier<String> kafkaCheck, String registryUrl,
                                           RegistryClientConfig registry) {
        String down = kafkaCheck.get();
        return down != null ? down : RegistryReachability.check(registryUrl, registry);
    }
}
