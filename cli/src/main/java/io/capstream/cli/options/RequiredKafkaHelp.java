package io.capstream.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code --help} of a command that never starts an embedded broker ({@code tail}, {@code aggregate},
 * {@code worker}, {@code generate}, {@code report}, {@code compare}): its {@code --bootstrap-servers} and
 * {@code --schema-registry-url} say when they are needed ("Required", or for {@code report}/{@code compare} only
 * with a run id) and why, instead of the shared
 * {@link KafkaOptions} descriptions, whose defaults ("commands that can start an embedded broker do so",
 * "mock://capstream when Kafka is embedded") apply only to the commands that can embed Kafka. Only the help text
 * changes: each option is replaced by a copy with another description (same names, binding, order and parsing).
 * Stateless.
 */
public final class RequiredKafkaHelp {
    private RequiredKafkaHelp() {
    }

    /**
     * For a command that needs both options on every path and reads records written by another process.
     *
     * @param spec        the command; it must mix in {@link KafkaOptions}
     * @param registryWhy why the command needs a real schema registry (a clause, e.g. "every topic holds Avro records
     *                    whose schemas are in it")
     */
    public static void install(CommandSpec spec, String registryWhy) {
        install(spec, "Required (this command starts no embedded broker)", " the records were written with. Required: "
                + registryWhy + " (a mock:// registry lives inside one process and holds none of them)");
    }

    /**
     * For {@code report} and {@code compare}: each argument is a report file (which needs neither option) or a run id
     * read from {@code capstream.reports} (which needs both: an embedded broker would have no history).
     *
     * @param spec the command; it must mix in {@link KafkaOptions}
     */
    public static void installForRunIds(CommandSpec spec) {
        install(spec, "Needed for a run id argument (its report is read from capstream.reports; this command starts no"
                        + " embedded broker, which would have no history); a report file needs none",
                " the reports were written with. Needed with --bootstrap-servers for a run id argument: the reports are"
                        + " Avro records that carry only their schema's id, which that registry resolves (a mock://"
                        + " registry lives inside one process and holds none of them); a report file needs none");
    }

    /**
     * For a command whose need does not fit {@link #install(CommandSpec, String)}: needed on some paths only
     * ({@link #installForRunIds}), or a registry the command writes with ({@code generate}).
     *
     * @param spec          the command; it must mix in {@link KafkaOptions}
     * @param bootstrapNeed when the command needs {@code --bootstrap-servers} (a sentence without the final period,
     *                      e.g. "Required (this command starts no embedded broker)")
     * @param registryNeed  the rest of the {@code --schema-registry-url} description after "(Confluent, ...,
     *                      Redpanda)": when and why it is needed, without the final period (starts with a space, a
     *                      comma or a period)
     */
    public static void install(CommandSpec spec, String bootstrapNeed, String registryNeed) {
        replace(spec, "--bootstrap-servers", "Kafka bootstrap servers. " + bootstrapNeed
                + ". Env CAPSTREAM_BOOTSTRAP_SERVERS.");
        replace(spec, "--schema-registry-url", "Confluent-compatible schema registry URL (Confluent, Apicurio"
                + " .../apis/ccompat/v7, Karapace, Redpanda)" + registryNeed + ". Env CAPSTREAM_SCHEMA_REGISTRY_URL.");
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
