package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The single-turn bodies of the Responses and Messages APIs (issue 29). */
class ApiRequestBodiesTest {
    private static String body(ApiEndpoint e, ThinkingMode m, String effort, ExtraBody extra) {
        return new String(new RequestBodyBuilder("m", 16, m, effort, e, extra).body("hi"), StandardCharsets.UTF_8);
    }

    @Test
    void responsesSendsInputAndMaxOutputTokensAndNoStreamOptions() {
        assertThat(body(ApiEndpoint.RESPONSES, ThinkingMode.DEFAULT, null, null)).as("responses body")
                .isEqualTo("{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":16,\"temperature\":0.0,"
                        + "\"stream\":true}");
        assertThat(body(ApiEndpoint.RESPONSES, ThinkingMode.DISABLED, null, null)).as("thinking disabled")
                .isEqualTo("{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":16,\"temperature\":0.0,"
                        + "\"stream\":true,\"chat_template_kwargs\":{\"enable_thinking\":false}}");
        assertThat(body(ApiEndpoint.RESPONSES, ThinkingMode.ENABLED, "low", null)).as("reasoning effort")
                .isEqualTo("{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":16,\"temperature\":0.0,"
                        + "\"stream\":true,\"reasoning\":{\"effort\":\"low\"}}");
        assertThat(body(ApiEndpoint.RESPONSES, ThinkingMode.DEFAULT, null, ExtraBody.parse("{\"temperature\":1}")))
                .as("--extra-body's temperature replaces capstream's")
                .isEqualTo("{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":16,\"stream\":true,"
                        + "\"temperature\":1}");
    }

    @Test
    void messagesSendsMessagesAndMaxTokensAndThinkingDisabled() {
        assertThat(body(ApiEndpoint.MESSAGES, ThinkingMode.DEFAULT, null, null)).as("messages body")
                .isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":16,"
                        + "\"temperature\":0.0,\"stream\":true}");
        assertThat(body(ApiEndpoint.MESSAGES, ThinkingMode.DISABLED, null, null)).as("thinking disabled")
                .isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":16,"
                        + "\"temperature\":0.0,\"stream\":true,\"thinking\":{\"type\":\"disabled\"},"
                        + "\"chat_template_kwargs\":{\"enable_thinking\":false}}");
        assertThat(body(ApiEndpoint.MESSAGES, ThinkingMode.ENABLED, null, null)).as("thinking enabled: no budget invented")
                .endsWith("\"stream\":true,\"chat_template_kwargs\":{\"enable_thinking\":true}}");
    }

    @Test
    void datasetMessagesForMessagesMoveTheSystemMessageToTheTopLevel() {
        RequestBodyBuilder b = new RequestBodyBuilder("m", 16, ThinkingMode.DEFAULT, null, ApiEndpoint.MESSAGES, null);
        String body = new String(b.bodyWithMessages("[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"hi\"}]", 9), StandardCharsets.UTF_8);
        assertThat(body).as("messages body from a dataset entry")
                .isEqualTo("{\"model\":\"m\",\"system\":\"Be brief.\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                        + "\"max_tokens\":9,\"temperature\":0.0,\"stream\":true}");
        RequestBodyBuilder r = new RequestBodyBuilder("m", 16, ThinkingMode.DEFAULT, null, ApiEndpoint.RESPONSES, null);
        assertThat(new String(r.bodyWithMessages("[{\"role\":\"user\",\"content\":\"hi\"}]", 9), StandardCharsets.UTF_8))
                .as("responses body from a dataset entry: the messages are input items")
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_output_tokens\":9,"
                        + "\"temperature\":0.0,\"stream\":true}");
    }

    @Test
    void extraBodyMayNotSetWhatTheApiGetsFromCapstream() {
        assertThat(BodyControls.extraBodyProblem(ApiEndpoint.RESPONSES, ExtraBody.parse("{\"input\":\"x\"}")))
                .as("responses input").isEqualTo("--extra-body may not set \"input\" with --endpoint responses: capstream sets it");
        assertThat(BodyControls.extraBodyProblem(ApiEndpoint.MESSAGES, ExtraBody.parse("{\"system\":\"x\"}")))
                .as("messages system").isEqualTo("--extra-body may not set \"system\" with --endpoint messages: capstream sets it");
        assertThat(BodyControls.extraBodyProblem(ApiEndpoint.CHAT, ExtraBody.parse("{\"input\":\"x\"}")))
                .as("chat has no input member").isNull();
    }
}
