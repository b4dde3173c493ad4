package io.capstream.loadgen.sim;

/**
 * Configuration of the simulated OpenAI-compatible engine ({@link SimEngine}).
 *
 * <p>Timing model, per request: the request waits for one of {@code batchSlots} slots (FIFO), then
 * its uncached prompt tokens are prefilled at {@code prefillTokPerS} on one shared prefill lane
 * (so concurrent prefills queue behind each other), then {@code ttftBaseMs} passes and the first
 * token is written. Decode then proceeds at {@code min(streamDecodeTokPerS, decodeTokPerS / active)}
 * tokens/s per stream, where {@code active} is the number of streams decoding; tokens are written
 * on a periodic tick of {@code tickMs} (several tokens in one write when the rate exceeds one token
 * per tick).
 *
 * @param host                address to bind (default 127.0.0.1); never null
 * @param port                port to bind, 0 = a free port
 * @param modelId             model id served by {@code /v1/models} (any requested model is accepted)
 * @param maxModelLen         {@code max_model_len} advertised by {@code /v1/models}, tokens
 * @param ttftBaseMs          fixed latency from admission to the first token, excluding prefill, ms
 * @param prefillTokPerS      prefill rate for uncached prompt tokens, tokens/s; 0 = instantaneous
 * @param decodeTokPerS       aggregate decode rate shared by all decoding streams, tokens/s (&gt; 0)
 * @param streamDecodeTokPerS per-stream decode cap, tokens/s (&gt; 0)
 * @param batchSlots          requests served at once; further requests queue (FIFO) (&gt;= 1)
 * @param outputTokens        completion tokens per request; 0 = the request's {@code max_tokens}
 *                            (a request's {@code max_tokens} always caps it)
 * @param reasoningTokens     reasoning tokens streamed as {@code reasoning_content} before the
 *                            content when thinking is on (always leaves at least one content token)
 * @param thinkingByDefault   thinking on when the request sends no thinking control
 * @param prefixCache         report cached tokens for prompt prefixes seen before (256-char blocks)
 * @param tickMs              decode tick, ms (&gt;= 1)
 * @param errorRate           fraction of requests answered with HTTP 500, 0..1
 * @param rateLimitRate       fraction answered with HTTP 429 and {@code Retry-After}, 0..1
 * @param retryAfterS         {@code Retry-After} value of the 429 answers, seconds
 * @param stallRate           fraction of streams that pause once for {@code stallMs}, 0..1
 * @param stallMs             length of an injected stall, ms
 * @param cutRate             fraction of streams whose connection is closed mid-stream, 0..1
 * @param malformedRate       fraction of streams that contain one malformed (non-JSON) data line, 0..1
 * @param seed                seed of the fault RNG (faults are drawn in arrival order)
 * @param replicas            independent engine replicas behind the one port, each on its own event
 *                            loop with its own {@code batchSlots}, prefill lane, decode budget,
 *                            prefix cache and fault RNG (seed + replica index); connections are spread
 *                            round-robin, like data-parallel replicas behind a load balancer (&gt;= 1)
 * @param decodeSpread        spread of the per-stream decode cap across requests, 0 &lt;= spread &lt; 1:
 *                            each stream's cap is drawn uniformly from {@code streamDecodeTokPerS
 *                            x [1 - spread, 1 + spread)} (from the fault RNG, in arrival order; no draw
 *                            when 0). 0 = every stream decodes at the same rate, so in a closed loop
 *                            with a fixed output length the streams end, and the next ones start, in
 *                            synchronised waves; real engines' streams drift apart
 * @param toolCallRate        share of the answers to requests that carry {@code tools} that are a call of the first
 *                            tool instead of text, 0..1 (drawn from an RNG of its own seeded by {@code seed}, in
 *                            arrival order; no draw when 0); a {@code tool_choice} that forces a call makes every
 *                            answer one, {@code none} none
 * @param https               serve https with a self-signed certificate for {@code localhost} and the host,
 *                            generated at start ({@code --sim-https}; issue 30's TLS test endpoint); clients need
 *                            {@code --insecure} or {@code --ca-cert} with {@link SimEngine#certificatePath()}
 * @param quirks              stream behaviours of real servers put on ({@link SimQuirks}); null means
 *                            {@link SimQuirks#NONE}
 */
