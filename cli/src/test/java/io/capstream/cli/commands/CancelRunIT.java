package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.testing.CapturedConsole;
import io.capstream.loadgen.run.CancelDraws;
import io.capstream.loadgen.run.CancelShape;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.artifact.ArtifactJson;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, cancellations end to end: {@code run --cancel-rate 0.5 --cancel-after 100ms} against the simulated engine
 * (whose streams last seconds with its defaults, so every drawn request is still open at 100 ms): the drawn requests
 * are cancelled, reported as {@code capstream.cancelled} (not failures, not in the timings), and the engine saw the
 * clients go away.
 */
class CancelRunIT {
    @TempDir
    Path tmp;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    /** @return the request indices of seed {@code seed} drawn for cancellation at rate 0.5, ascending */
    private static List<Integer> drawn(long seed, int requests) {
        CancelDraws d = new CancelDraws(new CancelShape(0.5, 0.1, null), seed);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            if (d.cancelAfterNs(i) >= 0) {
                out.add(i);
            }
        }
        return out;
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    /** The check: the built-in sim, 60 requests, cancelled between 15 and 45, and its /metrics saw them. */
    @Test
    @Timeout(300)
    void halfOfSixtyStreamsAreCancelledAfterAHundredMillisecondsOnTheBuiltInSim() throws Exception {
        Path report = tmp.resolve("report.json");
        Path csv = tmp.resolve("requests.csv");
        int code = CapstreamMain.execute("run", "--requests", "60", "--cancel-rate", "0.5", "--cancel-after", "100ms",
                "--seed", "5", "--client-warmup", "0", "--output", report.toString(), "--csv", csv.toString());
        assertThat(code).as("exit code; stderr: %s", console.err()).isZero();
        JsonNode a = ArtifactJson.read(report);
        JsonNode c = a.path("capstream").path("cancelled");
        int cancelled = c.path("requests").asInt();
        assertThat(cancelled).as("capstream.cancelled.requests: %s", c).isBetween(15, 45);
        assertThat(ints(c.path("request_indices"))).as("cancelled indices: those seed 5 drew")
                .isEqualTo(drawn(5, 60));
        assertThat(a.path("failed").asInt()).as("failed").isZero();
        assertThat(a.path("failures").size()).as("failures").isZero();
        assertThat(a.path("completed").asInt() + cancelled).as("completed + cancelled").isEqualTo(60);
        assertThat(a.path("requests").asInt()).as("requests").isEqualTo(60);
        List<Integer> timed = new ArrayList<>();
        a.path("request_timings").forEach(t -> timed.add(t.path("request_index").asInt()));
        assertThat(timed).as("indices with timings (in the percentiles)").doesNotContainAnyElementsOf(
                ints(c.path("request_indices")));
        assertThat(a.path("capstream").path("complete").asBoolean(false)).as("capstream.complete").isTrue();
        assertThat(a.path("capstream").path("missing_request_indices").size()).as("missing indices").isZero();
        assertThat(c.path("cancel_after_p50_ms").asDouble()).as("cancel time p50, ms").isEqualTo(100.0);
        JsonNode run = a.path("capstream").path("run");
        assertThat(run.path("cancel_rate").asDouble()).as("capstream.run.cancel_rate").isEqualTo(0.5);
        assertThat(run.path("cancel_after_s").asDouble()).as("capstream.run.cancel_after_s").isEqualTo(0.1);
        JsonNode gone = a.path("capstream").path("server_metrics").path("series")
                .path("capstream_sim:requests_disconnected_total");
        assertThat(gone.path("max").asDouble()).as("the sim's disconnected requests, scraped: %s", gone)
                .isGreaterThan(0).isLessThanOrEqualTo(cancelled);
        long csvCancelled = Files.readAllLines(csv).stream().filter(l -> l.contains(",cancelled,Cancelled,")).count();
        assertThat(csvCancelled).as("CSV rows with status cancelled").isEqualTo(cancelled);
        assertThat(console.out()).as("summary").contains("cancelled         " + cancelled + " (not completed");
    }

    /** The sim's own stats count every cancel as a client gone away, and its streams for them stopped. */
    @Test
    @Timeout(300)
    void theSimsStatsCountEveryCancelledStream() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            SimEngine sim = SimEngine.start(vertx, SimConfig.builder().build()).toCompletionStage()
                    .toCompletableFuture().get();
            Path report = tmp.resolve("ext.json");
            int code = CapstreamMain.execute("run", "--base-url", sim.baseUrl(), "--model", sim.config().modelId(),
                    "--requests", "20", "--cancel-rate", "0.5", "--cancel-after", "100ms", "--seed", "9",
                    "--client-warmup", "0", "--output", report.toString());
            assertThat(code).as("exit code; stderr: %s", console.err()).isZero();
            JsonNode a = ArtifactJson.read(report);
            int cancelled = a.path("capstream").path("cancelled").path("requests").asInt();
            assertThat(cancelled).as("cancelled").isEqualTo(drawn(9, 20).size());
            Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(sim.stats().disconnected())
                    .as("the sim's disconnected requests").isEqualTo(cancelled));
            assertThat(sim.stats().completed()).as("the sim's completed requests")
                    .isEqualTo(a.path("completed").asLong());
            sim.close();
        } finally {
            vertx.close();
        }
    }
}
