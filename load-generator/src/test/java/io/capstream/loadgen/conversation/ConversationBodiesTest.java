package io.capstream.loadgen.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.client.Reply;
import io.capstream.loadgen.client.ToolCall;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ThinkingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each API's body for a conversation's history (issue 29): exact JSON for a turn after a tool call. */
class ConversationBodiesTest {
    private static final List<ToolDefinition> TOOLS = List.of(new ToolDefinition("get_weather", "Weather of a city",
            "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
    /** A user message, the model's tool call, the tool's result. */
    private static final List<HistoryItem> HISTORY = List.of(
            new HistoryItem.Input(List.of(InputMessage.user("Weather in Paris?"))),
            new HistoryItem.Answer(new Reply("", List.of(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}")),
                    "resp_1")),
            new HistoryItem.ToolResult("call_1", "get_weather", "sunny"));

    private static String body(ApiEndpoint e, List<HistoryItem> history, String previous, ThinkingMode m,
                               List<ToolDefinition> tools, String choice) {
        return new String(ConversationBodies.forEndpoint(e, "m", m, null, null, tools, choice)
                .body(history, 32, previous), StandardCharsets.UTF_8);
    }

    @Test
    void chat() {
        assertThat(body(ApiEndpoint.CHAT, HISTORY, null, ThinkingMode.DISABLED, TOOLS, "auto")).as("chat body")
                .isEqualTo("{\"model\":\"m\",\"messages\":["
                        + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                        + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},"
                        + "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"sunny\"}],"
                        + "\"max_tokens\":32,"
                        + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"description\":"
                        + "\"Weather of a city\",\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":"
                        + "{\"type\":\"string\"}}}}}],\"tool_choice\":\"auto\","
                        + "\"temperature\":0.0,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"chat_template_kwargs\":{\"enable_thinking\":false}}");
    }

    @Test
    void responses() {
        assertThat(body(ApiEndpoint.RESPONSES, HISTORY, null, ThinkingMode.DEFAULT, TOOLS, "required"))
                .as("responses body")
                .isEqualTo("{\"model\":\"m\",\"input\":["
                        + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                        + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"get_weather\","
                        + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"},"
                        + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"sunny\"}],"
                        + "\"max_output_tokens\":32,"
                        + "\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\",\"description\":\"Weather of a city\","
                        + "\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}],"
                        + "\"tool_choice\":\"required\",\"temperature\":0.0,\"stream\":true}");
    }

    /**
     * An answer's text goes back as an output message with {@code "type":"message"} and {@code output_text} parts:
     * llama.cpp's {@code /v1/responses} rejects {@code {"role":"assistant","content":"..."}} with 400 "Cannot
     * determine type of 'item'" (captured stream {@code llama/responses-error-assistant-without-type}).
     */
    @Test
    void responsesWritesAnAnswersTextAsATypedOutputMessage() {
        List<HistoryItem> history = List.of(
                new HistoryItem.Input(List.of(InputMessage.user("Say hello."))),
                new HistoryItem.Answer(new Reply("Hello there.", List.of(), "resp_1")),
                new HistoryItem.Input(List.of(InputMessage.user("Again."))));
        assertThat(body(ApiEndpoint.RESPONSES, history, null, ThinkingMode.DEFAULT, List.of(), null))
                .as("responses body after a text answer")
                .isEqualTo("{\"model\":\"m\",\"input\":["
                        + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Say hello.\"},"
                        + "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
                        + "\"text\":\"Hello there.\"}]},"
                        + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Again.\"}],"
                        + "\"max_output_tokens\":32,\"temperature\":0.0,\"stream\":true}");
    }

    @Test
    void responsesWithServerStateSendsPreviousResponseIdAndOnlyTheNewItems() {
        assertThat(body(ApiEndpoint.RESPONSES, List.of(HISTORY.get(2)), "resp_1", ThinkingMode.DEFAULT, List.of(), null))
                .as("responses body with previous_response_id")
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"type\":\"function_call_output\",\"call_id\":\"call_1\","
                        + "\"output\":\"sunny\"}],\"max_output_tokens\":32,\"previous_response_id\":\"resp_1\","
                        + "\"temperature\":0.0,\"stream\":true}");
    }