public record SimConfig(
        String host,
        int port,
        String modelId,
        int maxModelLen,
        double ttftBaseMs,
        double prefillTokPerS,
        double decodeTokPerS,
        double streamDecodeTokPerS,
        int batchSlots,
        int outputTokens,
        int reasoningTokens,
        boolean thinkingByDefault,
        boolean prefixCache,
        long tickMs,
        double errorRate,
        double rateLimitRate,
        int retryAfterS,
        double stallRate,
        long stallMs,
        double cutRate,
        double malformedRate,
        long seed,
        int replicas,
        double decodeSpread,
        double toolCallRate,
        boolean https,
        SimQuirks quirks) {

    /** Engine label that reports of runs against the simulated engine carry. */
    public static final String ENGINE_LABEL = "capstream-sim";

    /** Validates the ranges.
     * @throws IllegalArgumentException when a value is out of range */
    public SimConfig {
        quirks = quirks == null ? SimQuirks.NONE : quirks;
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535");
        }
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("model id must not be empty");
        }
        if (maxModelLen < 1) {
            throw new IllegalArgumentException("max model len must be >= 1");
        }
        if (ttftBaseMs < 0 || prefillTokPerS < 0) {
            throw new IllegalArgumentException("ttft and prefill rate must be >= 0");
        }
        if (!(decodeTokPerS > 0) || !(streamDecodeTokPerS > 0)) {
            throw new IllegalArgumentException("decode rates must be > 0");
        }
        if (batchSlots < 1) {
            throw new IllegalArgumentException("batch slots must be >= 1");
        }
        if (outputTokens < 0 || reasoningTokens < 0) {
            throw new IllegalArgumentException("token counts must be >= 0");
        }
        if (tickMs < 1) {
            throw new IllegalArgumentException("tick must be >= 1 ms");
        }
        String[] rateNames = {"--sim-error-rate", "--sim-429-rate", "--sim-stall-rate", "--sim-cut-rate",
            "--sim-malformed-rate"};
        double[] rates = {errorRate, rateLimitRate, stallRate, cutRate, malformedRate};
        for (int i = 0; i < rates.length; i++) {
            if (!(rates[i] >= 0 && rates[i] <= 1)) {
                throw new IllegalArgumentException("fault rates must be within 0..1: " + rateNames[i] + " " + rates[i]);
            }
        }
        if (!(toolCallRate >= 0 && toolCallRate <= 1)) {
            throw new IllegalArgumentException("tool-call rate must be within 0..1: --sim-tool-call-rate " + toolCallRate);
        }
        if (retryAfterS < 0 || stallMs < 0) {
            throw new IllegalArgumentException("retry-after and stall must be >= 0");
        }
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be >= 1, got " + replicas);
        }
        if (!(decodeSpread >= 0 && decodeSpread < 1)) {
            throw new IllegalArgumentException("decode spread (--sim-decode-spread) must be within 0 (inclusive) and"
                    + " 1 (exclusive), got " + decodeSpread);
        }
    }

    /** @return the defaults: loopback, free port, model {@code capstream-sim}, 32768-token context,
     *  50 ms base TTFT, 200,000 tok/s prefill, 4,000 tok/s aggregate and 60 tok/s per-stream decode,
     *  64 slots, output = max_tokens, 16 reasoning tokens, prefix cache on, 10 ms tick, no faults,
     *  one replica, no decode spread, no tool calls */
    public static SimConfig defaults() {
        return builder().build();
    }

    /** @return a builder starting from {@link #defaults()} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from this configuration */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host; b.port = port; b.modelId = modelId; b.maxModelLen = maxModelLen;
        b.ttftBaseMs = ttftBaseMs; b.prefillTokPerS = prefillTokPerS; b.decodeTokPerS = decodeTokPerS;
        b.streamDecodeTokPerS = streamDecodeTokPerS; b.batchSlots = batchSlots; b.outputTokens = outputTokens;
        b.reasoningTokens = reasoningTokens; b.thinkingByDefault = thinkingByDefault; b.prefixCache = prefixCache;
        b.tickMs = tickMs; b.errorRate = errorRate; b.rateLimitRate = rateLimitRate; b.retryAfterS = retryAfterS;
        b.stallRate = stallRate; b.stallMs = stallMs; b.cutRate = cutRate; b.malformedRate = malformedRate;
        b.seed = seed; b.replicas = replicas; b.decodeSpread = decodeSpread; b.toolCallRate = toolCallRate;
        b.https = https;
        b.quirks = quirks;
        return b;
    }

    /**
     * The per-stream decode cap of one request (see {@code decodeSpread}).
     *
     * @param u a uniform draw in [0, 1)
     * @return {@code streamDecodeTokPerS x (1 + decodeSpread x (2u - 1))}, tokens/s
     */
    public double streamDecodeTokPerS(double u) {
        return streamDecodeTokPerS * (1 + decodeSpread * (2 * u - 1));
    }

    /** Mutable builder of {@link SimConfig}; every setter returns this. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private String modelId = "capstream-sim";
        private int maxModelLen = 32768;
        private double ttftBaseMs = 50;
        private double prefillTokPerS = 200_000;
        private double decodeTokPerS = 4_000;
        private double streamDecodeTokPerS = 60;
        private int batchSlots = 64;
        private int outputTokens = 0;
        private int reasoningTokens = 16;
        private boolean thinkingByDefault = false;
        private boolean prefixCache = true;
        private long tickMs = 10;
        private double errorRate;
        private double rateLimitRate;
        private int retryAfterS = 1;
        private double stallRate;
        private long stallMs = 2_000;
        private double cutRate;
        private double malformedRate;
        private long seed;
        private int replicas = 1;
        private double decodeSpread;
        private double toolCallRate;
        private boolean https;
        private SimQuirks quirks = SimQuirks.NONE;

        private Builder() {
        }

        /** @param v bind address @return this */
        public Builder host(String v) { host = v; return this; }
        /** @param v port, 0 = free @return this */
        public Builder port(int v) { port = v; return this; }
        /** @param v served model id @return this */
        public Builder modelId(String v) { modelId = v; return this; }
        /** @param v advertised max_model_len, tokens @return this */
        public Builder maxModelLen(int v) { maxModelLen = v; return this; }
        /** @param v base TTFT, ms @return this */
        public Builder ttftBaseMs(double v) { ttftBaseMs = v; return this; }
        /** @param v prefill rate, tokens/s (0 = instantaneous) @return this */
        public Builder prefillTokPerS(double v) { prefillTokPerS = v; return this; }
        /** @param v aggregate decode rate, tokens/s @return this */
        public Builder decodeTokPerS(double v) { decodeTokPerS = v; return this; }
        /** @param v per-stream decode cap, tokens/s @return this */
        public Builder streamDecodeTokPerS(double v) { streamDecodeTokPerS = v; return this; }
        /** @param v batch slots @return this */
        public Builder batchSlots(int v) { batchSlots = v; return this; }
        /** @param v output tokens per request (0 = max_tokens) @return this */
        public Builder outputTokens(int v) { outputTokens = v; return this; }
        /** @param v reasoning tokens when thinking is on @return this */
        public Builder reasoningTokens(int v) { reasoningTokens = v; return this; }
        /** @param v thinking on without a control @return this */
        public Builder thinkingByDefault(boolean v) { thinkingByDefault = v; return this; }
        /** @param v prefix cache on @return this */
        public Builder prefixCache(boolean v) { prefixCache = v; return this; }
        /** @param v decode tick, ms @return this */
        public Builder tickMs(long v) { tickMs = v; return this; }
        /** @param v HTTP 500 fraction @return this */
        public Builder errorRate(double v) { errorRate = v; return this; }
        /** @param v HTTP 429 fraction @return this */
        public Builder rateLimitRate(double v) { rateLimitRate = v; return this; }
        /** @param v Retry-After, seconds @return this */
        public Builder retryAfterS(int v) { retryAfterS = v; return this; }
        /** @param v stall fraction @return this */
        public Builder stallRate(double v) { stallRate = v; return this; }
        /** @param v stall length, ms @return this */
        public Builder stallMs(long v) { stallMs = v; return this; }
        /** @param v mid-stream cut fraction @return this */
        public Builder cutRate(double v) { cutRate = v; return this; }
        /** @param v malformed-chunk fraction @return this */
        public Builder malformedRate(double v) { malformedRate = v; return this; }
        /** @param v fault RNG seed @return this */
        public Builder seed(long v) { seed = v; return this; }
        /** @param v engine replicas, each on its own event loop @return this */
        public Builder replicas(int v) { replicas = v; return this; }
        /** @param v spread of the per-stream decode cap, 0 &lt;= v &lt; 1 @return this */
        public Builder decodeSpread(double v) { decodeSpread = v; return this; }
        /** @param v share of answers to requests with tools that are tool calls, 0..1 @return this */
        public Builder toolCallRate(double v) { toolCallRate = v; return this; }
        /** @param v serve https with a self-signed certificate @return this */
        public Builder https(boolean v) { https = v; return this; }
        /** @param v stream behaviours of real servers (null = none) @return this */
        public Builder quirks(SimQuirks v) { quirks = v; return this; }

        /** @return the validated configuration
         * @throws IllegalArgumentException when a value is out of range */
        public SimConfig build() {
            return new SimConfig(host, port, modelId, maxModelLen, ttftBaseMs, prefillTokPerS, decodeTokPerS,
                    streamDecodeTokPerS, batchSlots, outputTokens, reasoningTokens, thinkingByDefault, prefixCache,
                    tickMs, errorRate, rateLimitRate, retryAfterS, stallRate, stallMs, cutRate, malformedRate, seed,
                    replicas, decodeSpread, toolCallRate, https, quirks);
        }
    }
}
