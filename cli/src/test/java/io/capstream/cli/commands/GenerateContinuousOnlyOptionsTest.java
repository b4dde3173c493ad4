package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CommandOutput;
import org.junit.jupiter.api.Test;

/** {@code generate --interval/--kafka-wait} without {@code --continuous}: usage errors, not silently ignored. */
class GenerateContinuousOnlyOptionsTest {
    @Test
    void intervalAndKafkaWaitWithoutContinuousAreUsageErrors() {
        // before the fix `generate --interval 10s` made one run and exited 0, the interval ignored
        for (String option : new String[] {"--interval", "--kafka-wait"}) {
            CommandOutput r = CommandOutput.run("generate", option, "10s", "--requests", "1",
                    "--bootstrap-servers", "127.0.0.1:1", "--schema-registry-url", "http://127.0.0.1:1");
            assertThat(r.exitCode()).as("exit code of " + option + " without --continuous: " + r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as("stderr of " + option + " without --continuous")
                    .isEqualTo("capstream generate: " + option + " only applies with --continuous");
        }
    }
}
