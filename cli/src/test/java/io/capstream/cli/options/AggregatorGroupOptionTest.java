package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --aggregator-group} of run, import and replay: its default is the aggregate service's application id. */
class AggregatorGroupOptionTest {
    private static CommandLine tree(Map<String, String> env) {
        return CapstreamMain.newCommandLine(new ConfigDefaultProvider(env, new java.util.Properties()));
    }

    private static Object value(CommandLine root, String command, String option, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        CommandLine.ParseResult parsed = root.parseArgs(all);
        return parsed.subcommand().commandSpec().findOption(option).getValue();
    }

    @Test
    void defaultIsTheAggregateServicesApplicationId() {
        Object serviceDefault = value(tree(Map.of()), "aggregate", "--application-id");
        assertEquals("capstream-aggregator", serviceDefault);
        assertEquals(serviceDefault, value(tree(Map.of()), "run", "--aggregator-group"));
        assertEquals(serviceDefault, value(tree(Map.of()), "import", "--aggregator-group", "x.json"));
        assertEquals(serviceDefault, value(tree(Map.of()), "replay", "--aggregator-group", "--all"));
    }

    @Test
    void flagAndEnvironmentNameTheGroup() {
        assertEquals("team-agg", value(tree(Map.of()), "run", "--aggregator-group", "--aggregator-group", "team-agg"));
        assertEquals("env-agg", value(tree(Map.of("CAPSTREAM_AGGREGATOR_GROUP", "env-agg")), "run",
                "--aggregator-group"));
    }

    @Test
    void anEmptyGroupIsAUsageError() {
        CommandLine root = tree(Map.of());
        StringWriter err = new StringWriter();
        root.setErr(new PrintWriter(err, true));
        assertEquals(2, root.execute("run", "--aggregator-group", " "));
        assertThat(err.toString()).contains("Invalid value for option '--aggregator-group'");
    }

    @Test
    void helpOfRunExplainsIt() {
        StringWriter out = new StringWriter();
        CommandLine root = tree(Map.of());
        root.setOut(new PrintWriter(out, true));
        assertEquals(0, root.execute("run", "--help"));
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("--aggregator-group=ID");
        assertThat(help).contains("Default: capstream-aggregator");
    }
}
