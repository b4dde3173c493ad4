package io.capstream.loadgen.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The OpenAI Responses API's stream: {@code event:}/{@code data:} frames whose JSON has {@code type} and an increasing
 * {@code sequence_number} from 0, no {@code [DONE]}. {@code response.created} and {@code response.in_progress} at
 * arrival; per output item {@code response.output_item.added} ... {@code response.output_item.done}: a
 * {@code reasoning} item ({@code response.reasoning_text.delta}s, {@code response.reasoning_text.done}), a
 * {@code message} item ({@code response.content_part.added}, {@code response.output_text.delta}s,
 * {@code response.output_text.done}, {@code response.content_part.done}) or a {@code function_call} item
 * ({@code response.function_call_arguments.delta}s and {@code .done}); then {@code response.completed} with the
 * output and the usage (and, beside the response, the engine's {@code timings} as llama.cpp's server adds them). An answer cut by {@code max_output_tokens} also ends with {@code response.completed} (as
 * llama.cpp's server does; OpenAI would send {@code response.incomplete}).
 */
final class ResponsesWire extends SimWire {
    private enum Open { NONE, REASONING, MESSAGE, CALL }

    private final String id;
    private final long created;
    private final String model;
    private final String suffix;
    private final JsonArray done = new JsonArray();
    private final StringBuilder text = new StringBuilder();
    private int seq;
    private int outputIndex = -1;
    private Open open = Open.NONE;
    private String itemId;
    /** The stream whose tool call is open (for its id and name when the item closes). */
    private SimStream callStream;

    /** @param id the response id ({@code resp_...}) @param created epoch seconds @param model echoed model */
    ResponsesWire(String id, long created, String model) {
        this.id = id;
        this.created = created;
        this.model = model;
        this.suffix = id.substring(id.indexOf('_') + 1);
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
        event(out, "response.created", ",\"response\":" + response(s, "in_progress", new JsonArray(), null).encode());
        event(out, "response.in_progress", ",\"response\":"
                + response(s, "in_progress", new JsonArray(), null).encode());
    }

    @Override
    void reasoning(Buffer out, SimStream s, String t) {
        if (open != Open.REASONING) {
            openItem(out, Open.REASONING, "rs_", new JsonObject().put("type", "reasoning")
                    .put("summary", new JsonArray()).put("content", new JsonArray()));
        }
        text.append(t);
        event(out, "response.reasoning_text.delta", ",\"item_id\":\"" + itemId + "\",\"output_index\":" + outputIndex
                + ",\"content_index\":0,\"delta\":\"" + t + "\"");
    }

    @Override
    void content(Buffer out, SimStream s, String t) {
        if (open != Open.MESSAGE) {
            openItem(out, Open.MESSAGE, "msg_", new JsonObject().put("type", "message").put("status", "in_progress")
                    .put("role", "assistant").put("content", new JsonArray()));
            event(out, "response.content_part.added", ",\"item_id\":\"" + itemId + "\",\"output_index\":"
                    + outputIndex + ",\"content_index\":0,\"part\":" + outputText("").encode());
        }
        text.append(t);
        event(out, "response.output_text.delta", ",\"item_id\":\"" + itemId + "\",\"output_index\":" + outputIndex
                + ",\"content_index\":0,\"delta\":\"" + t + "\",\"logprobs\":[]");
    }

    @Override
    void toolCall(Buffer out, SimStream s, int token) {
        if (token == 0) {
            callStream = s;
            openItem(out, Open.CALL, "fc_", new JsonObject().put("type", "function_call").put("status", "in_progress")
                    .put("call_id", s.tool.callId()).put("name", s.tool.name()).put("arguments", ""));
            return;
        }
        String fragment = s.tool.fragments().get(token - 1);
        text.append(fragment);
        event(out, "response.function_call_arguments.delta", ",\"item_id\":\"" + itemId + "\",\"output_index\":"
                + outputIndex + ",\"delta\":" + Json.encode(fragment));
    }

    @Override
    void finish(Buffer out, SimStream s, String timingsJson) {
        close(out);
        // llama.cpp's server adds its timings to the last event's data
        event(out, "response.completed", ",\"response\":" + response(s, "completed", done.copy(), usage(s)).encode()
                + ",\"timings\":" + timingsJson);
    }

    @Override
    void failed(Buffer out, SimStream s, String message) {
        close(out);
        JsonObject r = response(s, "failed", done.copy(), null)
                .put("error", new JsonObject().put("code", "server_error").put("message", message));
        event(out, "response.failed", ",\"response\":" + r.encode());
    }

    @Override
    void malformed(Buffer out) {
        out.appendString("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                + "\"sequence_number\":" + seq + ",\"delta\n\n");
    }

    @Override
    JsonObject body(SimStream s, String timingsJson) {
        JsonArray output = new JsonArray();
        int index = 0;
        if (s.reasoning.length() > 0) {
            output.add(reasoningItem("rs_" + suffix + "_" + index++, s.reasoning.toString()));
        }
        if (s.tool != null) {
            output.add(callItem("fc_" + suffix + "_" + index, s, s.tool.arguments()));
        } else {
            output.add(messageItem("msg_" + suffix + "_" + index, s.content.toString()));
        }
        return response(s, "completed", output, usage(s));
    }

    private void openItem(Buffer out, Open kind, String prefix, JsonObject item) {
        close(out);
        open = kind;
        outputIndex++;
        itemId = prefix + suffix + "_" + outputIndex;
        text.setLength(0);
        JsonObject head = new JsonObject().put("id", itemId);
        head.mergeIn(item);
        event(out, "response.output_item.added", ",\"output_index\":" + outputIndex + ",\"item\":" + head.encode());
    }

    private void close(Buffer out) {
        String where = ",\"item_id\":\"" + itemId + "\",\"output_index\":" + outputIndex;
        JsonObject item;
        switch (open) {
            case NONE -> {
                return;
            }
            case REASONING -> {
                event(out, "response.reasoning_text.done", where + ",\"content_index\":0,\"text\":"
                        + Json.encode(text.toString()));
                item = reasoningItem(itemId, text.toString());
            }
            case MESSAGE -> {
                event(out, "response.output_text.done", where + ",\"content_index\":0,\"text\":"
                        + Json.encode(text.toString()) + ",\"logprobs\":[]");
                event(out, "response.content_part.done", where + ",\"content_index\":0,\"part\":"
                        + outputText(text.toString()).encode());
                item = messageItem(itemId, text.toString());
            }
            default -> {
                event(out, "response.function_call_arguments.done", where + ",\"arguments\":"
                        + Json.encode(text.toString()));
                item = callItem(itemId, callStream, text.toString());
            }
        }
        event(out, "response.output_item.done", ",\"output_index\":" + outputIndex + ",\"item\":" + item.encode());
        done.add(item);
        open = Open.NONE;
    }

    private void event(Buffer out, String type, String rest) {
        out.appendString("event: ").appendString(type).appendString("\ndata: {\"type\":\"").appendString(type)
                .appendString("\",\"sequence_number\":").appendString(Integer.toString(seq++)).appendString(rest)
                .appendString("}\n\n");
    }

    private JsonObject response(SimStream s, String status, JsonArray output, JsonObject usage) {
        return new JsonObject().put("id", id).put("object", "response").put("created_at", created)
                .put("status", status).put("model", model).put("output", output)
                .put("previous_response_id", s == null ? null : s.request.previousResponseId())
                .put("error", null).put("incomplete_details", null).put("usage", usage);
    }

    private static JsonObject usage(SimStream s) {
        return new JsonObject().put("input_tokens", s.promptTokens)
                .put("input_tokens_details", new JsonObject().put("cached_tokens", s.cachedTokens))
                .put("output_tokens", s.outputTokens)
                .put("output_tokens_details", new JsonObject().put("reasoning_tokens", s.reasoningTokens))
                .put("total_tokens", s.promptTokens + s.outputTokens);
    }

    private static JsonObject outputText(String t) {
        return new JsonObject().put("type", "output_text").put("text", t).put("annotations", new JsonArray());
    }

    private static JsonObject reasoningItem(String itemId, String t) {
        return new JsonObject().put("id", itemId).put("type", "reasoning").put("summary", new JsonArray())
                .put("content", new JsonArray().add(new JsonObject().put("type", "reasoning_text").put("text", t)));
    }

    private static JsonObject messageItem(String itemId, String t) {
        return new JsonObject().put("id", itemId).put("type", "message").put("status", "completed")
                .put("role", "assistant").put("content", new JsonArray().add(outputText(t)));
    }

    private static JsonObject callItem(String itemId, SimStream s, String arguments) {
        return new JsonObject().put("id", itemId).put("type", "function_call").put("status", "completed")
                .put("call_id", s.tool.callId()).put("name", s.tool.name()).put("arguments", arguments);
    }
}
