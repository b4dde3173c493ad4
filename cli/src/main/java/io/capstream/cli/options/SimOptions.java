package io.capstream.cli.options;

import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimQuirks;
import picocli.CommandLine.Option;

/**
 * Options of the simulated engine ({@code capstream sim}, and the in-process engine that
 * {@code capstream run} starts when no {@code --base-url} is given). Every name starts with
 * {@code --sim-} so the options never clash with run parameters. Defaults are
 * {@link SimConfig#defaults()}.
 */
public final class SimOptions {
    private static final SimConfig D = SimConfig.defaults();

    @Option(names = "--sim-model", paramLabel = "ID", description = "Model id the engine serves. Default: ${DEFAULT-VALUE}.")
    String model = D.modelId();

    @Option(names = "--sim-max-model-len", paramLabel = "TOKENS",
            description = "max_model_len advertised by /v1/models, tokens. Default: ${DEFAULT-VALUE}.")
    int maxModelLen = D.maxModelLen();

    @Option(names = "--sim-ttft-ms", paramLabel = "MS",
            description = "Base latency from admission to the first token, excluding prefill, ms. Default: ${DEFAULT-VALUE}.")
    double ttftMs = D.ttftBaseMs();

    @Option(names = "--sim-prefill-tok-s", paramLabel = "TOK_S",
            description = "Prefill rate of uncached prompt tokens (one shared prefill lane), tokens/s; 0 = instantaneous."
                    + " Default: ${DEFAULT-VALUE}.")
    double prefillTokS = D.prefillTokPerS();

    @Option(names = "--sim-decode-tok-s", paramLabel = "TOK_S",
            description = "Aggregate decode rate shared by all decoding streams, tokens/s. Default: ${DEFAULT-VALUE}.")
    double decodeTokS = D.decodeTokPerS();

    @Option(names = "--sim-stream-tok-s", paramLabel = "TOK_S",
            description = "Per-stream decode cap, tokens/s. Default: ${DEFAULT-VALUE}.")
    double streamTokS = D.streamDecodeTokPerS();

    @Option(names = "--sim-decode-spread", paramLabel = "FRACTION",
            description = "Spread of the per-stream decode cap across requests, 0 <= F < 1: each stream decodes at"
                    + " --sim-stream-tok-s x a uniform draw from [1-F, 1+F) (seeded by --sim-seed). With 0, streams of"
                    + " the same length end together, so a closed loop restarts them in synchronised waves; real"
                    + " engines' streams drift apart. Default: ${DEFAULT-VALUE}.")
    double decodeSpread = D.decodeSpread();

    @Option(names = "--sim-slots", paramLabel = "N",
            description = "Batch slots (requests served at once); further requests queue. Default: ${DEFAULT-VALUE}.")
    int slots = D.batchSlots();

    @Option(names = "--sim-output-tokens", paramLabel = "TOKENS",
            description = "Completion tokens per request; 0 = the request's max_tokens. Default: ${DEFAULT-VALUE}.")
    int outputTokens = D.outputTokens();

    @Option(names = "--sim-reasoning-tokens", paramLabel = "TOKENS",
            description = "reasoning_content tokens streamed first when thinking is on. Default: ${DEFAULT-VALUE}.")
    int reasoningTokens = D.reasoningTokens();

    @Option(names = "--sim-thinking-default", description = "Think when the request sends no thinking control.")
    boolean thinkingDefault;

    @Option(names = "--sim-no-prefix-cache", description = "Disable the prefix cache (cached_tokens always 0).")
    boolean noPrefixCache;

    @Option(names = "--sim-tick-ms", paramLabel = "MS", description = "Decode tick, ms. Default: ${DEFAULT-VALUE}.")
    long tickMs = D.tickMs();

    @Option(names = "--sim-error-rate", paramLabel = "P", description = "Fraction of requests answered with HTTP 500. Default: 0.")
    double errorRate;

    @Option(names = "--sim-429-rate", paramLabel = "P",
            description = "Fraction of requests answered with HTTP 429 and Retry-After. Default: 0.")
    double rateLimitRate;

    @Option(names = "--sim-retry-after-s", paramLabel = "S", description = "Retry-After of the 429 answers, s. Default: ${DEFAULT-VALUE}.")
    int retryAfterS = D.retryAfterS();

    @Option(names = "--sim-stall-rate", paramLabel = "P", description = "Fraction of streams that pause once. Default: 0.")
    double stallRate;

