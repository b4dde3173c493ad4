package io.capstream.loadgen.client;

import io.capstream.loadgen.client.SseEventAssembler.Parse;
import io.capstream.loadgen.workload.ApiEndpoint;

/**
 * Reads the lines of one streamed chat completion (spec §4), or of a Responses or Messages API stream
 * (issue 29), into the request's raw measurements and its stream-level failure. A thin composition of one unit per concern:
 * <ul>
 * <li>framing, {@link SseEventAssembler}: lines to {@code data:} payloads, multi-line events,
 * {@code [DONE]};</li>
 * <li>decoding, {@link ChunkDecoder}: a payload to a {@link DecodedChunk} (deltas, usage,
 * {@code finish_reason}, malformed structure, {@code error} member); unparseable payloads are
 * skipped. For the Responses and Messages APIs an {@link EventDecoder} per request
 * ({@link ResponsesEventDecoder}, {@link MessagesEventDecoder}) fills the same chunk and its terminal event
 * ({@code response.completed}, {@code message_stop}) ends reading as {@code [DONE]} does;</li>
 * <li>measurement, {@link StreamMeasurements}: TTFO, TTFT, counts, usage, finish reason, data
 * lines and the largest gap between them, at the arrival time of the bytes;</li>
 * <li>error wording, {@link ChunkErrors}: a malformed chunk is a {@code TypeError}, a truthy
 * {@code error} member a {@code ValueError} naming the server's message, and a stream without
 * visible content a {@code ValueError} (spec §6).</li>
 * </ul>
 * A chunk's usage is kept even when the chunk is malformed; its deltas and finish reason are
 * counted before its {@code error} member fails the request (the order of the reference's reads).
 *
 * <p>Times are {@code now − t0} in ns, where {@code now} is set by {@link #at(long)} when the
 * bytes arrive. No allocation per line or chunk (one {@link DecodedChunk} is reused) unless the
 * reply is kept ({@link ReplyCapture}) or the answer has tool calls. Not
 * thread-safe: one instance per request, used on its event loop.
 */
public final class ChunkAccumulator implements SseLineSplitter.LineHandler {
    private final StreamMeasurements measurements;
    private final DecodedChunk chunk;
    private final ReplyCapture reply;
    private final ServerReplyCapture server = new ServerReplyCapture();
    private final boolean toolsSent;
    private final SseEventAssembler events = new SseEventAssembler(new Payloads());
    private RequestError failure;
    private final boolean textChoices;
    private final EventDecoder decoder; // null for chat and completions: the static ChunkDecoder (no allocation)
    private boolean ended;

    /** @param t0Ns the request's t0, {@code System.nanoTime()} just before connecting */
    public ChunkAccumulator(long t0Ns) {
        this(t0Ns, false);
    }

    /**
     * @param t0Ns        the request's t0, {@code System.nanoTime()} just before connecting
     * @param textChoices the stream is from the completions endpoint: {@code choices[].text} is the content
     */
    public ChunkAccumulator(long t0Ns, boolean textChoices) {
        this(t0Ns, textChoices, false, false);
    }

    /**
     * @param t0Ns        the request's t0, {@code System.nanoTime()} just before connecting
     * @param textChoices the stream is from the completions endpoint: {@code choices[].text} is the content
     * @param toolsSent   the run sends tools: tool-call deltas are output ({@link ClientConfig#toolsSent()})
     * @param keepReply   keep the answer's text for {@link #reply()} ({@link ClientConfig#keepReply()})
     */
    public ChunkAccumulator(long t0Ns, boolean textChoices, boolean toolsSent, boolean keepReply) {
        this(t0Ns, textChoices ? ApiEndpoint.COMPLETIONS : ApiEndpoint.CHAT, toolsSent, keepReply);
    }

    /**
     * @param t0Ns      the request's t0, {@code System.nanoTime()} just before connecting
     * @param endpoint  the API whose stream this is: chat and completions chunks are read by {@link ChunkDecoder},
     *                  Responses events by {@link ResponsesEventDecoder}, Messages events by
     *                  {@link MessagesEventDecoder} (their terminal event ends the stream as {@code [DONE]} does)
     * @param toolsSent the run sends tools: tool-call deltas are output ({@link ClientConfig#toolsSent()})
     * @param keepReply keep the answer's text for {@link #reply()} ({@link ClientConfig#keepReply()})
     */
    public ChunkAccumulator(long t0Ns, ApiEndpoint endpoint, boolean toolsSent, boolean keepReply) {
        this.measurements = new StreamMeasurements(t0Ns, toolsSent, keepReply);
        this.chunk = new DecodedChunk(keepReply);
        this.reply = new ReplyCapture(keepReply);
        this.toolsSent = toolsSent;
        this.textChoices = endpoint == ApiEndpoint.COMPLETIONS;
        this.decoder = switch (endpoint) {
            case RESPONSES -> new ResponsesEventDecoder();
            case MESSAGES -> new MessagesEventDecoder();
            default -> null;
        };
        events.at(t0Ns);
    }

    /**
     * Sets the arrival time of the bytes about to be fed.
     *
     * @param nowNs {@code System.nanoTime()} when the chunk arrived
     */
    public void at(long nowNs) {
        events.at(nowNs);
    }

    /** Hands the line to the {@link SseEventAssembler}; {@inheritDoc} */
    @Override
    public boolean onLine(byte[] b, int off, int len) {
        return events.onLine(b, off, len);
    }

