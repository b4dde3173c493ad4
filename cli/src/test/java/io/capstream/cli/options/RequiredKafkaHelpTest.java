package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.commands.AggregateCommand;
import io.capstream.cli.commands.WorkerCommand;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * What the {@code --help} of the commands that never start an embedded broker says about {@code --bootstrap-servers}
 * and {@code --schema-registry-url} (checked on the real CLI: each of them exits 2 naming the option when it is
 * missing). All of these cases failed before: their help offered the defaults of {@code run} ("commands that can start
 * an embedded broker do so", "Default: mock://capstream when Kafka is embedded"). Nothing here reaches Kafka.
 */
class RequiredKafkaHelpTest {
    private static final String EMBEDDED_BROKER = "commands that can start an embedded broker do so";
    private static final String EMBEDDED_REGISTRY = "mock://capstream when Kafka is embedded";

    /** @return the command's {@code --help}, whitespace runs folded to one space */
    private static String help(String command) {
        String[] args = {command, "--help"};
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, Map.of()));
        StringWriter help = new StringWriter();
        cmd.setOut(new PrintWriter(help, true));
        int code = cmd.execute(args);
        assertThat(code).as("exit code of %s --help", command).isZero();
        return help.toString().replaceAll("\\s+", " ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"aggregate", "worker", "generate", "report", "compare"})
    void noEmbeddedDefaultIsOffered(String command) {
        assertThat(help(command)).as("%s --help", command).doesNotContain(EMBEDDED_BROKER)
                .doesNotContain(EMBEDDED_REGISTRY).contains("--bootstrap-servers=HOST:PORT[,...] Kafka bootstrap servers.")
                .contains("--schema-registry-url=URL Confluent-compatible schema registry URL");
    }

    @Test
    void aggregateRequiresBothAndSaysWhy() {
        assertThat(help("aggregate")).as("aggregate --help")
                .contains("Kafka bootstrap servers. Required (this command starts no embedded broker). Env")
                .contains("the records were written with. Required: " + AggregateCommand.REGISTRY_NEEDED + " (a mock:");
    }

    @Test
    void workerRequiresBothAndSaysWhy() {
        assertThat(help("worker")).as("worker --help")
                .contains("Kafka bootstrap servers. Required (this command starts no embedded broker). Env")
                .contains("Required: " + WorkerCommand.REGISTRY_NEEDED);
    }

    /** One run, --continuous and --workers all refuse to start without either option (exit 2). */
    @Test
    void generateRequiresBothInEveryMode() {
        assertThat(help("generate")).as("generate --help")
                .contains("Kafka bootstrap servers. Required, in every mode (one run, --continuous, --workers): this"
                        + " command starts no embedded broker ('capstream run' does). Env")
                .contains("Redpanda). Required, in every mode: the events are Avro records")
                .contains("with a mock://SCOPE registry, which lives inside one process, no other process can read"
                        + " them. Env");
    }

    /** A report file needs neither option; a run id needs both. */
    @ParameterizedTest
    @ValueSource(strings = {"report", "compare"})
    void reportAndCompareNeedThemOnlyForRunIds(String command) {
        assertThat(help(command)).as("%s --help", command)
                .contains("Kafka bootstrap servers. Needed for a run id argument (its report is read from"
                        + " capstream.reports; this command starts no embedded broker, which would have no history);"
                        + " a report file needs none. Env")
                .contains("the reports were written with. Needed with --bootstrap-servers for a run id argument:")
                .contains("; a report file needs none. Env CAPSTREAM_SCHEMA_REGISTRY_URL.")
                .doesNotContain("Required");
    }
}
