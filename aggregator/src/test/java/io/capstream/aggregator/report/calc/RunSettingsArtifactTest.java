package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.RunStarted;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The artifact's {@code capstream.run} for a RunStarted with every run setting set: the same keys, order and values
 * as the hand-written object it replaced (the expected text was written by the code before RunSettings existed).
 */
class RunSettingsArtifactTest {

    /** A RunStarted with every setting that {@code capstream.run} shows set to a value that is not its default. */
    static RunStarted everySetting() {
        return started(1, 4096).setArrival("poisson").setRateRps(5.5).setMaxInFlight(7).setDurationS(12.5)
                .setKeepAlive(true).setEndpoint("completions").setHeaderNames(List.of("X-Team", "X-Trace"))
                .setExtraBodyJson("{\"top_p\":0.9,\"stop\":[\"\\n\"],\"nested\":{\"b\":1,\"a\":2.5}}")
                .setRerunOf("benchmark-0").setPromptSalt("salt-1").setRampUpS(2.0).setBurst(3)
                .setSharedPrefixTokens(512).setMarginTokens(100).setTimeoutS(30.0).setExpectedWorkers(2)
                .setDatasetName("chat.jsonl").setDatasetSha256("ab12").setDatasetEntries(9).setTokenizer("tokenizer.json")
                .setInputTokensMean(300.0).setInputTokensStddev(20.0).setOutputTokensMean(40.0)
                .setOutputTokensStddev(5.0).build();
    }

    /** @return {@link #everySetting()} with the conversation settings (issue 29) set too */
    static RunStarted everySettingWithConversations() {
        return RunStarted.newBuilder(everySetting()).setTurnsMean(3.0).setTurnsStddev(1.0).setThinkTimeS(2.0)
                .setThinkTimeStddevS(0.5).setSessionHeader("X-Session-Id").setToolsName("tools.json")
                .setToolsSha256("cd34").setToolChoice("required").setToolResultTokens(64).setToolLatencyS(0.05)
                .setResponsesState("server").setBurstiness(0.25).setRateSchedule("0s:2,60s:20")
                .setSteadyState("10:70").setCancelRate(0.5).setCancelAfterS(0.1).setCancelAfterStddevS(0.02)
                .setMaxErrorRate(0.2).setMaxErrorWindow(50).setMaxConsecutiveErrors(5).setStopOnSaturation(true)
                .setImages(4).setImageSizes("1024x1024").setImageFormat("jpeg").setBatch(8).setInsecure(true)
                .setCaCertName("ca.pem").setTraceHeaders(List.of("traceparent", "X-Request-Id")).setHttpClient("vertx")
                .build();
    }

    private static JsonNode run(RunStarted st) throws Exception {
        String artifact = ReportCalculator.compute(new RunData("benchmark-1", st, List.of(ok(0, 100, 600, 1000, 10).build()),
                List.of(), finished(1_000_000_000L), null)).getArtifactJson();
        return ArtifactJson.parse(artifact).get("capstream").get("run");
    }

    @Test
    void everySettingIsWrittenAsBefore() throws Exception {
        JsonNode run = run(everySetting());
        assertThat(ArtifactJson.write(run)).as("capstream.run").isEqualTo(EVERY_SETTING);
        List<String> keys = new java.util.ArrayList<>();
        run.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).as("the keys in the artifact (sorted by the writer)").hasSize(24);
    }

    @Test
    void theDefaultsAreWrittenAsBefore() throws Exception {
        assertThat(ArtifactJson.write(run(started(1, 4096).build()))).as("capstream.run of a reference run")
                .isEqualTo(DEFAULTS);
    }

    @Test
    void theConversationSettingsAreWrittenOnlyWhenSet() throws Exception {
        JsonNode run = run(started(1, 4096).setTurnsMean(3.0).setTurnsStddev(1.0).setThinkTimeS(2.0)
                .setSessionHeader("X-Session-Id").setToolsName("tools.json").setToolsSha256("cd34")
                .setToolChoice("required").setToolResultTokens(64).setToolLatencyS(0.05).setResponsesState("server")
                .build());
        assertThat(run.get("turns_mean").asDouble()).as("turns_mean").isEqualTo(3.0);
        assertThat(run.get("tool_result_tokens").asInt()).as("tool_result_tokens").isEqualTo(64);
        assertThat(run.get("session_header").asText()).as("session_header").isEqualTo("X-Session-Id");
        assertThat(run.has("think_time_stddev_s")).as("a conversation setting left null is left out: "
                + run).isFalse();
    }

    private static final String EVERY_SETTING = """
            {
              "arrival": "poisson",
              "burst": 3,
              "dataset_entries": 9,
              "dataset_name": "chat.jsonl",
              "dataset_sha256": "ab12",
              "duration_s": 12.5,
              "endpoint": "completions",
              "expected_workers": 2,
              "extra_body": {
                "nested": {
                  "a": 2.5,
                  "b": 1
                },
                "stop": [
                  "\\n"
                ],
                "top_p": 0.9
              },
              "header_names": [
                "X-Team",
                "X-Trace"
              ],
              "input_tokens_mean": 300.0,
              "input_tokens_stddev": 20.0,
              "keep_alive": true,
              "margin_tokens": 100,
              "max_in_flight": 7,
              "output_tokens_mean": 40.0,
              "output_tokens_stddev": 5.0,
              "prompt_salt": "salt-1",
              "ramp_up_s": 2.0,
              "rate_rps": 5.5,
              "rerun_of": "benchmark-0",
              "shared_prefix_tokens": 512,
              "timeout_s": 30.0,
              "tokenizer": "tokenizer.json"
            }
            """;
    private static final String DEFAULTS = """
            {
              "arrival": "closed",
              "burst": 0,
              "dataset_entries": null,
              "dataset_name": null,
              "dataset_sha256": null,
              "duration_s": null,
              "endpoint": "chat",
              "expected_workers": 1,
              "extra_body": null,
              "header_names": [],
              "input_tokens_mean": null,
              "input_tokens_stddev": null,
              "keep_alive": false,
              "margin_tokens": null,
              "max_in_flight": null,
              "output_tokens_mean": null,
              "output_tokens_stddev": null,
              "prompt_salt": null,
              "ramp_up_s": null,
              "rate_rps": null,
              "rerun_of": null,
              "shared_prefix_tokens": null,
              "timeout_s": null,
              "tokenizer": null
            }
            """;
}
