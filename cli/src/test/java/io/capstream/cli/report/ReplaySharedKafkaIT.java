package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} then {@code replay} on a shared Kafka: the replay's in-process report topology
 * aggregates only the replayed events, so the original run's live report is on
 * {@code capstream.reports} once, next to exactly one replay report.
 */
class ReplaySharedKafkaIT {
    @TempDir
    Path tmp;

    @Test
    @Timeout(240)
    void replayDoesNotRepublishTheOriginalRunsReport() {
        String registry = "mock://replay-shared-it-" + UUID.randomUUID();
        String runId = "shared-run-1";
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            CommandOutput run = CommandOutput.run("run", "--bootstrap-servers", bs, "--schema-registry-url", registry,
                    "--requests", "4", "--concurrency", "2", "--ctx-tokens", "256", "--max-tokens", "8",
                    "--run-id", runId, "--output", tmp.resolve("run.json").toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertEquals(List.of(runId), reportKeys(bs), "the live report of the run");

            CommandOutput replay = CommandOutput.run("replay", "--run-id", runId, "--output-dir",
                    tmp.resolve("replay").toString(), "--bootstrap-servers", bs, "--schema-registry-url", registry);
            assertEquals(0, replay.exitCode(), replay.out() + replay.err());

            List<String> keys = reportKeys(bs);
            assertEquals(1, keys.stream().filter(runId::equals).count(), "live reports of " + runId + ": " + keys);
            assertEquals(1, keys.stream().filter(k -> k.startsWith(runId + "-replay-")).count(),
                    "replay reports: " + keys);
            assertEquals(2, keys.size(), keys.toString());
            assertThat(replay.out()).contains("metrics MATCHED the original report");
        }
    }

    private static List<String> reportKeys(String bootstrap) {
        List<String> keys = new ArrayList<>();
        TopicHistory.read(Map.of("bootstrap.servers", bootstrap), Topics.REPORTS, (k, v) -> {
            if (v != null) {
                keys.add(k);
            }
        });
        return keys;
    }
}
