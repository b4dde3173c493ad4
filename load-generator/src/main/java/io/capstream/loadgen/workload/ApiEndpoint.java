package io.capstream.loadgen.workload;

import java.util.Locale;

/**
 * Which OpenAI-compatible endpoint the requests go to ({@code --endpoint}): the chat completions API of the
 * reference (spec §2.2), or the legacy text completions API, whose streamed chunks carry {@code choices[].text}
 * instead of {@code choices[].delta.content} and whose body has a {@code prompt} string instead of
 * {@code messages}. Everything else (streaming, {@code stream_options.include_usage}, the timing rules of spec
 * §4) is the same.
 */
public enum ApiEndpoint {
    /** {@code POST <base>/chat/completions} with one user message (the reference, and the default). */
    CHAT("chat", "/chat/completions"),
    /** {@code POST <base>/completions} with the prompt as a string. */
    COMPLETIONS("completions", "/completions"),
    /** {@code POST <base>/responses}: the OpenAI Responses API, {@code event:} frames, no {@code [DONE]} (issue 29). */
    RESPONSES("responses", "/responses"),
    /** {@code POST <base>/messages}: Anthropic's Messages API, {@code event:} frames (issue 29). */
    MESSAGES("messages", "/messages"),
    /** {@code POST <base>/embeddings}: not streamed; {@code --batch} inputs per request (issue 30). */
    EMBEDDINGS("embeddings", "/embeddings"),
    /** {@code POST <base>/rerank}: not streamed; a query and {@code --batch} documents per request (issue 30). */
    RERANK("rerank", "/rerank");

    private final String label;
    private final String path;

    ApiEndpoint(String label, String path) {
        this.label = label;
        this.path = path;
    }

    /** @return the option value and the report's label: {@code chat} or {@code completions} */
    public String label() {
        return label;
    }

    /** @return whether the endpoint streams its answer (every one but embeddings and rerank) */
    public boolean streamed() {
        return this != EMBEDDINGS && this != RERANK;
    }

    /** @return the path appended to the base URL, e.g. {@code /chat/completions} */
    public String path() {
        return path;
    }

    /**
     * @param value {@code chat} or {@code completions} (case-insensitive); null means {@link #CHAT}
     * @return the endpoint
     * @throws IllegalArgumentException for any other value, with a one-line message naming the accepted ones
     */
    public static ApiEndpoint parse(String value) {
        if (value == null) {
            return CHAT;
        }
        for (ApiEndpoint e : values()) {
            if (e.label.equals(value.strip().toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw new IllegalArgumentException("--endpoint must be chat, completions, responses, messages, embeddings or rerank, got '" + value + "'");
    }
}
