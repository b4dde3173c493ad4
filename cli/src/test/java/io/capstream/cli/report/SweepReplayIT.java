package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replayed sweep gives the same curve: {@code capstream sweep} on a broker, then {@code capstream replay
 * --sweep-id}; the replay's {@code sweep.json} has the same points (loads, latencies, throughput, goodput)
 * and the same largest load meeting the SLO, under a new sweep id and new run ids.
 */
class SweepReplayIT {
    @TempDir
    Path tmp;

    @Test
    void replayingASweepGivesTheSameCurve() throws Exception {
        String registry = "mock://sweep-replay-it-" + UUID.randomUUID();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            Path original = tmp.resolve("sweep");
            CommandOutput sweep = CommandOutput.run("sweep", "--concurrency", "1,2", "--requests", "6",
                    "--max-tokens", "8", "--ctx-tokens", "64", "--shared-prefix-tokens", "0",
                    "--slo", "ttft_p95_ms<=5000", "--sweep-id", "sweep-replay-it", "--output-dir", original.toString(),
                    "--client-warmup", "0", "--bootstrap-servers", bootstrap, "--schema-registry-url", registry);
            assertEquals(0, sweep.exitCode(), sweep.out() + sweep.err());

            Path replayed = tmp.resolve("replay");
            CommandOutput replay = CommandOutput.run("replay", "--sweep-id", "sweep-replay-it", "--output-dir",
                    replayed.toString(), "--bootstrap-servers", bootstrap, "--schema-registry-url", registry);
            assertEquals(0, replay.exitCode(), replay.out() + replay.err());

            JsonNode a = ArtifactJson.read(original.resolve("sweep.json"));
            JsonNode b = ArtifactJson.read(replayed.resolve("sweep.json"));
            assertEquals("sweep-replay-it", a.get("sweep_id").asText());
            assertThat(b.get("sweep_id").asText()).as(b.toString()).startsWith("sweep-replay-it-replay-");
            assertEquals(2, a.get("points").size());
            assertEquals(withoutIds(a), withoutIds(b), "same points and the same max load, other ids");
            assertEquals(2, a.path("max_load_meeting_slos").path("concurrency").asInt());
            assertNotEquals(a.get("points").get(0).get("run_id"), b.get("points").get(0).get("run_id"));
        }
    }

    /** The curve without what names it: sweep id, run ids, update time. */
    private static JsonNode withoutIds(JsonNode curve) {
        ObjectNode c = curve.deepCopy();
        c.remove(List.of("sweep_id", "updated_at_ms"));
        ((ObjectNode) c.get("max_load_meeting_slos")).remove("run_id");
        c.get("points").forEach(p -> ((ObjectNode) p).remove("run_id"));
        return c;
    }
}
