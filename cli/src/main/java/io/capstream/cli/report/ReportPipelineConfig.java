package io.capstream.cli.report;

import io.capstream.aggregator.report.ReportTopologyConfig;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaOptions;
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
 * @param inProcessAggregator run the report topology in this JVM (false: rely on a running {@code capstream aggregate});
 *                            on a shared Kafka it is not started either while {@code aggregatorGroup} runs there
 * @param applicationId       Streams application id of the in-process topology (kept on close), or null for a
 *                            throwaway {@value #DEFAULT_APPLICATION_ID}-&lt;UUID&gt; whose internal topics and consumer
 *                            group are deleted on close
 * @param stateDir            Streams state directory; null = a temp directory deleted on close
 * @param incompleteDeadline  incomplete-run deadline of the in-process topology; positive
 * @param aggregatorGroup     application id of a {@code capstream aggregate} service to look for on a shared Kafka
 *                            before starting the in-process topology; null = do not look
 */
public record ReportPipelineConfig(KafkaClientProperties kafka, String schemaRegistryUrl,
                                   RegistryClientConfig registryClient, boolean inProcessAggregator,
                                   String applicationId, Path stateDir, Duration incompleteDeadline,
                                   String aggregatorGroup) {
    /**
     * Application id, or with a null {@code applicationId} the prefix of the throwaway one, of the
     * report topology started by {@code import} and {@code replay}.
     */
    public static final String DEFAULT_APPLICATION_ID = "capstream-reports-cli";

    /** Validates. */
    public ReportPipelineConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(registryClient, "registryClient");
        Objects.requireNonNull(incompleteDeadline, "incompleteDeadline");
    }

    /**
     * The pipeline of a command ({@code import}, {@code replay}): its Kafka and registry options, a
     * throwaway application id, a temporary state directory and the default incomplete-run deadline.
     *
     * @param kafka               the command's connection options; not null
     * @param inProcessAggregator false with {@code --external-aggregator}
     * @param aggregatorGroup     the command's {@code --aggregator-group}, or null for not looking for one
     * @return the settings
     * @throws picocli.CommandLine.ParameterException when a Kafka setting or the registry credentials are malformed
     */
    public static ReportPipelineConfig forCommand(KafkaOptions kafka, boolean inProcessAggregator,
                                                  String aggregatorGroup) {
        return new ReportPipelineConfig(kafka.clientProperties(), kafka.schemaRegistryUrl(),
                kafka.registryClientConfig(), inProcessAggregator, null, null, ReportTopologyConfig.DEFAULT_DEADLINE,
                aggregatorGroup);
    }

    /** @return whether an embedded broker is started */
    public boolean embedded() {
        return kafka.bootstrapServers() == null;
    }
}
