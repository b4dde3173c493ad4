package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.rerun.PastRun;
import io.capstream.cli.rerun.RerunWorkload;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.capstream.cli.testing.CapturedConsole;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream rerun} end to end (issue 15 part 4) on a broker the commands share: an open-loop run against
 * the built-in simulated engine, then its rerun against a second, slower engine. The rerun sends the same plan
 * (the same prompt for every request index), at the same arrival offsets, with the original's request options,
 * and prints the comparison; its report says what it reran.
 */
class RerunIT {
    private static final String REGISTRY = "mock://rerun-it";
    private static EmbeddedKafka kafka;

    @TempDir
    Path tmp;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        TopicSetup.ensureTopics(kafka.bootstrapServers(), Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private String out() {
        return console.out();
    }

    private String err() {
        return console.err();
    }

    @Test
    @Timeout(240)
    void aRerunSendsTheSamePlanAtTheSameOffsetsToAnotherEndpointAndCompares() throws Exception {
        String bs = kafka.bootstrapServers();
        Path original = tmp.resolve("original.json");
        // sampled contexts (the sim's window is known from /models; 40,000 leaves the 16,000 and 32,768 buckets below the
        // cap), Poisson arrivals, request options
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY,
                "--arrival", "poisson", "--rate", "8", "--requests", "16", "--seed", "7", "--max-tokens", "8",
                "--shared-prefix-tokens", "64", "--sim-max-model-len", "40000", "--sim-prefill-tok-s", "2000000", "--extra-body", "{\"top_p\":0.9}",
                "--client-warmup", "0", "--run-id", "rerun-it-original", "--output", original.toString()), err());

        Vertx vertx = Vertx.vertx();
        try {
            SimEngine slower = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(250).maxModelLen(40000).prefillTokPerS(2_000_000).build())
                    .toCompletionStage().toCompletableFuture().get();
            Path rerun = tmp.resolve("rerun.json");
            int code = CapstreamMain.execute("rerun", "rerun-it-original", "--base-url", slower.baseUrl(),
                    "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY, "--client-warmup", "0",
                    "--run-id", "rerun-it-again", "--output", rerun.toString());
            assertEquals(0, code, err());
            slower.close();

