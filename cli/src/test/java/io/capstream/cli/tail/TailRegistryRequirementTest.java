package io.capstream.cli.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.commands.TailCommand;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Fresh-user pass 4: what {@code tail} needs of the registry, and what its {@code --help} says. Every topic it reads
 * (server-metrics too) holds Confluent-format Avro records that carry only their schema's id, so every view needs the
 * registry the records were written with: a {@code mock://} registry (empty in a new process) made every record fail
 * with Kafka's "Error deserializing VALUE ... seek past the record", and the help offered the embedded default
 * ("mock://capstream when Kafka is embedded") that tail never has. Nothing here reaches Kafka or a registry: each case
 * is a usage error (exit 2) or help.
 */
class TailRegistryRequirementTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    private final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    private int tail(String... args) {
        return new CommandLine(new TailCommand(out, errStream)).execute(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"reports", "summaries", "alerts", "changes", "sweeps", "server-metrics"})
    void everyViewNamesWhyItNeedsTheRegistry(String view) {
        int code = tail(view, "--bootstrap-servers", "127.0.0.1:1");
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code of tail %s without a registry, stderr %s", view, text).isEqualTo(2);
        assertThat(text).as("stderr of tail %s", view).isEqualTo("capstream tail: --schema-registry-url is required: "
                + TailCommand.REGISTRY_NEEDED + System.lineSeparator());
    }

    /** Failed before: a mock:// registry passed, and every record then failed to decode (exit 1, Kafka's message). */
    @ParameterizedTest
    @ValueSource(strings = {"reports", "server-metrics"})
    void anInMemoryRegistryIsAOneLineUsageError(String view) {
        int code = tail(view, "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "mock://x");
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code of tail %s with mock://x, stderr %s", view, text).isEqualTo(2);
        assertThat(text.lines().toList()).as("stderr of tail %s", view).singleElement().asString()
                .startsWith("capstream tail: --schema-registry-url mock://x is an in-memory registry of this process");
    }

    /** Failed before: the help offered "Default: mock://capstream when Kafka is embedded" and marked nothing required. */
    @Test
    void helpMarksBothConnectionOptionsRequiredAndOffersNoEmbeddedDefault() {
        String[] args = {"tail", "--help"};
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, Map.of()));
        StringWriter help = new StringWriter();
        cmd.setOut(new PrintWriter(help, true));
        int code = cmd.execute(args);
        String text = help.toString().replaceAll("\\s+", " ");
        assertThat(code).as("exit code of tail --help").isZero();
        assertThat(text).as("tail --help")
                .contains("--bootstrap-servers=HOST:PORT[,...] Kafka bootstrap servers. Required (this command starts"
                        + " no embedded broker)")
                .contains("the records were written with. Required: " + TailCommand.REGISTRY_NEEDED)
                .contains("Needs --bootstrap-servers and --schema-registry-url")
                .doesNotContain("mock://capstream when Kafka is embedded")
                .doesNotContain("commands that can start an embedded broker do so");
        assertThat(text.indexOf("--bootstrap-servers=HOST:PORT[,...] Kafka")).as("the Kafka options stay in their place,"
                + " after --config, in %s", text).isGreaterThan(text.indexOf("--config=FILE Properties"));
    }

    @Test
    void theOtherCommandsKeepTheirEmbeddedDefaults() {
        String[] args = {"run", "--help"};
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, Map.of()));
        StringWriter help = new StringWriter();
        cmd.setOut(new PrintWriter(help, true));
        cmd.execute(args);
        assertThat(help.toString().replaceAll("\\s+", " ")).as("run --help")
                .contains("mock://capstream when Kafka is embedded");
    }
}
