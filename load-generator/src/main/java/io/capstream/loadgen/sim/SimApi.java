package io.capstream.loadgen.sim;

/** The APIs the simulated engine serves; each has its own request body, stream frames and error shape. */
enum SimApi {
    /** {@code POST /v1/chat/completions}: OpenAI/vLLM chat completion chunks, {@code data: [DONE]}. */
    CHAT,
    /** {@code POST /v1/completions}: text completion chunks ({@code choices[].text}). */
    COMPLETIONS,
    /** {@code POST /v1/responses}: the OpenAI Responses API, {@code event:} frames with {@code sequence_number}. */
    RESPONSES,
    /** {@code POST /v1/messages}: Anthropic's Messages API, {@code event:} frames, Anthropic's error shape. */
    MESSAGES
}