            JsonNode a = ArtifactJson.read(original);
            JsonNode b = ArtifactJson.read(rerun);
            assertEquals("rerun-it-original", b.path("capstream").path("run").path("rerun_of").asText());
            assertEquals(slower.baseUrl(), b.path("base_url").asText());
            assertEquals(16, b.path("completed").asInt());
            // the same prompt for each index: the same planned contexts and prompt sizes (and they vary by index, so
            // that another plan would show)
            java.util.Set<Integer> distinct = new java.util.HashSet<>();
            for (int i = 0; i < 16; i++) {
                distinct.add(a.path("request_timings").get(i).path("planned_context_tokens").asInt());
            }
            assertTrue(distinct.size() >= 2, "sampled contexts (16000, 32768 or the cap): " + distinct);
            for (int i = 0; i < 16; i++) {
                JsonNode ra = a.path("request_timings").get(i);
                JsonNode rb = b.path("request_timings").get(i);
                assertEquals(ra.path("request_index").asInt(), rb.path("request_index").asInt());
                assertEquals(ra.path("planned_context_tokens").asInt(), rb.path("planned_context_tokens").asInt(), "index " + i);
                assertEquals(ra.path("prompt_tokens").asInt(), rb.path("prompt_tokens").asInt(), "index " + i);
            }
            assertEquals(0.9, b.path("capstream").path("run").path("extra_body").path("top_p").asDouble());
            assertEquals("poisson", b.path("capstream").path("run").path("arrival").asText());
            // the same arrival schedule: the realised schedule's rate ((n - 1) / scheduled span, from the requests'
            // scheduled starts, not their wall-clock starts) is the original's; another seed gives another span
            double ra = a.path("capstream").path("load").path("scheduled_rate_rps").asDouble();
            double rb = b.path("capstream").path("load").path("scheduled_rate_rps").asDouble();
            assertThat(ra).as("the original's scheduled rate, req/s").isGreaterThan(0.0);
            assertThat(rb).as("the rerun's scheduled rate against the original's %s req/s", ra)
                    .isCloseTo(ra, org.assertj.core.api.Assertions.within(1e-6 * ra));
            // the engines differ: the slower one's TTFT shows in the comparison. Its 250 ms before the first token
            // is a floor under every rerun request's TTFT; the two runs' TTFTs are not compared with a margin (two
            // runs one after another on a busy machine: the original's client delays can eat into the 200 ms)
            JsonNode ta = a.path("capstream").path("statistics").path("ttft_ms");
            JsonNode tb = b.path("capstream").path("statistics").path("ttft_ms");
            assertThat(tb.path("min").asDouble()).as("rerun TTFT (the slower sim's 250 ms first): %s", tb)
                    .isGreaterThanOrEqualTo(249.0);
            assertThat(tb.path("p50").asDouble()).as("rerun TTFT p50 against the original's: %s vs %s", tb, ta)
                    .isGreaterThan(ta.path("p50").asDouble());
            assertThat(out()).contains("original");
            assertThat(out()).contains("TTFT");
            // issue 32: the same interval and verdict columns as compare (CompareVerdictsCliTest checks the verdicts;
            // 16 requests of a cold first run on a busy machine can leave a +200 ms shift within noise)
            assertThat(out()).as("rerun's comparison").contains("95% interval of B-A")
                    .containsPattern("\\nTTFT p50 [^\\n]*\\] +(regression|within noise)\\n");

            KafkaClientProperties props = new KafkaClientProperties(bs, Map.of());
            RunStarted first = PastRun.read(props, REGISTRY, RegistryClientConfig.defaults(), "rerun-it-original").started();
            RunStarted again = PastRun.read(props, REGISTRY, RegistryClientConfig.defaults(), "rerun-it-again").started();
            assertNotNull(again);
            assertTrue(RerunWorkload.planMatches(first, again), "the whole plan is the original's");
            assertEquals(first.getContextSeed(), again.getContextSeed());
            assertEquals(first.getRateRps(), again.getRateRps());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    @Test
    @Timeout(120)
    void anUnknownRunIdOrAWorkloadOptionIsAUsageErrorAndNothingIsSent() {
        String bs = kafka.bootstrapServers();
        assertEquals(2, CapstreamMain.execute("rerun", "no-such-run", "--bootstrap-servers", bs,
                "--schema-registry-url", REGISTRY));
        assertThat(err()).contains("capstream rerun: run no-such-run has no RunStarted on capstream.events");
        List<String> args = new ArrayList<>(List.of("rerun", "x", "--requests", "5", "--rate", "3"));
        assertEquals(2, CapstreamMain.execute(args.toArray(String[]::new)));
        assertThat(err()).contains("capstream rerun: --requests cannot be given: rerun sends the workload of run x as it was");
        assertThat(err()).contains("capstream rerun: --rate cannot be given");
        assertThat(err()).contains("capstream rerun: needs --bootstrap-servers");
        // fresh-user finding: the original's own run id only warned, then mixed the two runs
        assertEquals(2, CapstreamMain.execute("rerun", "orig", "--run-id", "orig", "--bootstrap-servers", bs,
                "--schema-registry-url", REGISTRY));
        assertThat(err()).contains("capstream rerun: --run-id orig is the original's");
    }

