package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Set;

/**
 * The members every request body of an API ends with, after its input and its token limit (issue 29): sampling,
 * streaming, the thinking controls and the {@code --extra-body} members, in each API's form. A member the
 * {@link ExtraBody} sets replaces capstream's own.
 * <ul>
 * <li>chat and completions (spec §2.2): {@code temperature} 0.0, {@code stream} true,
 * {@code stream_options.include_usage} true, then top-level {@code reasoning_effort} when set, else
 * {@code chat_template_kwargs.enable_thinking} for thinking mode enabled/disabled;</li>
 * <li>Responses: {@code temperature} 0.0, {@code stream} true, then {@code reasoning.effort} when set, else
 * {@code chat_template_kwargs.enable_thinking} for enabled/disabled (an engine's chat-template switch, as for chat:
 * llama.cpp and vLLM pass it through);</li>
 * <li>Messages: {@code temperature} 0.0, {@code stream} true, then for thinking mode disabled Anthropic's
 * {@code thinking: {"type":"disabled"}} and, for enabled/disabled, {@code chat_template_kwargs.enable_thinking}
 * (llama.cpp's {@code /v1/messages} ignores {@code thinking} unless it is enabled with a budget; Anthropic's own
 * {@code enabled} needs a {@code budget_tokens} of at least 1024 below {@code max_tokens}, which capstream does not
 * invent: send it with {@code --extra-body}). {@code --reasoning-effort} is refused for Messages by the run's
 * validation.</li>
 * </ul>
 * Stateless.
 */
public final class BodyControls {
    /** Members a Responses body gets from capstream that {@code --extra-body} may not set. */
    public static final Set<String> RESPONSES_RESERVED = Set.of("input", "max_output_tokens", "previous_response_id");
    /** Members a Messages body gets from capstream that {@code --extra-body} may not set. */
    public static final Set<String> MESSAGES_RESERVED = Set.of("system");

    private BodyControls() {
    }

    /**
     * Writes the members after the input and the token limit, then the extra body's.
     *
     * @param g               a generator inside the body's object
     * @param endpoint        the API; not null
     * @param thinking        the resolved thinking mode; not null
     * @param reasoningEffort the reasoning effort, or null
     * @param extra           the {@code --extra-body} members, or null
     * @throws IOException from the generator
     */
    public static void write(JsonGenerator g, ApiEndpoint endpoint, ThinkingMode thinking, String reasoningEffort,
                             ExtraBody extra) throws IOException {
        if (own(extra, "temperature")) {
            g.writeNumberField("temperature", 0.0);
        }
        g.writeBooleanField("stream", true);
        boolean thinkingSwitch = thinking == ThinkingMode.ENABLED || thinking == ThinkingMode.DISABLED;
        switch (endpoint) {
            case CHAT, COMPLETIONS -> {
                if (own(extra, "stream_options")) {
                    g.writeObjectFieldStart("stream_options");
                    g.writeBooleanField("include_usage", true);
                    g.writeEndObject();
                }
                if (reasoningEffort != null) {
                    if (own(extra, "reasoning_effort")) {
                        g.writeStringField("reasoning_effort", reasoningEffort);
                    }
                } else if (thinkingSwitch) {
                    enableThinking(g, thinking, extra);
                }
            }
            case RESPONSES -> {
                if (reasoningEffort != null) {
                    if (own(extra, "reasoning")) {
                        g.writeObjectFieldStart("reasoning");
                        g.writeStringField("effort", reasoningEffort);
                        g.writeEndObject();
                    }
                } else if (thinkingSwitch) {
                    enableThinking(g, thinking, extra);
                }
            }
            case MESSAGES -> {
                if (thinking == ThinkingMode.DISABLED && own(extra, "thinking")) {
                    g.writeObjectFieldStart("thinking");
                    g.writeStringField("type", "disabled");
                    g.writeEndObject();
                }
                if (thinkingSwitch) {
                    enableThinking(g, thinking, extra);
                }
            }
        }
        if (extra != null) {
            extra.writeMembers(g);
        }
    }

    private static void enableThinking(JsonGenerator g, ThinkingMode thinking, ExtraBody extra) throws IOException {
        if (own(extra, "chat_template_kwargs")) {
            g.writeObjectFieldStart("chat_template_kwargs");
            g.writeBooleanField("enable_thinking", thinking == ThinkingMode.ENABLED);
            g.writeEndObject();
        }
    }

    private static boolean own(ExtraBody extra, String member) {
        return extra == null || !extra.has(member);
    }

    /**
     * @param endpoint the API; not null
     * @return the name of its token limit member: {@code max_output_tokens} for Responses, else {@code max_tokens}
     */
    public static String maxTokensMember(ApiEndpoint endpoint) {
        return endpoint == ApiEndpoint.RESPONSES ? "max_output_tokens" : "max_tokens";
    }

    /**
     * @param endpoint the API; not null
     * @param extra    the {@code --extra-body}; not null
     * @return a one-line usage error when the extra body sets a member this API's bodies get from capstream, or null
     */
    public static String extraBodyProblem(ApiEndpoint endpoint, ExtraBody extra) {
        Set<String> reserved = endpoint == ApiEndpoint.RESPONSES ? RESPONSES_RESERVED
                : endpoint == ApiEndpoint.MESSAGES ? MESSAGES_RESERVED : Set.of();
        for (String name : reserved.stream().sorted().toList()) {
            if (extra.has(name)) {
                return "--extra-body may not set \"" + name + "\" with --endpoint " + endpoint.label()
                        + ": capstream sets it";
            }
        }
        return null;
    }
}
