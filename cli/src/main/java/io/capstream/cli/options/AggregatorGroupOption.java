package io.capstream.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --aggregator-group ID} (picocli mixin) of the commands that can aggregate in-process
 * ({@code run}, {@code import}, {@code replay}): the application id of the {@code capstream
 * aggregate} service to look for on a shared Kafka. While that group has active members the command
 * starts no report topology of its own and waits for the service's report, so that each report is
 * published once.
 */
public final class AggregatorGroupOption {
    /** The default application id (consumer group) of {@code capstream aggregate}. */
    public static final String DEFAULT_GROUP = "capstream-aggregator";

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private String group = DEFAULT_GROUP;

    @Option(names = "--aggregator-group", paramLabel = "ID", defaultValue = DEFAULT_GROUP,
            description = "Application id (consumer group) of the 'capstream aggregate' service (its --application-id)."
                    + " With --bootstrap-servers, while that group has active members this command starts no report"
                    + " aggregator of its own and waits for the service's report, so that the report is published once."
                    + " Default: ${DEFAULT-VALUE}. Env CAPSTREAM_AGGREGATOR_GROUP.")
    void setGroup(String value) {
        if (value == null || value.isBlank()) {
            String text = "Invalid value for option '--aggregator-group': expected an application id, got an empty value";
            throw mixee == null ? new ParameterException(new picocli.CommandLine(new Object()), text)
                    : new ParameterException(mixee.commandLine(), text);
        }
        group = value.strip();
    }

    /** @return the service's application id; never null or blank */
    public String group() {
        return group;
    }
}