    /** A dataset run's rerun needs the dataset file (the events hold its name and SHA-256), and the same one. */
    @Test
    @Timeout(180)
    void aDatasetRunIsRerunWithItsFileCheckedByItsHash() throws Exception {
        String bs = kafka.bootstrapServers();
        Path dataset = Path.of("src/test/resources/datasets/chat.jsonl");
        Path original = tmp.resolve("ds.json");
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY,
                "--dataset", dataset.toString(), "--requests", "6", "--concurrency", "2", "--client-warmup", "0",
                "--server-metrics", "off", "--run-id", "rerun-it-dataset", "--output", original.toString()), err());
        assertEquals(2, CapstreamMain.execute("rerun", "rerun-it-dataset", "--bootstrap-servers", bs,
                "--schema-registry-url", REGISTRY));
        assertThat(err()).contains("capstream rerun: needs --dataset: the original run's prompts came from chat.jsonl");
        Path other = tmp.resolve("chat.jsonl");
        java.nio.file.Files.writeString(other, java.nio.file.Files.readString(dataset) + "{\"prompt\": \"one more\"}\n");
        assertEquals(2, CapstreamMain.execute("rerun", "rerun-it-dataset", "--dataset", other.toString(),
                "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY));
        assertThat(err()).contains("is not the original's chat.jsonl: SHA-256 ");

        Path rerun = tmp.resolve("ds-rerun.json");
        assertEquals(0, CapstreamMain.execute("rerun", "rerun-it-dataset", "--dataset", dataset.toString(),
                "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY, "--client-warmup", "0",
                "--server-metrics", "off", "--output", rerun.toString()), err());
        JsonNode a = ArtifactJson.read(original);
        JsonNode b = ArtifactJson.read(rerun);
        assertEquals(a.path("capstream").path("run").path("dataset_sha256").asText(),
                b.path("capstream").path("run").path("dataset_sha256").asText());
        for (int i = 0; i < 6; i++) {
            assertEquals(a.path("request_timings").get(i).path("prompt_tokens").asInt(),
                    b.path("request_timings").get(i).path("prompt_tokens").asInt(), "the same entry for index " + i);
        }
    }

    /** A trace run is rerun from the same trace file: the same lengths at the same scheduled offsets. */
    @Test
    @Timeout(180)
    void aTraceRunIsRerunWithItsTrace() throws Exception {
        String bs = kafka.bootstrapServers();
        Path trace = Path.of("src/test/resources/traces/mooncake-small.jsonl");
        Path original = tmp.resolve("trace.json");
        assertEquals(0, CapstreamMain.execute("run", "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY,
                "--trace", trace.toString(), "--max-model-len", "8192", "--client-warmup", "0", "--server-metrics", "off",
                "--run-id", "rerun-it-trace", "--output", original.toString()), err());
        assertEquals(2, CapstreamMain.execute("rerun", "rerun-it-trace", "--bootstrap-servers", bs,
                "--schema-registry-url", REGISTRY));
        assertThat(err()).contains("capstream rerun: needs --trace: the original run's trace was mooncake-small.jsonl");
        Path rerun = tmp.resolve("trace-rerun.json");
        assertEquals(0, CapstreamMain.execute("rerun", "rerun-it-trace", "--trace", trace.toString(),
                "--bootstrap-servers", bs, "--schema-registry-url", REGISTRY, "--client-warmup", "0",
                "--server-metrics", "off", "--output", rerun.toString()), err());
        JsonNode a = ArtifactJson.read(original);
        JsonNode b = ArtifactJson.read(rerun);
        assertEquals("trace", b.path("capstream").path("run").path("arrival").asText());
        JsonNode ta = a.path("capstream").path("timeline");
        JsonNode tb = b.path("capstream").path("timeline");
        for (int i = 0; i < 5; i++) {
            assertEquals(ta.path("start_ms").get(i).asDouble() - ta.path("queue_ms").get(i).asDouble(),
                    tb.path("start_ms").get(i).asDouble() - tb.path("queue_ms").get(i).asDouble(), 1.0, "offset " + i);
            assertEquals(a.path("request_timings").get(i).path("output_tokens").asInt(),
                    b.path("request_timings").get(i).path("output_tokens").asInt());
        }
    }
}
