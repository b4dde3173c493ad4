package io.capstream.loadgen.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Anthropic's Messages API stream: {@code event:}/{@code data:} frames. {@code message_start} at arrival (usage:
 * {@code input_tokens} = the uncached prompt tokens, {@code cache_read_input_tokens} = the cached ones, as Anthropic
 * and llama.cpp count them); per content block {@code content_block_start} ... {@code content_block_stop}: a
 * {@code thinking} block ({@code thinking_delta}s, then a {@code signature_delta}), a {@code text} block
 * ({@code text_delta}s) or a {@code tool_use} block ({@code input_json_delta}s); one {@code ping} after the first
 * block's start; then {@code message_delta} ({@code stop_reason} {@code end_turn}, {@code max_tokens} or
 * {@code tool_use}; {@code usage.output_tokens}) and {@code message_stop}. A failure is an {@code error} event.
 */
final class MessagesWire extends SimWire {
    private enum Open { NONE, THINKING, TEXT, TOOL }

    private final String id;
    private final String model;
    private int index = -1;
    private Open open = Open.NONE;
    private boolean pinged;

    /** @param id the message id ({@code msg_...}) @param model echoed model */
    MessagesWire(String id, String model) {
        this.id = id;
        this.model = model;
    }

    @Override
    String answerId() {
        return id;
    }

    @Override
    boolean hasPreamble() {
        return true;
    }

    @Override
    void preamble(Buffer out, SimStream s) {
        JsonObject message = new JsonObject().put("id", id).put("type", "message").put("role", "assistant")
                .put("content", new JsonArray()).put("model", model).put("stop_reason", null)
                .put("stop_sequence", null).put("usage", usage(s, 1));
        event(out, "message_start", ",\"message\":" + message.encode());
    }

    @Override
    void reasoning(Buffer out, SimStream s, String text) {
        if (open != Open.THINKING) {
            start(out, Open.THINKING, "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}");
        }
        delta(out, "{\"type\":\"thinking_delta\",\"thinking\":\"" + text + "\"}");
    }

    @Override
    void content(Buffer out, SimStream s, String text) {
        if (open != Open.TEXT) {
            start(out, Open.TEXT, "{\"type\":\"text\",\"text\":\"\"}");
        }
        delta(out, "{\"type\":\"text_delta\",\"text\":\"" + text + "\"}");
    }

    @Override
    void toolCall(Buffer out, SimStream s, int token) {
        if (token == 0) {
            start(out, Open.TOOL, new JsonObject().put("type", "tool_use").put("id", s.tool.callId())
                    .put("name", s.tool.name()).put("input", new JsonObject()).encode());
            return;
        }
        delta(out, "{\"type\":\"input_json_delta\",\"partial_json\":"
                + Json.encode(s.tool.fragments().get(token - 1)) + "}");
    }

    @Override
    void finish(Buffer out, SimStream s, String timingsJson) {
        close(out);
        event(out, "message_delta", ",\"delta\":{\"stop_reason\":\"" + stopReason(s)
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + s.outputTokens + "}");
        event(out, "message_stop", "");
    }

    @Override
    void failed(Buffer out, SimStream s, String message) {
        event(out, "error", ",\"error\":" + new JsonObject().put("type", "api_error").put("message", message).encode());
    }

    @Override
    void malformed(Buffer out) {
        out.appendString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":"
                + Math.max(0, index) + ",\"delta\":{\"type\":\"text_delta\",\"text\n\n");
    }

    @Override
    JsonObject body(SimStream s, String timingsJson) {
        JsonArray content = new JsonArray();
        if (s.reasoning.length() > 0) {
            content.add(new JsonObject().put("type", "thinking").put("thinking", s.reasoning.toString())
                    .put("signature", "capstream-sim"));
        }
        if (s.tool != null) {
            content.add(new JsonObject().put("type", "tool_use").put("id", s.tool.callId()).put("name", s.tool.name())
                    .put("input", new JsonObject(s.tool.arguments())));
        } else {
            content.add(new JsonObject().put("type", "text").put("text", s.content.toString()));
        }
        return new JsonObject().put("id", id).put("type", "message").put("role", "assistant").put("model", model)
                .put("content", content).put("stop_reason", stopReason(s)).put("stop_sequence", null)
                .put("usage", usage(s, s.outputTokens));
    }

    private static String stopReason(SimStream s) {
        return switch (s.finishReason()) {
            case "tool_calls" -> "tool_use";
            case "length" -> "max_tokens";
            default -> "end_turn";
        };
    }

    private static JsonObject usage(SimStream s, int outputTokens) {
        return new JsonObject().put("input_tokens", s.promptTokens - s.cachedTokens)
                .put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", s.cachedTokens)
                .put("output_tokens", outputTokens);
    }

    private void start(Buffer out, Open kind, String blockJson) {
        close(out);
        open = kind;
        index++;
        event(out, "content_block_start", ",\"index\":" + index + ",\"content_block\":" + blockJson);
        if (!pinged) {
            pinged = true;
            event(out, "ping", "");
        }
    }

    private void delta(Buffer out, String deltaJson) {
        event(out, "content_block_delta", ",\"index\":" + index + ",\"delta\":" + deltaJson);
    }

    private void close(Buffer out) {
        if (open == Open.NONE) {
            return;
        }
        if (open == Open.THINKING) {
            delta(out, "{\"type\":\"signature_delta\",\"signature\":\"capstream-sim\"}");
        }
        event(out, "content_block_stop", ",\"index\":" + index);
        open = Open.NONE;
    }

    private static void event(Buffer out, String type, String rest) {
        out.appendString("event: ").appendString(type).appendString("\ndata: {\"type\":\"").appendString(type)
                .appendString("\"").appendString(rest).appendString("}\n\n");
    }
}
