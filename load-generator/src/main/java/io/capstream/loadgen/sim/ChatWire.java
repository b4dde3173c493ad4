package io.capstream.loadgen.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Chat and text completions in the OpenAI/vLLM shape ({@link SseChunks}), usage with llama.cpp's {@code timings}. */
final class ChatWire extends SimWire {
    private final SseChunks chunks;
    private final SimQuirks quirks;

    ChatWire(SseChunks chunks, SimQuirks quirks) {
        this.chunks = chunks;
        this.quirks = quirks;
    }

    @Override
    boolean hasPreamble() {
        return !quirks.preamble().isEmpty();
    }

    /** The {@code --sim-preamble} frames, in order. */
    @Override
    void preamble(Buffer out, SimStream s) {
        for (SimQuirks.Preamble p : quirks.preamble()) {
            switch (p) {
                case COMMENT -> SseChunks.comment(out);
                case EMPTY -> chunks.empty(out);
                case PROGRESS -> chunks.progress(out);
            }
        }
    }

    @Override
    String answerId() {
        return chunks.id();
    }

    @Override
    void begin(Buffer out, SimStream s) {
        chunks.role(out);
    }

    @Override
    void reasoning(Buffer out, SimStream s, String text) {
        chunks.reasoning(out, text);
    }

    @Override
    void content(Buffer out, SimStream s, String text) {
        chunks.content(out, text);
    }

    @Override
    void toolCall(Buffer out, SimStream s, int token) {
        if (token == 0) {
            chunks.toolCallStart(out, s.tool.callId(), s.tool.name());
        } else {
            chunks.toolCallArguments(out, s.tool.fragments().get(token - 1));
        }
    }

    @Override
    void finish(Buffer out, SimStream s, String timingsJson) {
        chunks.finish(out, s.finishReason());
        if (quirks.usage().sends(s.request.includeUsage())) {
            chunks.usage(out, usageJson(s), timingsJson);
        }
        SseChunks.done(out);
    }

    @Override
    void malformed(Buffer out) {
        SseChunks.malformed(out);
    }

    @Override
    JsonObject body(SimStream s, String timingsJson) {
        JsonObject message = new JsonObject().put("role", "assistant")
                .put("content", s.tool != null && s.content.length() == 0 ? null : s.content.toString());
        if (s.reasoning.length() > 0) {
            message.put(quirks.reasoningField(), s.reasoning.toString());
        }
        if (s.tool != null) {
            message.put("tool_calls", new JsonArray().add(new JsonObject().put("id", s.tool.callId())
                    .put("type", "function").put("function", new JsonObject().put("name", s.tool.name())
                            .put("arguments", s.tool.arguments()))));
        }
        JsonObject choice = new JsonObject().put("index", 0);
        if (s.request.text()) {
            choice.put("text", s.content.toString());
        } else {
            choice.put("message", message);
        }
        return new JsonObject()
                .put("id", s.id)
                .put("object", s.request.text() ? "text_completion" : "chat.completion")
                .put("created", System.currentTimeMillis() / 1000)
                .put("model", s.request.model())
                .put("choices", new JsonArray().add(choice.put("logprobs", null).put("finish_reason", s.finishReason())))
                .put("usage", new JsonObject(usageJson(s)))
                .put("timings", new JsonObject(timingsJson));
    }

    private static String usageJson(SimStream s) {
        return "{\"prompt_tokens\":" + s.promptTokens + ",\"completion_tokens\":" + s.outputTokens
                + ",\"total_tokens\":" + (s.promptTokens + s.outputTokens)
                + ",\"prompt_tokens_details\":{\"cached_tokens\":" + s.cachedTokens + "}}";
    }
}
