package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.CapturedConsole;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's check of the stop rules, end to end on the built-in simulated engine: {@code --sim-error-rate 0.9
 * --max-error-rate 0.5 --requests 2000} ends early with {@code capstream.stopped} and fewer than 2,000 requests, a
 * complete report and exit code 4.
 */
class RunStopRulesIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @Test
    @Timeout(180)
    void aRunWhoseErrorRateTripsItsRuleEndsEarlyWithACompleteReport() throws Exception {
        Path report = tmp.resolve("report.json");
        int code = CapstreamMain.execute("run", "--sim-error-rate", "0.9", "--max-error-rate", "0.5", "--requests",
                "2000", "--client-warmup", "0", "--output", report.toString());
        assertThat(code).as(console.err()).isEqualTo(4);
        JsonNode a = ArtifactJson.read(report);
        JsonNode stopped = a.path("capstream").path("stopped");
        assertThat(stopped.path("rule").asText()).as(stopped.toString()).isEqualTo("max_error_rate");
        assertThat(stopped.path("detail").asText()).matches("\\d+ of the last 50 requests failed \\(\\d+%\\), over the"
                + " 50% limit");
        int ran = a.path("requests").asInt();
        assertThat(ran).as("requests that ran").isLessThan(2000).isGreaterThanOrEqualTo(50);
        assertThat(a.path("completed").asInt() + a.path("failed").asInt()).isEqualTo(ran);
        assertThat(stopped.path("requests_not_sent").asInt()).isEqualTo(2000 - ran);
        assertThat(a.path("capstream").path("complete").asBoolean()).as("the unsent requests are not missing")
                .isTrue();
        assertThat(a.path("capstream").path("missing_request_indices")).isEmpty();
        assertThat(a.path("capstream").path("interrupted").asBoolean()).isFalse();
        assertThat(a.path("capstream").path("run").path("max_error_rate").asDouble()).isEqualTo(0.5);
        assertThat(console.out()).contains("STOPPED           by max_error_rate at ");
        assertThat(console.err()).contains("capstream: stop rule max_error_rate tripped at ")
                .contains("; exit code 4");
    }
}
