package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import org.junit.jupiter.api.Test;

/**
 * A fresh user's {@code --concurrency 3000} under {@code ulimit -n 1024} failed 2,513 of 3,000 requests with "Too many
 * open files", counted as the endpoint's failures; now it is refused before anything is sent (exit 2).
 */
class OpenFileLimitTest {
    private static LoadShape closed(int requests, int concurrency) {
        return new LoadShape(requests, concurrency, 0, ArrivalMode.CLOSED, null, null, null, null);
    }

    @Test
    void aConcurrencyAboveTheLimitIsRefusedWithWhatItNeeds() {
        assertThat(OpenFileLimit.problem(closed(3000, 3000), false, 1024, 40)).as("3,000 streams, ulimit -n 1024")
                .isEqualTo("--concurrency 3000 needs about 3,296 open files (a connection per request in flight,"
                        + " plus 256 for the JVM and Kafka), but this process may open 1,024 (ulimit -n): raise the"
                        + " limit (e.g. ulimit -n 4096) or lower --concurrency");
        assertThat(OpenFileLimit.problem(closed(800, 400), true, 1024, 40)).as("the built-in engine: two per request")
                .contains("--concurrency 400 needs about 1,096 open files", "two with the built-in engine");
    }

    @Test
    void whatFitsOrCannotBeKnownPasses() {
        assertThat(OpenFileLimit.problem(closed(3000, 3000), false, 1_048_576, 40)).as("a high limit").isNull();
        assertThat(OpenFileLimit.problem(closed(10, 3000), false, 1024, 40)).as("10 requests need 10 connections")
                .isNull();
        assertThat(OpenFileLimit.problem(closed(3000, 3000), false, -1, -1)).as("unknown limit").isNull();
        LoadShape openDefault = new LoadShape(100_000, 1, 0, ArrivalMode.POISSON, 5.0, null, null, null);
        assertThat(OpenFileLimit.problem(openDefault, false, 1024, 40)).as("an open loop's default cap").isNull();
        LoadShape openCapped = new LoadShape(100_000, 1, 0, ArrivalMode.POISSON, 5.0, 5000, null, null);
        assertThat(OpenFileLimit.problem(openCapped, false, 1024, 40)).as("an open loop's --max-in-flight")
                .startsWith("--max-in-flight 5000 needs about");
    }
}
