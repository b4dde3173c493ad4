package io.capstream.cli.runner;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.WorkloadOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * What {@link RunDriver} runs.
 *
 * @param commandName         {@code run}, {@code generate} or {@code sweep} (for messages)
 * @param run                 run parameters ({@link io.capstream.cli.options.RunOptions} for run and generate)
 * @param sim                 simulated-engine options (used when no {@code --base-url} is given)
 * @param kafka               Kafka client settings; null bootstrap servers = embedded broker
 * @param schemaRegistryUrl   registry URL, or null for {@value RunDriver#MOCK_REGISTRY}
 * @param registryClient      registry client settings (credentials from {@code --schema-registry-basic-auth} /
 *                            {@code --schema-registry-bearer-token}); null means defaults
 * @param requireExternalKafka {@code generate}: bootstrap servers and registry are required
 * @param aggregator          run the report topology in-process
 * @param awaitReport         wait for the report and write it (needs an aggregator somewhere)
 * @param output              {@code --output}, or null for {@code capstream-report-<run_id>.json}
 * @param reportTimeout       how long to wait for the report after the run
 * @param eventDelivery       when events go to Kafka; null means {@link EventDelivery#AUTO}
 * @param aggregatorGroup     application id of a {@code capstream aggregate} service: with a shared Kafka and
 *                            {@code aggregator}, while its group has active members no in-process aggregator
 *                            starts and the service's report is awaited; null = never look for one
 * @param adjust              applied to the config resolved from {@code run} before it is checked and run
 *                            ({@code sweep}: the first step's load level); null means unchanged
 * @param visual              {@code --html}/{@code --csv} files written after the report ({@code run}: the run's;
 *                            {@code sweep}: the sweep's, see {@code SweepViews}); null means none
 */
public record RunRequest(String commandName, WorkloadOptions run, SimOptions sim, KafkaClientProperties kafka,
                         String schemaRegistryUrl, RegistryClientConfig registryClient, boolean requireExternalKafka,
                         boolean aggregator, boolean awaitReport, String output, Duration reportTimeout,
                         EventDelivery eventDelivery, String aggregatorGroup,
                         UnaryOperator<RunConfig> adjust, VisualOutputOptions visual) {
    /**
     * Defaults a null registry client config, a null event delivery ({@link EventDelivery#AUTO}), a
     * null adjustment (none) and null visual outputs (none).
     */
    public RunRequest {
        registryClient = registryClient == null ? RegistryClientConfig.defaults() : registryClient;
        eventDelivery = eventDelivery == null ? EventDelivery.AUTO : eventDelivery;
        adjust = adjust == null ? UnaryOperator.identity() : adjust;
        visual = visual == null ? new VisualOutputOptions() : visual;
    }

    /**
     * @param commandName {@code run}, {@code generate} or {@code sweep} (for messages)
     * @param run         run parameters; not null
     * @param sim         simulated-engine options; not null
     * @return a builder: no Kafka settings (embedded broker), mock registry, no aggregator, no report awaited,
     *         report timeout 0, {@link EventDelivery#AUTO}, no aggregator group, no adjustment
     */
    public static Builder builder(String commandName, WorkloadOptions run, SimOptions sim) {
        return new Builder(commandName, run, sim);
    }

    /** Named settings of a {@link RunRequest}, defaults as {@link #builder}. Not thread-safe. */
    public static final class Builder {
        private final String commandName;
        private final WorkloadOptions run;
        private final SimOptions sim;
        private KafkaClientProperties kafka;
        private String schemaRegistryUrl;
        private RegistryClientConfig registryClient;
        private boolean requireExternalKafka;
        private boolean aggregator;
        private boolean awaitReport;
        private String output;
        private Duration reportTimeout = Duration.ZERO;
        private EventDelivery eventDelivery;
        private String aggregatorGroup;
        private UnaryOperator<RunConfig> adjust;
        private VisualOutputOptions visual;

        private Builder(String commandName, WorkloadOptions run, SimOptions sim) {
            this.commandName = commandName;
            this.run = run;
            this.sim = sim;
        }

        /** @param v Kafka client settings; null bootstrap servers = embedded broker @return this */
        public Builder kafka(KafkaClientProperties v) { this.kafka = v; return this; }
        /** @param v registry URL, or null for the mock registry @return this */
        public Builder schemaRegistryUrl(String v) { this.schemaRegistryUrl = v; return this; }
        /** @param v registry client settings, or null for defaults @return this */
        public Builder registryClient(RegistryClientConfig v) { this.registryClient = v; return this; }
        /** @param v bootstrap servers and registry are required ({@code generate}) @return this */
        public Builder requireExternalKafka(boolean v) { this.requireExternalKafka = v; return this; }
        /** @param v run the report topology in-process @return this */
        public Builder aggregator(boolean v) { this.aggregator = v; return this; }
        /** @param v wait for the report and write it @return this */
        public Builder awaitReport(boolean v) { this.awaitReport = v; return this; }
        /** @param v report file, or null for {@code capstream-report-<run_id>.json} @return this */
        public Builder output(String v) { this.output = v; return this; }
        /** @param v how long to wait for the report after the run @return this */
        public Builder reportTimeout(Duration v) { this.reportTimeout = v; return this; }
        /** @param v when events go to Kafka, or null for {@link EventDelivery#AUTO} @return this */
        public Builder eventDelivery(EventDelivery v) { this.eventDelivery = v; return this; }
        /** @param v application id of a {@code capstream aggregate} service to look for, or null @return this */
        public Builder aggregatorGroup(String v) { this.aggregatorGroup = v; return this; }
        /** @param v applied to the resolved config before it is checked, or null for none @return this */
        public Builder adjust(UnaryOperator<RunConfig> v) { this.adjust = v; return this; }
        /** @param v {@code --html}/{@code --csv} files written after the report, or null for none @return this */
        public Builder visual(VisualOutputOptions v) { this.visual = v; return this; }

        /** @return the request */
        public RunRequest build() {
            return new RunRequest(commandName, run, sim, kafka, schemaRegistryUrl, registryClient, requireExternalKafka,
                    aggregator, awaitReport, output, reportTimeout, eventDelivery, aggregatorGroup, adjust, visual);
        }
    }
}