    @Test
    void messages() {
        List<HistoryItem> history = List.of(
                new HistoryItem.Input(List.of(new InputMessage("system", "Be brief."),
                        InputMessage.user("Weather in Paris?"))),
                new HistoryItem.Answer(new Reply("Let me look.", List.of(new ToolCall("toolu_1", "get_weather",
                        "{\"city\": \"Paris\"}")), null)),
                new HistoryItem.ToolResult("toolu_1", "get_weather", "sunny"));
        assertThat(body(ApiEndpoint.MESSAGES, history, null, ThinkingMode.DEFAULT, TOOLS, "required"))
                .as("messages body")
                .isEqualTo("{\"model\":\"m\",\"system\":\"Be brief.\",\"messages\":["
                        + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                        + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Let me look.\"},"
                        + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{\"city\":\"Paris\"}}]},"
                        + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\","
                        + "\"content\":\"sunny\"}]}],"
                        + "\"max_tokens\":32,"
                        + "\"tools\":[{\"name\":\"get_weather\",\"description\":\"Weather of a city\",\"input_schema\":"
                        + "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}],"
                        + "\"tool_choice\":{\"type\":\"any\"},\"temperature\":0.0,\"stream\":true}");
    }

    @Test
    void messagesMergesConsecutiveUserTurnsAndTextAnswersAreStrings() {
        List<HistoryItem> history = List.of(
                new HistoryItem.Input(List.of(InputMessage.user("a"))),
                new HistoryItem.Answer(new Reply("b", List.of(), null)),
                new HistoryItem.ToolResult("t1", "f", "r"),
                new HistoryItem.Input(List.of(InputMessage.user("c"))));
        assertThat(body(ApiEndpoint.MESSAGES, history, null, ThinkingMode.DEFAULT, List.of(), "none"))
                .as("no tools: no tool_choice either")
                .isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\"},"
                        + "{\"role\":\"assistant\",\"content\":\"b\"},"
                        + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"r\"},"
                        + "{\"type\":\"text\",\"text\":\"c\"}]}],\"max_tokens\":32,\"temperature\":0.0,\"stream\":true}");
    }

    @Test
    void messagesToolChoiceNoneAndAutoAndBadArguments() {
        List<HistoryItem> history = List.of(new HistoryItem.Input(List.of(InputMessage.user("a"))),
                new HistoryItem.Answer(new Reply("", List.of(new ToolCall("t", "get_weather", "{\"city\":")), null)));
        String none = body(ApiEndpoint.MESSAGES, history, null, ThinkingMode.DEFAULT, TOOLS, "none");
        assertThat(none).as("cut arguments are an empty input object").contains("\"input\":{}}]}");
        assertThat(none).as("none").contains("\"tool_choice\":{\"type\":\"none\"}");
        assertThat(body(ApiEndpoint.MESSAGES, history, null, ThinkingMode.DEFAULT, TOOLS, "auto")).as("auto")
                .contains("\"tool_choice\":{\"type\":\"auto\"}");
    }

    @Test
    void extraBodyAndReasoningEffortFollowTheApisForm() {
        String b = new String(ConversationBodies.forEndpoint(ApiEndpoint.RESPONSES, "m", ThinkingMode.DEFAULT, "low",
                ExtraBody.parse("{\"top_p\":0.5}"), List.of(), null).body(List.of(HISTORY.get(0)), 8, null),
                StandardCharsets.UTF_8);
        assertThat(b).as("responses with effort and extra body")
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":"
                        + "\"Weather in Paris?\"}],"
                        + "\"max_output_tokens\":8,\"temperature\":0.0,\"stream\":true,\"reasoning\":{\"effort\":\"low\"},"
                        + "\"top_p\":0.5}");
    }

    @Test
    void completionsAndUnknownToolChoicesAreRefused() {
        assertThatThrownBy(() -> ConversationBodies.forEndpoint(ApiEndpoint.COMPLETIONS, "m", ThinkingMode.DEFAULT,
                null, null, List.of(), null)).as("completions").hasMessageContaining("--endpoint chat, responses or messages");
        assertThatThrownBy(() -> ConversationBodies.forEndpoint(ApiEndpoint.CHAT, "m", ThinkingMode.DEFAULT,
                null, null, TOOLS, "any")).as("any").hasMessage("--tool-choice must be auto, required or none, got 'any'");
    }
}
