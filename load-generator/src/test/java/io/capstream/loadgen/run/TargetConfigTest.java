package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The target group checks itself and lists every problem it finds. */
class TargetConfigTest {
    private static final Function<String, String> NO_ENV = k -> null;

    private static RunConfig.Builder b() {
        return RunConfig.builder("http://127.0.0.1:8000/v1", "m");
    }

    @Test
    void theBuilderFillsTheTargetWithTheReferenceDefaults() {
        TargetConfig t = b().engine("vllm").build().target();
        assertEquals(new TargetConfig("http://127.0.0.1:8000/v1", false, "m", "vllm", null, 900.0, false), t);
        assertFalse(t.unbound());
        assertEquals(List.of(), t.problems(NO_ENV));
    }

    @Test
    void everyProblemOfTheGroupIsListedInOptionOrder() {
        TargetConfig t = b().baseUrl("localhost:8000/v1").model(" ").timeoutS(0).apiKeyEnv("K").build().target();
        assertEquals(List.of("--base-url must start with http:// or https://: 'localhost:8000/v1'",
                "--model is required",
                "--timeout must be a finite number of seconds > 0 and <= 3600, got 0.0",
                "--api-key-env names environment variable K, which is missing or empty"), t.problems(NO_ENV));
    }

    @Test
    void aMissingUrlIsRequiredUnlessTheSimulatedTargetBindsItLater() {
        assertEquals(List.of("--base-url is required"), b().baseUrl(null).build().target().problems(NO_ENV));
        TargetConfig sim = b().baseUrl(null).simulated(true).build().target();
        assertTrue(sim.unbound());
        assertEquals(List.of(), sim.problems(NO_ENV), "the URL is checked once the engine listens");
        TargetConfig bound = sim.withBaseUrl("http://127.0.0.1:41234/v1");
        assertFalse(bound.unbound());
        assertEquals("http://127.0.0.1:41234/v1", bound.baseUrl());
        assertTrue(bound.simulated());
        assertEquals(List.of(), bound.problems(NO_ENV));
        assertThrows(NullPointerException.class, () -> sim.withBaseUrl(null));
    }

    @Test
    void credentialsInTheUrlAndAKeyVariableAreOneProblem() {
        TargetConfig t = b().baseUrl("http://u:pw@h:8000/v1").apiKeyEnv("K").build().target();
        assertEquals(List.of("--base-url carries user:password@ and --api-key-env is set: both would be the"
                + " Authorization header; give one"), t.problems(Map.of("K", "sk-1")::get));
        assertNull(b().build().target().apiKeyEnv());
    }
}
