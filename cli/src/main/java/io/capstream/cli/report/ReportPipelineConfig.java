package io.capstream.cli.report;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link ReportPipeline}.
 *
 * @param kafka               client settings; bootstrap servers null = start an embedded broker
 * @param schemaRegistryUrl   registry URL, or null for an in-memory {@code mock://} registry
 * @param registryClient      registry client settings (timeouts, credentials); not null
 * @param inProcessAggregator run the report topology in this JVM (false: rely on a running {@code capstream aggregate})
 * @param applicationId       Streams application id of the in-process topology; not null
 * @param stateDir            Streams state directory; null = a temp directory deleted on close
 * @param incompleteDeadline  incomplete-run deadline of the in-process topology; positive
 */
public record ReportPipelineConfig(KafkaClientProperties kafka, String schemaRegistryUrl,
                                   RegistryClientConfig registryClient, boolean inProcessAggregator,
                                   String applicationId, Path stateDir, Duration incompleteDeadline) {
    /** Application id of the report topology started by {@code import} and {@code replay}. */
    public static final String DEFAULT_APPLICATION_ID = "capstream-reports-cli";

    /** Validates. */
    public ReportPipelineConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(registryClient, "registryClient");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(incompleteDeadline, "incompleteDeadline");
    }

    /** @return whether an embedded broker is started */
    public boolean embedded() {
        return kafka.bootstrapServers() == null;
    }
}