    @Option(names = "--sim-stall-ms", paramLabel = "MS", description = "Length of an injected pause, ms. Default: ${DEFAULT-VALUE}.")
    long stallMs = D.stallMs();

    @Option(names = "--sim-cut-rate", paramLabel = "P",
            description = "Fraction of streams whose connection is closed mid-stream. Default: 0.")
    double cutRate;

    @Option(names = "--sim-malformed-rate", paramLabel = "P",
            description = "Fraction of streams with one malformed (non-JSON) data line. Default: 0.")
    double malformedRate;

    @Option(names = "--sim-tool-call-rate", paramLabel = "P",
            description = "Share of the answers to requests with tools that are a call of the first tool (streamed in"
                    + " the API's tool-call form) instead of text, 0..1, seeded by --sim-seed; tool_choice required"
                    + " makes every answer one. Default: 0.")
    double toolCallRate;

    @Option(names = "--sim-seed", paramLabel = "N", description = "Seed of the fault RNG. Default: 0.")
    long seed;

    @Option(names = "--sim-replicas", paramLabel = "N", defaultValue = "1",
            description = "Engine replicas behind the one port, each on its own event loop with its own slots, prefill"
                    + " lane, decode budget and prefix cache; connections are spread round-robin (like data-parallel"
                    + " replicas). More than 1 lets the engine use more cores under many streams. Default: ${DEFAULT-VALUE}.")
    int replicas = 1;

    @Option(names = "--sim-https",
            description = "Serve https with a self-signed certificate made at start (for host name localhost): the"
                    + " requests then need --insecure (or --ca-cert with the certificate and a localhost URL).")
    boolean https;

    @Option(names = "--sim-preamble", paramLabel = "KINDS",
            description = "Frames a streamed chat or completions answer starts with, before the role chunk and the"
                    + " first token (comma-separated, in order): comment (an SSE ': keep-alive' line), empty (a chunk"
                    + " with delta content \"\"), progress (a chunk with \"choices\":[] and no usage). Default: none.")
    String preamble;

    @Option(names = "--sim-reasoning-field", paramLabel = "NAME",
            description = "Delta field of reasoning tokens: reasoning_content (vLLM, llama.cpp) or reasoning."
                    + " Default: reasoning_content.")
    String reasoningField = "reasoning_content";

    @Option(names = "--sim-usage", paramLabel = "WHEN",
            description = "When a streamed answer ends with the usage chunk: asked (stream_options.include_usage),"
                    + " always, never. Default: asked.")
    String usage = "asked";

    @Option(names = "--sim-errors-in-stream",
            description = "Send the errors of streamed chat and completions requests (the context-length 400, the"
                    + " injected 500) as an HTTP 200 event stream holding the error object, then [DONE].")
    boolean errorsInStream;

    @Option(names = "--sim-no-stream",
            description = "Ignore \"stream\": true on chat and completions: answer with one JSON body"
                    + " (application/json), as some gateways do.")
    boolean noStream;

    /**
     * @param host bind address
     * @param port port, 0 = free
     * @return the engine configuration
     * @throws IllegalArgumentException when a value is out of range (a usage error)
     */
    public SimConfig toConfig(String host, int port) {
        return SimConfig.builder().host(host).port(port).modelId(model).maxModelLen(maxModelLen).ttftBaseMs(ttftMs)
                .prefillTokPerS(prefillTokS).decodeTokPerS(decodeTokS).streamDecodeTokPerS(streamTokS)
                .batchSlots(slots).outputTokens(outputTokens).reasoningTokens(reasoningTokens)
                .thinkingByDefault(thinkingDefault).prefixCache(!noPrefixCache).tickMs(tickMs).errorRate(errorRate)
                .rateLimitRate(rateLimitRate).retryAfterS(retryAfterS).stallRate(stallRate).stallMs(stallMs)
                .cutRate(cutRate).malformedRate(malformedRate).seed(seed).replicas(replicas)
                .decodeSpread(decodeSpread).toolCallRate(toolCallRate).https(https)
                .quirks(new SimQuirks(SimQuirks.Preamble.parseList(preamble), reasoningField,
                        SimQuirks.Usage.parse(usage), errorsInStream, noStream)).build();
    }

    /** @return the model id the engine serves */
    public String model() {
        return model;
    }
}
