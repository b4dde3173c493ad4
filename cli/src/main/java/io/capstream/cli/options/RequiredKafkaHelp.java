package io.capstream.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code --help} of a command that never starts an embedded broker (such as {@code tail}): its
 * {@code --bootstrap-servers} and {@code --schema-registry-url} say "Required" and why, instead of the shared
 * {@link KafkaOptions} descriptions, whose defaults ("commands that can start an embedded broker do so",
 * "mock://capstream when Kafka is embedded") apply only to the commands that can embed Kafka. Only the help text
 * changes: each option is replaced by a copy with another description (same names, binding, order and parsing).
 * Stateless.
 */
public final class RequiredKafkaHelp {
    private RequiredKafkaHelp() {
    }

    /**
     * @param spec        the command; it must mix in {@link KafkaOptions}
     * @param registryWhy why the command needs a real schema registry (a clause, e.g. "every topic holds Avro records
     *                    whose schemas are in it")
     */
    public static void install(CommandSpec spec, String registryWhy) {
        replace(spec, "--bootstrap-servers", "Kafka bootstrap servers. Required (this command starts no embedded"
                + " broker). Env CAPSTREAM_BOOTSTRAP_SERVERS.");
        replace(spec, "--schema-registry-url", "Confluent-compatible schema registry URL (Confluent, Apicurio"
                + " .../apis/ccompat/v7, Karapace, Redpanda) the records were written with. Required: " + registryWhy
                + " (a mock:// registry lives inside one process and holds none of them). Env"
                + " CAPSTREAM_SCHEMA_REGISTRY_URL.");
    }

    private static void replace(CommandSpec spec, String name, String description) {
        OptionSpec old = spec.findOption(name);
        if (old == null) {
            throw new IllegalArgumentException(spec.qualifiedName() + " has no " + name);
        }
        OptionSpec copy = OptionSpec.builder(old).description(description).build();
        spec.remove(old);
        spec.addOption(copy);
    }
}
