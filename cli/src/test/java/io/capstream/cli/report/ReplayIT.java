package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.importer.MetricComparison;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capstream replay} against a broker that holds an imported run's events. */
class ReplayIT {
    @TempDir
    Path tmp;

    @Test
    void replayOfAnImportedRunHasTheSameMetricsAndIsMarkedAsReplay() throws Exception {
        JsonNode seed = ArtifactJson.read(SharedDir.seed());
        String runId = seed.get("run_id").asText();
        String registry = "mock://replay-it-" + UUID.randomUUID();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bootstrap = kafka.bootstrapServers();
            CommandOutput imported = CommandOutput.run("import", SharedDir.seed().toString(), "--output-dir",
                    tmp.resolve("import").toString(), "--bootstrap-servers", bootstrap, "--schema-registry-url",
                    registry);
            assertEquals(0, imported.exitCode(), imported.out() + imported.err());

            Path outDir = tmp.resolve("replay");
            CommandOutput replay = CommandOutput.run("replay", "--run-id", runId, "--output-dir", outDir.toString(),
                    "--bootstrap-servers", bootstrap, "--schema-registry-url", registry);
            assertEquals(0, replay.exitCode(), replay.out() + replay.err());
            assertThat(replay.out()).contains(runId + ": REPLAYED as " + runId + "-replay-");
            assertThat(replay.out()).contains("REPLAY of " + runId);
            assertThat(replay.out()).contains("metrics MATCHED the original report");

            List<Path> written;
            try (Stream<Path> s = Files.list(outDir)) {
                written = s.toList();
            }
            assertThat(replay.out()).contains("1 of 1 runs replayed");
            assertEquals(1, written.size());
            JsonNode ours = ArtifactJson.read(written.get(0));
            assertEquals(List.of(), MetricComparison.compare(seed, ours));
            assertThat(ours.get("run_id").asText()).startsWith(runId + "-replay-");
            assertEquals(seed.get("request_timings"), ours.get("request_timings"));

            // --all replays the original run only, not the replay made above
            CommandOutput all = CommandOutput.run("replay", "--all", "--output-dir", outDir.toString(),
                    "--bootstrap-servers", bootstrap, "--schema-registry-url", registry);
            assertEquals(0, all.exitCode(), all.out() + all.err());
            assertThat(all.out()).contains("1 of 1 runs replayed");
            assertThat(all.out()).contains(runId + ": REPLAYED as");
            assertThat(all.out()).contains("metrics MATCHED the original report");

            CommandOutput missing = CommandOutput.run("replay", "--run-id", "no-such-run", "--output-dir",
                    outDir.toString(), "--bootstrap-servers", bootstrap, "--schema-registry-url", registry);
            assertEquals(1, missing.exitCode());
            assertThat(missing.out()).contains("no-such-run: not found");
            assertThat(missing.out()).contains("0 of 1 runs replayed");
        }
    }

    @Test
    void replayWithoutBrokerIsAUsageErrorThatSaysWhy() {
        CommandOutput r = CommandOutput.run("replay", "--all");
        assertEquals(2, r.exitCode());
        assertThat(r.err()).contains("embedded broker starts empty");
    }
}
