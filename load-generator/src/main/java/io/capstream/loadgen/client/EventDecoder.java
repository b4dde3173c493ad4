package io.capstream.loadgen.client;

import io.capstream.loadgen.client.SseEventAssembler.Parse;

/**
 * Decodes the JSON payload of one SSE event of an API whose stream is a sequence of typed events (the Responses and
 * Messages APIs, issue 29) into the same {@link DecodedChunk} the chat {@link ChunkDecoder} fills, and says when an
 * event ends the stream (these APIs send no {@code data: [DONE]}). One instance per request (it keeps what earlier
 * events said, e.g. the prompt tokens of {@code message_start}); not thread-safe.
 */
interface EventDecoder {
    /**
     * Decodes one payload.
     *
     * @param b   bytes (only read during the call)
     * @param off offset of the payload
     * @param len length of the payload, bytes
     * @param out receives the payload's values (reset first); meaningful only for {@link Parse#PARSED}
     * @return {@link Parse#PARSED} for a whole JSON value, {@link Parse#INCOMPLETE} when the payload ends inside a
     *         value, else {@link Parse#INVALID}; never throws
     */
    Parse decode(byte[] b, int off, int len, DecodedChunk out);

    /**
     * @return whether the last payload decoded was the stream's terminal event ({@code response.completed},
     *         {@code response.incomplete}, {@code message_stop}): reading stops there, as at {@code [DONE]}
     */
    boolean ended();
}
