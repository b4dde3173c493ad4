package io.capstream.loadgen.sim;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * Writes one answer of the simulated engine in its API's form: the frames of a stream (chat completion chunks,
 * Responses events, Messages events) or the JSON body of a non-streamed answer. One instance per request, holding
 * what the stream has opened so far; used on the engine's event loop only. The scheduler calls, in order:
 * {@link #preamble} (at arrival, when {@link #hasPreamble()}), {@link #begin} (at the first token), one of
 * {@link #reasoning}, {@link #content} or {@link #toolCall} per output token, then {@link #finish}.
 */
abstract class SimWire {

    /**
     * @param api     the API
     * @param id      the answer's id (e.g. {@code chatcmpl-sim-1}); its suffix names the ids of items and blocks
     * @param created epoch seconds
     * @param model   the echoed model id
     * @param quirks  the chat and completions stream behaviours put on ({@link SimQuirks}); not null
     * @return a new wire for one answer
     */
    static SimWire of(SimApi api, String id, long created, String model, SimQuirks quirks) {
        return switch (api) {
            case CHAT -> new ChatWire(new SseChunks(id, created, model, false, quirks.reasoningField()), quirks);
            case COMPLETIONS -> new ChatWire(new SseChunks(id.replace("chatcmpl-", "cmpl-"), created, model, true,
                    quirks.reasoningField()), quirks);
            case RESPONSES -> new ResponsesWire(id.replace("chatcmpl-", "resp_"), created, model);
            case MESSAGES -> new MessagesWire(id.replace("chatcmpl-", "msg_"), model);
        };
    }

    /** @return the answer's id as its API names it (e.g. {@code resp_sim-1}, {@code msg_sim-1}) */
    abstract String answerId();

    /** @return true when the stream's headers and first frames go out as soon as the request arrives */
    boolean hasPreamble() {
        return false;
    }

    /** Appends the frames sent at arrival (Responses: created, in_progress; Messages: message_start). */
    void preamble(Buffer out, SimStream s) {
    }

    /** Appends the frames sent with the first token, before it (chat: the role delta). */
    void begin(Buffer out, SimStream s) {
    }

    /** Appends one reasoning token. @param text its text (ASCII, no escaping needed) */
    abstract void reasoning(Buffer out, SimStream s, String text);

    /** Appends one content token. @param text its text (ASCII, no escaping needed) */
    abstract void content(Buffer out, SimStream s, String text);

    /**
     * Appends one token of the tool call {@link SimStream#tool}.
     *
     * @param token 0 = the call's start (id, name), k &gt;= 1 = argument fragment k-1
     */
    abstract void toolCall(Buffer out, SimStream s, int token);

    /**
     * Appends the end of a complete stream: closing frames, usage, the terminator.
     *
     * @param timingsJson the engine's timings object (chat's usage chunk carries it as llama.cpp does)
     */
    abstract void finish(Buffer out, SimStream s, String timingsJson);

    /**
     * Appends an in-stream failure after {@link #preamble} (Responses: {@code response.failed}; Messages: an
     * {@code error} event). Only for APIs with a preamble.
     *
     * @param message the error message
     */
    void failed(Buffer out, SimStream s, String message) {
        throw new UnsupportedOperationException("no in-stream failure in this API");
    }

    /** Appends a malformed frame (truncated JSON), which a client must skip or fail on. */
    abstract void malformed(Buffer out);

    /**
     * @param timingsJson the engine's timings object
     * @return the JSON body of a non-streamed answer, from {@link SimStream#content}, {@link SimStream#reasoning}
     *         and {@link SimStream#tool}
     */
    abstract JsonObject body(SimStream s, String timingsJson);
}