    /** Ends a multi-line event left open by the end of the body; {@inheritDoc} */
    @Override
    public boolean onEnd() {
        return events.onEnd();
    }

    /** The accumulator's side of its {@link SseEventAssembler}: decode, then measure or fail. */
    private final class Payloads implements SseEventAssembler.PayloadHandler {
        @Override
        public void dataLine(long atNs) {
            measurements.dataLine(atNs);
        }

        @Override
        public Parse parse(byte[] b, int off, int len) {
            return decoder == null ? ChunkDecoder.decode(b, off, len, chunk, textChoices)
                    : decoder.decode(b, off, len, chunk);
        }

        @Override
        public boolean apply(long atNs) {
            server.take(chunk);
            measurements.usage(chunk);
            if (chunk.malformed() != null) {
                failure = ChunkErrors.typeError(chunk.malformed(), chunk.malformedToken());
                return false;
            }
            measurements.output(chunk, atNs);
            reply.add(chunk);
            if (chunk.errorToken() != null) {
                failure = ChunkErrors.inStreamError(chunk);
                return false;
            }
            if (decoder != null && decoder.ended()) {
                ended = true; // response.completed / message_stop: the end of the answer, as [DONE]
                return false;
            }
            return true;
        }
    }

    /** @return whether {@code data: [DONE]} or the API's terminal event ({@link EventDecoder#ended()}) was seen */
    public boolean done() {
        return events.done() || ended;
    }

    /**
     * Reads the response head's headers of the server's view (issue 33: {@code X-Request-Id}, {@code Server-Timing}).
     *
     * @param resp the response; not null
     */
    public void head(io.vertx.core.http.HttpClientResponse resp) {
        server.head(resp);
    }

    /**
     * As {@link #head(io.vertx.core.http.HttpClientResponse)}, from the header values.
     *
     * @param requestId    the response's {@code X-Request-Id}, or null
     * @param serverTiming the response's {@code Server-Timing} values; not null
     */
    public void head(String requestId, java.util.List<String> serverTiming) {
        server.head(requestId, serverTiming);
    }

    /** @return the server's view so far: response id, llama.cpp timings, headers ({@link ServerReply#NONE} if none) */
    public ServerReply serverReply() {
        return server.reply();
    }

    /** @return a stream-level failure (TypeError, in-stream error object), or null */
    public RequestError failure() {
        return failure;
    }

    /**
     * The validity rule at the end of a request that did not fail otherwise (spec §4.3): no non-empty
     * content delta is a {@code ValueError} "stream completed without visible content", even when
     * reasoning arrived. In a run that sends tools a tool call is an answer too; in one that does not, an
     * answer with tool calls and no content fails with a message saying the model answered with a tool call.
     *
     * @return that failure, or null when content (or, when tools are sent, a tool call) arrived
     */
    public RequestError visibleContentFailure() {
        if (measurements.ttftNs() >= 0) {
            return null;
        }
        return !toolsSent && reply.toolCalls() > 0
                ? ChunkErrors.toolCallWithoutTools(reply.toolCalls()) : ChunkErrors.noVisibleContent();
    }

    /** @return non-empty tool-call deltas counted (output only when the run sends tools) */
    public int toolCallChunks() {
        return measurements.toolCallChunks();
    }

    /**
     * @return what the answer said so far: its text when the reply is kept, its tool calls, its response id;
     *         {@link Reply#NONE} when the reply is not kept and the answer had no tool call
     */
    public Reply reply() {
        return reply.reply();
    }

    /** @return time to first output (reasoning or content), ns after t0, or -1 when none */
    public long ttfoNs() {
        return measurements.ttfoNs();
    }

    /** @return time to first non-empty content delta, ns after t0, or -1 when none */
    public long ttftNs() {
        return measurements.ttftNs();
    }

    /** @return non-empty content deltas counted */
    public int contentChunks() {
        return measurements.contentChunks();
    }

    /** @return non-empty reasoning deltas counted */
    public int reasoningChunks() {
        return measurements.reasoningChunks();
    }

    /** @return whether a truthy usage object was seen */
    public boolean usageSeen() {
        return measurements.usageSeen();
    }

    /** @return usage.prompt_tokens when an integer ≥ 0, else -1 */
    public long promptTokens() {
        return measurements.promptTokens();
    }

    /** @return usage.completion_tokens when an integer ≥ 0, else -1 */
    public long completionTokens() {
        return measurements.completionTokens();
    }

    /**
     * @return usage.prompt_tokens_details.cached_tokens when an integer ≥ 0; when the reply is kept and usage has
     *         none, llama.cpp's {@code timings.cache_n}; else -1
     */
    public long cachedTokens() {
        return measurements.cachedTokens();
    }

    /** @return the last finish_reason, or null */
    public String finishReason() {
        return measurements.finishReason();
    }

    /** @return the largest gap between consecutive {@code data:} lines, ns; -1 before the first */
    public long maxGapNs() {
        return measurements.maxGapNs();
    }

    /** @return the gaps between consecutive output chunks so far, µs (a snapshot; at most 4096 kept) */
    public OutputChunkGaps outputChunkGaps() {
        return measurements.outputChunkGaps();
    }

    /** @return {@code data:} lines seen */
    public int dataLines() {
        return measurements.dataLines();
    }
}
