package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * picocli formats every description with {@link String#format}: a lone {@code %} ("30% less") makes it print a
 * "[picocli WARN] Could not format" line on standard error for each use, dozens of them in {@code run --help}.
 * Before: the {@code --http-client} description had one.
 */
class OptionDescriptionFormatTest {
    @Test
    void theHelpOfEveryCommandRendersWithoutPicocliWarnings() {
        CommandLine root = CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new Properties()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            render(root);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(StandardCharsets.UTF_8))
                .as("what picocli printed on standard error while rendering every command's help"
                        + " (a lone %% in a description: write %%%%)")
                .doesNotContain("picocli WARN");
    }

    private static void render(CommandLine cmd) {
        assertThat(cmd.getUsageMessage()).as("help of %s", cmd.getCommandName()).isNotBlank();
        cmd.getSubcommands().values().forEach(OptionDescriptionFormatTest::render);
    }
}
