package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.registry.AuthRegistryStub;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} and {@code import} against a shared Kafka (a broker the commands do not own): their
 * throwaway in-process report topology leaves no internal topic and no consumer group behind, and
 * with a {@code capstream aggregate} service on the same Kafka they publish each report once (the
 * service's) instead of twice.
 */
class SharedKafkaOneReportIT {
    /** The default application id of {@code capstream aggregate} (README, AggregateCommand). */
    private static final String SERVICE_GROUP = "capstream-aggregator";
    private static final Pattern RUN_APP_ID = Pattern.compile("Kafka Streams (capstream-run-[0-9a-f-]{36})");

    @TempDir
    Path tmp;

    @Test
    @Timeout(240)
    void runAndImportLeaveNoStreamsTopicsOrConsumerGroupBehind() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            List<String> before = topics(bs);

            CommandOutput run = CommandOutput.run("run", "--bootstrap-servers", bs, "--requests", "4",
                    "--concurrency", "2", "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", "cleanup-run-1",
                    "--output", tmp.resolve("run.json").toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertEquals(4, ArtifactJson.read(tmp.resolve("run.json")).path("completed").asInt());
            Matcher m = RUN_APP_ID.matcher(run.err());
            assertTrue(m.find(), run.err());
            String appId = m.group(1);
            assertEquals(List.of(), topics(bs).stream().filter(t -> t.startsWith(appId + "-")).toList(),
                    "internal topics of " + appId);
            assertEquals(List.of(), groups(bs).stream().filter(g -> g.startsWith("capstream-run-")).toList());
            assertThat(run.err()).doesNotContain("warning: could not");
            // a fresh user's run without --schema-registry-url on a shared Kafka: its report was then undecodable for
            // tail and aggregate without a word, as a report was awaited
            assertThat(run.err().lines().filter(l -> l.contains("note:")).toList())
                    .as("run's note on the registry, once; stderr %s", run.err()).containsExactly("capstream run: note:"
                            + " the events and report written to " + bs + " are encoded with the in-process registry"
                            + " mock://capstream, which other processes (aggregate, tail) cannot decode: give"
                            + " --schema-registry-url (the one `capstream up` prints)");

            CommandOutput imp = CommandOutput.run("import", SharedDir.seed().toString(), "--output-dir",
                    tmp.resolve("imported").toString(), "--bootstrap-servers", bs,
                    "--schema-registry-url", "mock://shared-once-it-" + UUID.randomUUID());
            assertEquals(0, imp.exitCode(), imp.out() + imp.err());
            assertThat(imp.out()).contains("seed-example.json: MATCHED");

            // a run already on the cluster is not imported again (a fresh user's import of a live run's report file
            // counted its requests twice in the windows and replaced its live report; a second import of one
            // artifact counted them twice too)
            String seedRunId = ArtifactJson.read(SharedDir.seed()).path("run_id").asText();
            CommandOutput again = CommandOutput.run("import", SharedDir.seed().toString(), tmp.resolve("run.json")
                    .toString(), "--output-dir", tmp.resolve("again").toString(), "--bootstrap-servers", bs,
                    "--schema-registry-url", "mock://shared-once-it-" + UUID.randomUUID());
            assertThat(again.exitCode()).as("exit code of the second import: %s%s", again.out(), again.err())
                    .isEqualTo(1);
            assertThat(again.out()).as("second import's output")
                    .contains("seed-example.json: <cluster>: run " + seedRunId + " already has a report on"
                            + " capstream.reports: not imported again")
                    .contains("run.json: <cluster>: run cleanup-run-1 already has a report on capstream.reports")
                    .contains("0 of 2 matched (2 already on the cluster, not imported)");
            assertEquals(1, reportsFor(bs, seedRunId), "reports of the seed's run");

            assertEquals(before, topics(bs), "only capstream's own topics are left");
            assertEquals(List.of(), groups(bs), "no consumer group is left");
        }
    }

    @Test
    @Timeout(300)
    void withAnAggregateServiceOnTheSameKafkaEachReportIsPublishedOnce() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
             AuthRegistryStub registry = new AuthRegistryStub("once-user:once-pw")) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            String[] shared = {"--bootstrap-servers", bs, "--schema-registry-url", registry.url(),
                "--schema-registry-basic-auth", "once-user:once-pw"};

            // no service: the run aggregates in this process and still gets its report
            CommandOutput alone = CommandOutput.run(concat(shared, "run", "--requests", "4", "--concurrency", "2",
                    "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", "once-alone",
                    "--output", tmp.resolve("alone.json").toString()));
            assertEquals(0, alone.exitCode(), alone.out() + alone.err());
            assertEquals(4, ArtifactJson.read(tmp.resolve("alone.json")).path("completed").asInt());
            assertEquals(1, reportsFor(bs, "once-alone"));

            RegistryClientConfig d = RegistryClientConfig.defaults();
            RegistryClientConfig auth = new RegistryClientConfig(d.requestTimeout(), d.maxRetries(), d.retryBackoff(),
                    "once-user:once-pw", null);
            try (AggregatorService service = AggregatorService.start(
                    AggregatorConfig.of(registry.url(), auth, Duration.ofMinutes(1), Duration.ofSeconds(10), List.of()),
                    StreamsSettings.defaults(SERVICE_GROUP, bs, tmp.resolve("service-state")), null)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> service.state() == KafkaStreams.State.RUNNING);

                CommandOutput run = CommandOutput.run(concat(shared, "run", "--requests", "4", "--concurrency", "2",
                        "--ctx-tokens", "256", "--max-tokens", "8", "--run-id", "once-with-service",
                        "--output", tmp.resolve("with-service.json").toString()));
                assertEquals(0, run.exitCode(), run.out() + run.err());
                assertEquals(4, ArtifactJson.read(tmp.resolve("with-service.json")).path("completed").asInt());

                String seedRunId = ArtifactJson.read(SharedDir.seed()).path("run_id").asText();
                CommandOutput imp = CommandOutput.run(concat(shared, "import", SharedDir.seed().toString(),
                        "--output-dir", tmp.resolve("imported").toString()));
                assertEquals(0, imp.exitCode(), imp.out() + imp.err());
                assertThat(imp.out()).contains("seed-example.json: MATCHED");

                // once the service has committed past every event, every report it will ever publish for them is
                // on capstream.reports (exactly-once: reports and offsets commit together)
                await().atMost(Duration.ofSeconds(60)).until(() -> consumedAll(bs, SERVICE_GROUP));
                assertEquals(1, reportsFor(bs, "once-with-service"), "reports of the run");
                assertEquals(1, reportsFor(bs, seedRunId), "reports of the import");

                // each command says where its report comes from
                assertThat(alone.err()).contains("capstream: no aggregator running on this Kafka: aggregating in this"
                        + " process");
                assertThat(run.err()).contains("capstream: using the running aggregator (group " + SERVICE_GROUP
                        + ")");
                assertThat(run.err()).as("no in-process topology: " + run.err())
                        .doesNotContain("report aggregator running");
                assertThat(imp.err()).contains("capstream import: using the running aggregator (group "
                        + SERVICE_GROUP + ")");
            }
        }
    }

    private static String[] concat(String[] shared, String command, String... args) {
        String[] all = new String[1 + args.length + shared.length];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        System.arraycopy(shared, 0, all, 1 + args.length, shared.length);
        return all;
    }

    private static long reportsFor(String bootstrap, String runId) {
        long[] n = {0};
        TopicHistory.read(Map.of("bootstrap.servers", bootstrap), Topics.REPORTS, (k, v) -> {
            if (runId.equals(k) && v != null) {
                n[0]++;
            }
        });
        return n[0];
    }

    private static boolean consumedAll(String bootstrap, String group) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            var parts = admin.describeTopics(List.of(Topics.EVENTS)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(Topics.EVENTS).partitions();
            Map<TopicPartition, OffsetSpec> spec = new HashMap<>();
            parts.forEach(p -> spec.put(new TopicPartition(Topics.EVENTS, p.partition()), OffsetSpec.latest()));
            var ends = admin.listOffsets(spec).all().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            return ends.entrySet().stream().allMatch(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return (c == null ? 0 : c.offset()) >= e.getValue().offset();
            });
        }
    }

    private static List<String> topics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().sorted().toList();
        }
    }

    private static List<String> groups(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            return admin.listGroups().all().get(30, TimeUnit.SECONDS).stream().map(GroupListing::groupId).sorted()
                    .toList();
        }
    }
}
