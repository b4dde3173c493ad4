package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CommandOutput;
import org.junit.jupiter.api.Test;

/** {@code aggregate --http-port} outside 0..65535: a usage error (exit 2) found before Kafka is asked. */
class AggregateHttpPortUsageTest {
    @Test
    void aPortOutOfRangeIsAOneLineUsageErrorBeforeKafka() {
        // before the fix: exit 1 with "port must be in 0..65535: 70000" after the Kafka wait and topic creation
        for (String port : new String[] {"70000", "-1"}) {
            CommandOutput r = CommandOutput.run("aggregate", "--bootstrap-servers", "127.0.0.1:1",
                    "--schema-registry-url", "http://127.0.0.1:1", "--kafka-wait", "1s", "--http-port", port);
            assertThat(r.exitCode()).as("exit code of --http-port " + port + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as("stderr of --http-port " + port)
                    .isEqualTo("capstream aggregate: --http-port must be in 0..65535 (0 = any free port), got " + port);
        }
    }
}
