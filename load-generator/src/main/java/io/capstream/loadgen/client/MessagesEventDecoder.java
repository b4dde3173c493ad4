package io.capstream.loadgen.client;

import static io.capstream.loadgen.client.EventFields.nonEmpty;
import static io.capstream.loadgen.client.EventFields.nonNegativeInt;
import static io.capstream.loadgen.client.EventFields.scalar;
import static io.capstream.loadgen.client.EventFields.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.client.EventFields.ErrorFields;
import java.io.IOException;
import java.util.Set;

/**
 * Decodes the streamed events of Anthropic's Messages API ({@code POST /messages} with {@code stream: true}; issue
 * 29) into {@link DecodedChunk}s, by each payload's {@code type}:
 * <ul>
 * <li>{@code content_block_delta}: a non-empty {@code text_delta} is content, a non-empty {@code thinking_delta}
 * reasoning, a non-empty {@code input_json_delta} a tool-call arguments fragment of the block's {@code index}
 * ({@code signature_delta} is nothing);</li>
 * <li>{@code content_block_start}: a {@code tool_use} block is a tool-call delta with its {@code id} and
 * {@code name}; a text or thinking block's non-empty initial text counts as a delta of its kind;</li>
 * <li>{@code message_start}: the message {@code id} (the response id of the server's view, issue 33), the prompt tokens ({@code usage.input_tokens} + {@code cache_read_input_tokens} +
 * {@code cache_creation_input_tokens}: Anthropic's {@code input_tokens} leaves out the cached ones) and the cached
 * tokens ({@code cache_read_input_tokens}), kept for the usage of {@code message_delta}, whose
 * {@code usage.output_tokens} are the completion tokens (a prompt count it repeats replaces the kept one);
 * {@code delta.stop_reason} is the finish reason in chat's words ({@code end_turn}/{@code stop_sequence}:
 * {@code stop}, {@code max_tokens}: {@code length}, {@code tool_use}: {@code tool_calls}, else as sent);</li>
 * <li>{@code message_stop}: the end of the stream (there is no {@code [DONE]});</li>
 * <li>{@code ping}: nothing (not output);</li>
 * <li>{@code error} (message in its {@code error} object), any payload with an {@code error} object, and a payload
 * whose {@code type} is no Messages event but which has a {@code message} (llama.cpp's {@code event: error} frame
 * carries {@code {"code":..,"message":..,"type":"server_error"}}): a failure with the server's message.</li>
 * </ul>
 * One instance per request; not thread-safe.
 */
final class MessagesEventDecoder extends TypedEventDecoder {
    private static final Set<String> EVENTS = Set.of("message_start", "content_block_start", "content_block_delta",
            "content_block_stop", "message_delta", "message_stop", "ping", "error");

    // what the current payload said (reset by read)
    private long index;
    private String deltaType;
    private String deltaText;
    private String stopReason;
    private String blockType;
    private String blockId;
    private String blockName;
    private String blockText;
    private boolean usage;
    private long inputTokens;
    private long cacheRead;
    private long cacheCreation;
    private long outputTokens;
    private String messageId;

    // what message_start said
    private long promptTokens = -1;
    private long cachedTokens = -1;

    @Override
    protected void read(JsonParser p) throws IOException {
        index = -1;
        deltaType = null;
        deltaText = null;
        stopReason = null;
        blockType = null;
        blockId = null;
        blockName = null;
        blockText = null;
        usage = false;
        inputTokens = -1;
        cacheRead = -1;
        cacheCreation = -1;
        outputTokens = -1;
        messageId = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "index" -> index = nonNegativeInt(p, v);
                case "delta" -> delta(p, v);
                case "content_block" -> block(p, v);
                case "message" -> {
                    if (v == JsonToken.START_OBJECT) {
                        message(p);
                    } else {
                        topMessage = scalar(p, v);
                    }
                }
                case "usage" -> usage(p, v);
                default -> topLevel(name, p, v);
            }
        }
    }

    private void delta(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "type" -> deltaType = string(p, x);
                case "text", "thinking", "partial_json" -> {
                    String s = string(p, x);
                    if (s != null) {
                        deltaText = s;
                    }
                }
                case "stop_reason" -> stopReason = string(p, x);
                default -> p.skipChildren();
            }
        }
    }

    private void block(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            switch (name) {
                case "type" -> blockType = string(p, x);
                case "id" -> blockId = string(p, x);
                case "name" -> blockName = string(p, x);
                case "text", "thinking" -> blockText = string(p, x);
                default -> p.skipChildren();
            }
        }
    }

    private void message(JsonParser p) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken x = p.nextToken();
            if ("usage".equals(name)) {
                usage(p, x);
            } else if ("id".equals(name)) {
                messageId = string(p, x); // message_start's message.id: once per request
            } else {
                p.skipChildren();
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
                case "cache_read_input_tokens" -> cacheRead = nonNegativeInt(p, x);
                case "cache_creation_input_tokens" -> cacheCreation = nonNegativeInt(p, x);
                case "output_tokens" -> outputTokens = nonNegativeInt(p, x);
                default -> p.skipChildren();
            }
        }
    }

    @Override
    protected void apply(DecodedChunk out) {
        if (type == null || !EVENTS.contains(type)) {
            if (error != null) {
                error.applyTo(out);
            } else if (topMessage != null) {
                ErrorFields.of(topMessage, type, topCode).applyTo(out);
            }
            return;
        }
        switch (type) {
            case "content_block_delta" -> {
                if (!nonEmpty(deltaText) || deltaType == null) {
                    return;
                }
                switch (deltaType) {
                    case "text_delta" -> {
                        out.contentDelta();
                        out.contentText(deltaText);
                    }
                    case "thinking_delta" -> out.reasoningDelta();
                    case "input_json_delta" -> out.toolCallDelta((int) index, null, null, deltaText);
                    default -> {
                    }
                }
            }
            case "content_block_start" -> {
                if ("tool_use".equals(blockType)) {
                    out.toolCallDelta((int) index, blockId, blockName, null);
                } else if ("text".equals(blockType) && nonEmpty(blockText)) {
                    out.contentDelta();
                    out.contentText(blockText);
                } else if ("thinking".equals(blockType) && nonEmpty(blockText)) {
                    out.reasoningDelta();
                }
            }
            case "message_start" -> {
                out.serverId(messageId); // issue 33: the response id of the server's view
                if (usage) {
                    promptTokens = prompt();
                    cachedTokens = cacheRead;
                    out.usage(promptTokens, -1, cachedTokens); // the output tokens come with message_delta
                }
            }
            case "message_delta" -> {
                if (usage) {
                    if (inputTokens >= 0) {
                        promptTokens = prompt();
                        if (cacheRead >= 0) {
                            cachedTokens = cacheRead;
                        }
                    }
                    out.usage(promptTokens, outputTokens, cachedTokens);
                }
                if (stopReason != null) {
                    out.finishReason(switch (stopReason) {
                        case "end_turn", "stop_sequence" -> "stop";
                        case "max_tokens" -> "length";
                        case "tool_use" -> "tool_calls";
                        default -> stopReason;
                    });
                }
            }
            case "message_stop" -> ended = true;
            case "error" -> ErrorFields.ofEvent(error, topMessage, null).applyTo(out); // the code only in the object
            default -> {
                // ping, content_block_stop: nothing measured
            }
        }
    }

    /** @return input_tokens plus the cache reads and writes that Anthropic counts apart */
    private long prompt() {
        if (inputTokens < 0) {
            return -1;
        }
        return inputTokens + Math.max(0, cacheRead) + Math.max(0, cacheCreation);
    }
}
