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
