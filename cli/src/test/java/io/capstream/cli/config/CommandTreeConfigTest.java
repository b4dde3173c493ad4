package io.capstream.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.capstream.cli.CapstreamMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Configuration rules checked on the real {@code capstream} command tree. */
class CommandTreeConfigTest {
    @TempDir
    Path dir;

    private static CommandLine tree(Map<String, String> env, String... args) {
        return CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, env));
    }

    @Test
    void everySubcommandTakesConfigAndEveryOptionHasAnEnvironmentName() {
        CommandLine root = tree(Map.of());
        Map<String, String> envOwner = new HashMap<>();
        root.getSubcommands().forEach((name, sub) -> {
            assertNotNull(sub.getCommandSpec().findOption("--config"), name + " takes --config");
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.usageHelp() || o.versionHelp()) {
                    continue;
                }
                assertThat(o.longestName()).as(name + " option " + o.longestName() + " needs a long name")
                        .startsWith("--");
                String env = ConfigDefaultProvider.envName(o.longestName());
                assertThat(env).matches("CAPSTREAM_[A-Z0-9_]+");
                envOwner.putIfAbsent(env, name);
            }
        });
        assertEquals("up", envOwner.get("CAPSTREAM_KAFKA_PORT"));
        assertThat(envOwner).containsKey("CAPSTREAM_BOOTSTRAP_SERVERS");
    }

    @Test
    void oneConfigFileServesEveryCommand() throws Exception {
        Path f = dir.resolve("all.properties");
        Files.writeString(f, "kafka-port=19093\nbootstrap-servers=127.0.0.1:19093\nhttp-port=9999\n");
        CommandLine cmd = tree(Map.of(), "up", "--config", f.toString());
        CommandLine.ParseResult parsed = cmd.parseArgs("up", "--config", f.toString());
        CommandLine up = parsed.subcommand().commandSpec().commandLine();
        assertEquals(19093, (Integer) up.getCommandSpec().findOption("--kafka-port").getValue());
        // the same file, given by CAPSTREAM_CONFIG, for another command
        CommandLine agg = tree(Map.of("CAPSTREAM_CONFIG", f.toString()), "aggregate");
        CommandLine.ParseResult p2 = agg.parseArgs("aggregate");
        assertEquals(9999, (Integer) p2.subcommand().commandSpec().findOption("--http-port").getValue());
    }

    @Test
    void missingConfigFileIsExitCodeTwoOnTheRealTree() {
        String[] args = {"tail", "reports", "--config", dir.resolve("nope.properties").toString()};
        CommandLine cmd = tree(Map.of(), args);
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        assertEquals(2, cmd.execute(args));
        assertThat(err.toString()).contains("cannot read config file");
    }

    @Test
    void helpOfEveryCommandHidesSecretsFromTheEnvironment() {
        Map<String, String> env = Map.of(
                "CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH", "user:pw-SECRET-1",
                "CAPSTREAM_SCHEMA_REGISTRY_BEARER_TOKEN", "tok-SECRET-2",
                "CAPSTREAM_KAFKA_PROPERTY", "sasl.jaas.config=jaas-SECRET-3");
        CommandLine root = tree(env);
        root.getSubcommands().forEach((name, sub) -> {
            String help = sub.getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertThat(help).as(name + " --help shows a secret:\n" + help).doesNotContain("SECRET");
        });
    }

    @Test
    void providerReportsUnknownKeysAgainstTheWholeTree() {
        Properties p = new Properties();
        p.setProperty("requests", "5");
        p.setProperty("kafka-port", "1");
        CommandLine root = tree(Map.of());
        assertThat(ConfigDefaultProvider.knownKeys(root.getCommandSpec())).containsAll(p.stringPropertyNames());
        assertThat(ConfigDefaultProvider.knownKeys(root.getCommandSpec())).doesNotContain("bootstrap-server");
    }
}
