package io.capstream.loadgen.client;

import static io.capstream.loadgen.client.EventFields.intMember;
import static io.capstream.loadgen.client.EventFields.nonEmpty;
import static io.capstream.loadgen.client.EventFields.nonNegativeInt;
import static io.capstream.loadgen.client.EventFields.scalar;
import static io.capstream.loadgen.client.EventFields.string;
import static io.capstream.loadgen.client.EventFields.stringMember;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.client.EventFields.ErrorFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the streamed events of the OpenAI Responses API ({@code POST /responses} with {@code stream: true}; issue
 * 29) into {@link DecodedChunk}s, by each payload's {@code type} (the {@code event:} lines and
 * {@code sequence_number} are not needed):
 * <ul>
 * <li>{@code response.output_text.delta}: a non-empty {@code delta} is content;</li>
 * <li>{@code response.reasoning_text.delta}, {@code response.reasoning_summary_text.delta}: a non-empty
 * {@code delta} is reasoning;</li>
 * <li>{@code response.output_item.added} with a {@code function_call} item: a tool-call delta with its
 * {@code call_id} and {@code name}; {@code response.function_call_arguments.delta}: an arguments fragment of the
 * call whose item id ({@code item_id}) or {@code output_index} it names, else of the last call started (llama.cpp
 * sends only {@code item_id});</li>
 * <li>{@code response.created} / {@code response.in_progress}: the response id (for {@code previous_response_id});</li>
 * <li>{@code response.completed} and {@code response.incomplete}: usage ({@code usage.input_tokens},
 * {@code output_tokens}, {@code input_tokens_details.cached_tokens} as prompt, completion and cached tokens), the
 * finish reason in chat's words ({@code stop}, {@code tool_calls} when the answer had a function call, {@code length}
 * for {@code incomplete_details.reason: max_output_tokens}, else that reason), and the end of the stream (there is no
 * {@code [DONE]});</li>
 * <li>{@code response.failed}: a failure with {@code response.error}'s message (and its usage, if any);
 * {@code error} events (the message at the top level or in an {@code error} object) and any payload with an
 * {@code error} object (llama.cpp's mid-stream error): a failure with the server's message.</li>
 * </ul>
 * Other events ({@code response.output_text.done}, {@code response.output_item.done}, ...) carry nothing measured.
 * One instance per request; not thread-safe.
 */
final class ResponsesEventDecoder extends TypedEventDecoder {
    // what the current payload said (reset by read)
    private String delta;
    private long outputIndex;
    private String itemId;
    private String itemType;
    private String itemCallId;
    private String itemName;
    private String itemArguments;
    private String responseId;
    private boolean usage;
    private long inputTokens;
    private long outputTokens;
    private long cachedTokens;
    private String incompleteReason;
    private ErrorFields responseError;

    // what earlier events said: the function-call items started, in order
    private final List<String> callItemIds = new ArrayList<>(2);
    private final List<Long> callOutputIndexes = new ArrayList<>(2);

    @Override
    protected void read(JsonParser p) throws IOException {
        delta = null;
        outputIndex = -1;
        itemId = null;
        itemType = null;
        itemCallId = null;
        itemName = null;
        itemArguments = null;
        responseId = null;
        usage = false;
        inputTokens = -1;
        outputTokens = -1;
        cachedTokens = -1;
        incompleteReason = null;
        responseError = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "delta" -> delta = string(p, v);
                case "output_index" -> outputIndex = nonNegativeInt(p, v);
                case "item_id" -> itemId = string(p, v);
                case "item" -> item(p, v);
                case "response" -> response(p, v);
                default -> topLevel(name, p, v);
            }
        }
    }

    private void item(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "type" -> itemType = string(p, x);
                case "id" -> itemId = string(p, x);
                case "call_id" -> itemCallId = string(p, x);
                case "name" -> itemName = string(p, x);
                case "arguments" -> itemArguments = string(p, x);
                default -> p.skipChildren();
            }
        }
    }

    private void response(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "id" -> responseId = string(p, x);
                case "usage" -> usage(p, x);
                case "error" -> {
                    if (x == JsonToken.START_OBJECT) {
                        ErrorFields e = ErrorFields.read(p);
                        responseError = e.any ? e : null;
                    } else {
                        p.skipChildren();
                    }
                }
                case "incomplete_details" -> incompleteReason = stringMember(p, x, "reason", incompleteReason);
                default -> p.skipChildren();
            }
        }
    }

    private void usage(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            usage = true;
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "input_tokens" -> inputTokens = nonNegativeInt(p, x);
                case "output_tokens" -> outputTokens = nonNegativeInt(p, x);
                case "input_tokens_details" -> cachedTokens = intMember(p, x, "cached_tokens", cachedTokens);
                default -> p.skipChildren();
            }
        }
    }

    @Override
    protected void apply(DecodedChunk out) {
        if (type == null) {
            if (error != null) {
                error.applyTo(out); // llama.cpp's mid-stream error: data: {"error": {...}}
            }
            return;
        }
        switch (type) {
            case "response.output_text.delta" -> {
                if (nonEmpty(delta)) {
                    out.contentDelta();
                    out.contentText(delta);
                }
            }
            case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" -> {
                if (nonEmpty(delta)) {
                    out.reasoningDelta();
                }
            }
            case "response.output_item.added" -> {
                if ("function_call".equals(itemType)) {
                    callItemIds.add(itemId);
                    callOutputIndexes.add(outputIndex);
                    out.toolCallDelta(callItemIds.size() - 1, itemCallId != null ? itemCallId : itemId, itemName,
                            nonEmpty(itemArguments) ? itemArguments : null);
                }
            }
            case "response.function_call_arguments.delta" -> {
                if (nonEmpty(delta)) {
                    out.toolCallDelta(callIndex(), null, null, delta);
                }
            }
            case "response.created", "response.in_progress" -> out.responseId(responseId);
            case "response.completed" -> {
                end(out);
                out.finishReason(callItemIds.isEmpty() ? "stop" : "tool_calls");
            }
            case "response.incomplete" -> {
                end(out);
                out.finishReason("max_output_tokens".equals(incompleteReason) ? "length"
                        : incompleteReason != null ? incompleteReason : "incomplete");
            }
            case "response.failed" -> {
                usage(out);
                ErrorFields e = responseError != null ? responseError : error;
                (e != null ? e : ErrorFields.of("response.failed without an error object", null, null)).applyTo(out);
            }
            case "error" -> ErrorFields.ofEvent(error, topMessage, topCode).applyTo(out);
            default -> {
                if (error != null) {
                    error.applyTo(out);
                }
            }
        }
    }

    private void end(DecodedChunk out) {
        usage(out);
        out.responseId(responseId);
        ended = true;
    }

    private void usage(DecodedChunk out) {
        if (usage) {
            out.usage(inputTokens, outputTokens, cachedTokens);
        }
    }

    /** @return the position of the call an arguments delta belongs to: by item id, by output index, else the last */
    private int callIndex() {
        if (itemId != null) {
            int i = callItemIds.indexOf(itemId);
            if (i >= 0) {
                return i;
            }
        }
        if (outputIndex >= 0) {
            int i = callOutputIndexes.indexOf(outputIndex);
            if (i >= 0) {
                return i;
            }
        }
        return callItemIds.isEmpty() ? -1 : callItemIds.size() - 1;
    }
}
