package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestBodyBuilderTest {
    private static String body(ThinkingMode m, String effort) {
        return new String(new RequestBodyBuilder("m\"1", 64, m, effort).body("hi\nthere"), StandardCharsets.UTF_8);
    }

    @Test
    void defaultModeSendsNoControlInReferenceOrder() {
        assertEquals("{\"model\":\"m\\\"1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\\nthere\"}],"
                + "\"max_tokens\":64,\"temperature\":0.0,\"stream\":true,\"stream_options\":{\"include_usage\":true}}",
                body(ThinkingMode.DEFAULT, null));
        assertEquals(body(ThinkingMode.DEFAULT, null), body(ThinkingMode.UNSUPPORTED, null));
    }

    @Test
    void thinkingControls() {
        String base = "\"stream_options\":{\"include_usage\":true}";
        assertEquals(true, body(ThinkingMode.ENABLED, null).endsWith(base + ",\"chat_template_kwargs\":{\"enable_thinking\":true}}"));
        assertEquals(true, body(ThinkingMode.DISABLED, null).endsWith(base + ",\"chat_template_kwargs\":{\"enable_thinking\":false}}"));
    }

    @Test
    void reasoningEffortIsTopLevelAndSuppressesThinkingControl() {
        assertEquals(true, body(ThinkingMode.DEFAULT, "low").endsWith("{\"include_usage\":true},\"reasoning_effort\":\"low\"}"));
        assertEquals(true, body(ThinkingMode.ENABLED, "high").endsWith("\"reasoning_effort\":\"high\"}"));
    }

    @Test
    void theCompletionsEndpointSendsThePromptAsAString() {
        String b = new String(new RequestBodyBuilder("m", 8, ThinkingMode.DEFAULT, null, ApiEndpoint.COMPLETIONS, null)
                .body("hi"), StandardCharsets.UTF_8);
        assertEquals("{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":8,\"temperature\":0.0,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}", b);
    }

    @Test
    void anExtraBodyIsAppendedAndReplacesCapstreamsOwnMembers() {
        ExtraBody extra = ExtraBody.parse("{\"temperature\":0.7,\"top_p\":0.9,\"ignore_eos\":true,"
                + "\"chat_template_kwargs\":{\"enable_thinking\":true,\"x\":[1,null]}}");
        String b = new String(new RequestBodyBuilder("m", 8, ThinkingMode.DISABLED, null, ApiEndpoint.CHAT, extra)
                .body("hi"), StandardCharsets.UTF_8);
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":8,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"temperature\":0.7,\"top_p\":0.9,"
                + "\"ignore_eos\":true,\"chat_template_kwargs\":{\"enable_thinking\":true,\"x\":[1,null]}}", b,
                "each member once: temperature and chat_template_kwargs from the extra body");
        assertEquals(body(ThinkingMode.DEFAULT, null), new String(new RequestBodyBuilder("m\"1", 64, ThinkingMode.DEFAULT,
                null, ApiEndpoint.CHAT, null).body("hi\nthere"), StandardCharsets.UTF_8), "without options: the reference's");
    }

    @Test
    void perRequestMaxTokensAndDatasetMessagesKeepTheReferenceOrder() {
        RequestBodyBuilder b = new RequestBodyBuilder("m", 64, ThinkingMode.DISABLED, null);
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":7,"
                + "\"temperature\":0.0,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"chat_template_kwargs\":{\"enable_thinking\":false}}",
                new String(b.body("x", 7), StandardCharsets.UTF_8));
        assertEquals(new String(b.body("x", 64), StandardCharsets.UTF_8), new String(b.body("x"), StandardCharsets.UTF_8));
        String messages = "[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"t\"}]}]";
        assertEquals("{\"model\":\"m\",\"messages\":" + messages + ",\"max_tokens\":9,"
                + "\"temperature\":0.0,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"chat_template_kwargs\":{\"enable_thinking\":false}}",
                new String(b.bodyWithMessages(messages, 9), StandardCharsets.UTF_8));
    }
}
