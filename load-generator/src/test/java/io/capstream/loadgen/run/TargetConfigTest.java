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

    private static TargetConfig target() {
        return TargetConfig.of("http://127.0.0.1:8000/v1", "m");
    }

    private static RunConfig b() {
        return RunConfig.of(target());
    }

    @Test
    void ofFillsTheTargetWithTheReferenceDefaults() {
        TargetConfig t = target().withEngine("vllm");
        assertEquals(new TargetConfig("http://127.0.0.1:8000/v1", false, "m", "vllm", null, 900.0, false), t);
        assertFalse(t.unbound());
        assertEquals(List.of(), t.problems(NO_ENV));
    }

    @Test
    void everyProblemOfTheGroupIsListedInOptionOrder() {
        TargetConfig t = TargetConfig.of("localhost:8000/v1", "m").withModel(" ").withTimeoutS(0).withApiKeyEnv("K");
        assertEquals(List.of("--base-url must start with http:// or https://: 'localhost:8000/v1'",
                "--model is required",
                "--timeout must be a finite number of seconds > 0 and <= 3600, got 0.0",
                "--api-key-env names environment variable K, which is missing or empty"), t.problems(NO_ENV));
    }

    @Test
    void aMissingUrlIsRequiredUnlessTheSimulatedTargetBindsItLater() {
        assertEquals(List.of("--base-url is required"), TargetConfig.of(null, "m").problems(NO_ENV));
        TargetConfig sim = TargetConfig.simulated("m");
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
    void aBaseUrlNamingAnApiPathIsAUsageErrorNamingTheBase() {
        assertEquals(List.of("--base-url http://h:8000/v1/chat/completions ends in /chat/completions: give the base"
                        + " (http://h:8000/v1); capstream appends /chat/completions"),
                TargetConfig.of("http://h:8000/v1/chat/completions", "m").problems(NO_ENV));
        // fresh-user pass 4: the masked base (http://***@h:8000/v1) was offered as the base to give, which sends
        // "***" as the credentials when pasted back; the hint names the change to the user's own --base-url
        assertEquals(List.of("--base-url http://***@h:8000/v1/models/ ends in /models: give the base"
                        + " (your --base-url without /models (http://***@h:8000/v1; its credentials are not printed));"
                        + " capstream appends /chat/completions"),
                TargetConfig.of("http://u:pw@h:8000/v1/models/", "m").problems(NO_ENV),
                "the credentials are masked");
        assertEquals(List.of(), TargetConfig.of("http://h:8000/v1", "m").problems(NO_ENV));
    }

    @Test
    void credentialsInTheUrlAndAKeyVariableAreOneProblem() {
        TargetConfig t = TargetConfig.of("http://u:pw@h:8000/v1", "m").withApiKeyEnv("K");
        assertEquals(List.of("--base-url carries user:password@ and --api-key-env is set: both would be the"
                + " Authorization header; give one"), t.problems(Map.of("K", "sk-1")::get));
        assertNull(target().apiKeyEnv());
    }

    /** -H Authorization is the third way to set the Authorization header: with either other one it is a problem. */
    @Test
    void anAuthorizationHeaderWithAKeyVariableOrUrlCredentialsIsOneProblem() {
        java.util.List<io.capstream.loadgen.workload.ExtraHeader> auth =
                List.of(io.capstream.loadgen.workload.ExtraHeader.parse("authorization: Token x"));
        assertEquals(List.of("-H Authorization and --api-key-env both set the Authorization header; give one"),
                target().withHeaders(auth).withApiKeyEnv("K").problems(Map.of("K", "sk-1")::get));
        assertEquals(List.of("-H Authorization and user:password@ in --base-url both set the Authorization header;"
                + " give one"), TargetConfig.of("http://u:pw@h:8000/v1", "m").withHeaders(auth).problems(NO_ENV));
        TargetConfig ok = target().withHeaders(auth);
        assertEquals(List.of(), ok.problems(NO_ENV));
        assertEquals(auth, ok.withBaseUrl("http://127.0.0.1:1/v1").headers(), "binding the URL keeps the headers");
        assertEquals(io.capstream.loadgen.workload.ApiEndpoint.CHAT, target().endpoint(), "chat by default");
    }

    /** The thinking controls are chat-template features: with --endpoint completions they are usage errors. */
    @Test
    void theCompletionsEndpointRefusesTheThinkingControls() {
        RunConfig c = b()
                .withTarget(t -> t.withEndpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS))
                .withRequest(r -> r.withMaxModelLen(4096));
        assertEquals(List.of(), c.validate(NO_ENV));
        assertEquals(List.of("--thinking-mode/--no-thinking apply to --endpoint chat only (a chat template setting)"),
                c.withRequest(r -> r.withNoThinking(true)).validate(NO_ENV));
        assertEquals(List.of("--reasoning-effort applies to --endpoint chat only"),
                b()
                        .withTarget(t -> t.withEndpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS))
                        .withRequest(r -> r.withMaxModelLen(4096).withReasoningEffort("low")).validate(NO_ENV));
        assertEquals(List.of("--dataset applies to --endpoint chat only (its entries are chat messages)"),
                b()
                        .withTarget(t -> t.withEndpoint(io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS))
                        .withRequest(r -> r.withMaxModelLen(4096).withDataset(java.nio.file.Path.of("d.jsonl"))).validate(NO_ENV).stream()
                        .filter(e -> e.contains("--endpoint")).toList());
    }

    /** A fresh user's passwords with {@code #}, {@code /} or a blank were printed in the error (failed before). */
    @Test
    void aBaseUrlThatDoesNotParseIsShownWithoutItsPassword() {
        for (String pw : List.of("p#wSECRET", "pw SECRET6")) {
            List<String> errors = TargetConfig.of("http://u:" + pw + "@127.0.0.1:1/v1", "m").problems(NO_ENV);
            assertEquals(1, errors.size(), "errors " + errors);
            org.assertj.core.api.Assertions.assertThat(errors.get(0)).as("the error for password %s", pw)
                    .doesNotContain("SECRET").endsWith("'http://***@127.0.0.1:1/v1'");
        }
    }
}
