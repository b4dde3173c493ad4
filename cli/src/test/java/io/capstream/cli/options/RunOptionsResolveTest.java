package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The options are resolved once into the config's groups; the simulated target's URL is bound later. */
class RunOptionsResolveTest {
    @Command(name = "holder")
    static final class Holder {
        @Mixin
        RunOptions run = new RunOptions();
        @Mixin
        SimOptions sim = new SimOptions();
    }

    private static RunConfig config(String... args) {
        Holder h = new Holder();
        new CommandLine(h).parseArgs(args);
        return h.run.toConfig(h.sim);
    }

    @Test
    void withoutABaseUrlTheSimulatedEngineIsTheTargetAndItsUrlIsUnbound() {
        RunConfig c = config("--sim-model", "sim-x");
        assertEquals(new TargetConfig(null, true, "sim-x", "capstream-sim", null, 900.0, false), c.target());
        assertTrue(c.target().unbound());
        assertEquals(List.of(), c.validate(k -> null), "everything but the URL is checked before the engine starts");
        assertEquals("http://127.0.0.1:5555/v1", c.withBaseUrl("http://127.0.0.1:5555/v1").target().baseUrl());
    }

    @Test
    void aGivenBaseUrlIsBoundAtOnceAndNeedsAModel() {
        RunConfig c = config("--base-url", " http://h:8000/v1 ", "--engine", "vllm", "--timeout", "30", "--keep-alive");
        assertEquals(new TargetConfig("http://h:8000/v1", false, null, "vllm", null, 30.0, true), c.target());
        assertEquals(List.of("--model is required"), c.validate(k -> null));
    }

    /**
     * Before: embeddings and rerank kept the chat default margin of 1024 tokens, so a 512-token embedding model
     * ("max model length 512 must exceed --max-tokens + --margin (1088)") could not be measured without --margin.
     */
    @Test
    void theDefaultMarginIsTheChatTemplatesRoomOnlyForEndpointsThatGenerate() {
        assertThat(config().request().margin()).as("chat, default margin").isEqualTo(RunConfig.DEFAULT_MARGIN);
        assertThat(config("--endpoint", "embeddings").request().margin()).as("embeddings, default margin").isZero();
        assertThat(config("--endpoint", "rerank").request().margin()).as("rerank, default margin").isZero();
        assertThat(config("--endpoint", "embeddings", "--margin", "100").request().margin())
                .as("embeddings, --margin 100").isEqualTo(100);
        RunConfig small = config("--endpoint", "embeddings", "--max-model-len", "512");
        assertThat(small.validate(k -> null)).as("embeddings against a 512-token window").isEmpty();
        assertThat(small.request().promptCap(512)).as("its prompt cap, tokens").isEqualTo(448);
    }

    @Test
    void everyOptionLandsInItsGroup() {
        RunConfig c = config("--requests", "5", "--concurrency", "2", "--arrival", "poisson", "--rate", "3",
                "--max-in-flight", "4", "--duration", "2s", "--ctx-tokens", "256", "--max-tokens", "32",
                "--max-model-len", "4096", "--margin", "10", "--shared-prefix-tokens", "0", "--thinking-mode", "enabled",
                "--seed", "11", "--gpu", "h100", "--run-id", "r1", "--warmup-requests", "3");
        assertEquals(new LoadShape(5, 2, 0, ArrivalMode.POISSON, 3.0, 4, 2.0, null), c.load());
        assertEquals(256, c.request().ctxTokens());
        assertEquals(32, c.request().maxTokens());
        assertEquals(4096, c.request().maxModelLen());
        assertEquals(10, c.request().margin());
        assertEquals(0, c.request().sharedPrefixTokens());
        assertEquals("enabled", c.request().thinkingMode().wireName());
        assertEquals(11, c.identity().seed());
        assertEquals("h100", c.identity().gpu());
        assertEquals("r1", c.identity().runId());
        assertNull(c.identity().workerId());
        assertEquals(3, c.warmup().targetRequests());
        assertTrue(c.target().simulated(), "no --base-url: the simulated engine");
    }

    @Test
    void theArrivalShapeOptionsLandInTheLoadShape() {
        RunConfig c = config("--arrival", "gamma", "--burstiness", "0.25", "--rate-schedule", "0s:2, 1m:20,90000ms:5",
                "--steady-state", "10s:70s");
        org.assertj.core.api.Assertions.assertThat(c.load()).as("load shape").isEqualTo(LoadShape.DEFAULTS
                .withArrival(ArrivalMode.GAMMA).withBurstiness(0.25)
                .withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:2,60s:20,90s:5"))
                .withSteadyState(new io.capstream.schemas.load.SteadyStateWindow(10, 70)));
        org.assertj.core.api.Assertions.assertThat(c.load().rateSchedule().canonical()).as("canonical schedule")
                .isEqualTo("0s:2,60s:20,90s:5");
        org.assertj.core.api.Assertions.assertThat(c.load().problems()).as("problems").isEmpty();
    }

    @Test
    void anUnknownThinkingModeIsAUsageError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config("--thinking-mode", "x"));
        assertEquals("thinking-mode must be one of default, enabled, disabled, unsupported; got 'x'", e.getMessage());
    }
}
