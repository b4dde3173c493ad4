package io.capstream.loadgen.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;

/**
 * Writes the JSON text of OpenAI/vLLM {@code chat.completion.chunk} events as SSE {@code data:}
 * lines. Hand-built strings (no JSON library per token): every token text is plain ASCII without
 * characters that need escaping.
 */
final class SseChunks {
    private static final String[] CONTENT_VOCAB = {
        " The", " simulated", " engine", " streams", " one", " token", " per", " delta", " to", " measure",
        " the", " client", ",", " and", " it", " keeps", " going", " until", " max", "_tokens", "."
    };
    private static final String[] REASONING_VOCAB = {
        " Let", " me", " think", " about", " this", " step", " by", " step", "."
    };

    private final String id;
    private final String head;
    private final boolean text;
    private final String reasoningField;

    /** @param id completion id @param created epoch seconds @param model echoed model id */
    SseChunks(String id, long created, String model) {
        this(id, created, model, false, "reasoning_content");
    }

    /**
     * @param id      completion id
     * @param created epoch seconds
     * @param model   echoed model id
     * @param text    text completion chunks ({@code text_completion}, {@code choices[].text}, no role chunk)
     * @param reasoningField the delta field of reasoning tokens ({@code reasoning_content} or {@code reasoning})
     */
    SseChunks(String id, long created, String model, boolean text, String reasoningField) {
        this.id = id;
        this.text = text;
        this.reasoningField = reasoningField;
        this.head = "data: {\"id\":" + Json.encode(id) + ",\"object\":\""
                + (text ? "text_completion" : "chat.completion.chunk") + "\",\"created\":"
                + created + ",\"model\":" + Json.encode(model) + ",\"choices\":";
    }

    /** @return the completion id the chunks carry */
    String id() {
        return id;
    }

    /** @param i 0-based token index @return the content text of that token */
    static String contentToken(int i) {
        return CONTENT_VOCAB[i % CONTENT_VOCAB.length];
    }

    /** @param i 0-based token index @return the reasoning text of that token */
    static String reasoningToken(int i) {
        return REASONING_VOCAB[i % REASONING_VOCAB.length];
    }

    /** Appends the role-only first delta ({@code "content":""}, as OpenAI and vLLM send). */
    void role(Buffer out) {
        if (text) {
            return; // text completions have no role
        }
        out.appendString(head).appendString(
                "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /** Appends one content delta. @param text token text (no escaping needed) */
    void content(Buffer out, String text) {
        if (this.text) {
            out.appendString(head).appendString("[{\"index\":0,\"text\":\"").appendString(text)
                    .appendString("\",\"logprobs\":null,\"finish_reason\":null}]}\n\n");
            return;
        }
        out.appendString(head).appendString("[{\"index\":0,\"delta\":{\"content\":\"").appendString(text)
                .appendString("\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /** @return the delta field of reasoning tokens */
    String reasoningField() {
        return reasoningField;
    }

    /** Appends one reasoning delta (in {@link #reasoningField()}: {@code reasoning_content} as vLLM and llama.cpp send). */
    void reasoning(Buffer out, String text) {
        out.appendString(head).appendString("[{\"index\":0,\"delta\":{\"").appendString(reasoningField)
                .appendString("\":\"").appendString(text)
                .appendString("\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /**
     * Appends the first delta of a tool call: index 0, its id, type and function name, empty arguments (as OpenAI
     * sends it).
     *
     * @param callId the call's id
     * @param name   the function's name
     */
    void toolCallStart(Buffer out, String callId, String name) {
        out.appendString(head).appendString("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":")
                .appendString(Json.encode(callId)).appendString(",\"type\":\"function\",\"function\":{\"name\":")
                .appendString(Json.encode(name)).appendString(",\"arguments\":\"\"}}]},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /** Appends one argument fragment of the tool call (no id, as OpenAI sends the later deltas). */
    void toolCallArguments(Buffer out, String fragment) {
        out.appendString(head).appendString("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":")
                .appendString(Json.encode(fragment)).appendString("}}]},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /** Appends the finish chunk with an empty delta. @param reason stop or length */
    void finish(Buffer out, String reason) {
        if (text) {
            out.appendString(head).appendString("[{\"index\":0,\"text\":\"\",\"logprobs\":null,\"finish_reason\":\"")
                    .appendString(reason).appendString("\"}]}\n\n");
            return;
        }
        out.appendString(head).appendString("[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"")
                .appendString(reason).appendString("\"}]}\n\n");
    }

    /** Appends the usage chunk ({@code "choices":[]}) with the engine's own timings, ms. */
    void usage(Buffer out, String usageJson, String timingsJson) {
        out.appendString(head).appendString("[],\"usage\":").appendString(usageJson)
                .appendString(",\"timings\":").appendString(timingsJson).appendString("}\n\n");
    }

    /** Appends an SSE comment line, {@code : keep-alive} (a gateway's keep-alive). */
    static void comment(Buffer out) {
        out.appendString(": keep-alive\n\n");
    }

    /** Appends a chunk whose delta is only {@code "content":""} (no role), or {@code "text":""} for text completions. */
    void empty(Buffer out) {
        out.appendString(head).appendString(text ? "[{\"index\":0,\"text\":\"\",\"logprobs\":null,\"finish_reason\":null}]}\n\n"
                : "[{\"index\":0,\"delta\":{\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    }

    /** Appends a progress chunk with {@code "choices":[]} and no usage. */
    void progress(Buffer out) {
        out.appendString(head).appendString("[]}\n\n");
    }

    /** Appends a data line holding an error object, as gateways send inside an HTTP 200 stream. @param errorJson the body */
    static void error(Buffer out, String errorJson) {
        out.appendString("data: ").appendString(errorJson).appendString("\n\n");
    }

    /** Appends a malformed data line (truncated JSON), which a client must skip. */
    static void malformed(Buffer out) {
        out.appendString("data: {\"id\":\"malformed\",\"choices\":[{\"delta\":{\"content\n\n");
    }

    /** Appends the terminating {@code data: [DONE]}. */
    static void done(Buffer out) {
        out.appendString("data: [DONE]\n\n");
    }
}
