package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ThinkingMode;
import org.junit.jupiter.api.Test;

/** The run-level rules of {@code --endpoint responses|messages} (issue 29). */
class ApiEndpointValidationTest {
    private static RunConfig run(ApiEndpoint e) {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m")).withTarget(t -> t.withEndpoint(e));
    }

    @Test
    void messagesRefusesReasoningEffortButTakesTheThinkingMode() {
        assertThat(RunValidator.problems(run(ApiEndpoint.MESSAGES).withRequest(r -> r.withReasoningEffort("low")),
                k -> null)).as("messages with --reasoning-effort")
                .containsExactly("--reasoning-effort applies to --endpoint chat or responses (the Messages API has no"
                        + " effort setting; use --thinking-mode, or --extra-body for Anthropic's thinking budget)");
        assertThat(RunValidator.problems(run(ApiEndpoint.MESSAGES).withRequest(r -> r.withThinkingMode(
                ThinkingMode.DISABLED)), k -> null)).as("messages with --thinking-mode disabled").isEmpty();
        assertThat(RunValidator.problems(run(ApiEndpoint.RESPONSES).withRequest(r -> r.withReasoningEffort("low")),
                k -> null)).as("responses with --reasoning-effort").isEmpty();
    }

    @Test
    void extraBodyMayNotSetTheApisOwnMembers() {
        assertThat(RunValidator.problems(run(ApiEndpoint.RESPONSES).withRequest(r -> r.withExtraBody(
                ExtraBody.parse("{\"max_output_tokens\":5}"))), k -> null)).as("responses")
                .containsExactly("--extra-body may not set \"max_output_tokens\" with --endpoint responses: capstream sets it");
    }
}
