package io.capstream.cli.options;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.ReportContext;
import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunIdentity;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.ThinkingMode;
import picocli.CommandLine.Option;

/**
 * The run parameters shared by {@code capstream run}, {@code generate} and {@code sweep}: the
 * reference's names and defaults (spec §1; {@code anvil-serving eval benchmark capacity}), plus
 * capstream's arrival, keep-alive, duration, run-id and SLO options, but not the load level
 * ({@code --concurrency N}, {@code --rate RPS}): {@link RunOptions} adds those for {@code run} and
 * {@code generate}, while {@code sweep} takes them as lists of steps. Resolved once per command
 * into a {@link RunConfig}'s groups by {@link #toConfig(SimOptions)} (here with the default load level:
 * {@value RunConfig#DEFAULT_CONCURRENCY} closed-loop slots, no rate). This class reports only what is about the
 * options themselves (a value that does not parse, {@code --trace} with options it replaces); every rule of the
 * values is {@link io.capstream.loadgen.run.RunValidator}'s, plus the SLO grammar (checked by the driver).
 */
public class WorkloadOptions {
    /** --base-url, --model, --endpoint, --api-key-env and -H (shared with {@code capstream check}). */
    @picocli.CommandLine.Mixin EndpointOptions endpointOptions = new EndpointOptions();

    @Option(names = "--engine", paramLabel = "LABEL", description = "Engine label recorded in the report (vllm, sglang, ...).")
    String engine;

    @Option(names = "--gpu", paramLabel = "LABEL", description = "GPU label recorded in the report.")
    String gpu;

    @Option(names = "--requests", paramLabel = "N",
            description = "Planned requests. Default: " + RunConfig.DEFAULT_REQUESTS + "; with --trace, every line of"
                    + " the trace (--requests N takes its first N).")
    Integer requests;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Open loop at the timestamps of a Mooncake-format trace (JSONL: timestamp ms, input_length,"
                    + " output_length, optional hash_ids of 512-token blocks; equal ids give equal prompt blocks, a"
                    + " shared prefix): each line is a request with that prompt length and max_tokens, arriving at its"
                    + " offset from the first line. The in-flight cap is --max-in-flight (default with --trace: "
                    + TRACE_MAX_IN_FLIGHT + ").")
    java.nio.file.Path trace;

    /** The in-flight cap of a {@code --trace} run without {@code --max-in-flight}. */
    public static final int TRACE_MAX_IN_FLIGHT = 1000;

    @Option(names = "--burst", paramLabel = "N", description = "When non-zero replaces both --requests and --concurrency. Default: 0.")
    int burst;

    @Option(names = "--shared-prefix-tokens", paramLabel = "TOKENS",
            description = "Shared prompt prefix, tokens. Default: ${DEFAULT-VALUE}.")
    int sharedPrefixTokens = RunConfig.DEFAULT_SHARED_PREFIX_TOKENS;

    @Option(names = "--ctx-tokens", paramLabel = "TOKENS",
            description = "Fixed context per request, tokens; 0 samples the reference distribution. Default: 0.")
    int ctxTokens;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the context plan (and Poisson or gamma arrivals). Default: 0.")
    long seed;

    @Option(names = "--max-tokens", paramLabel = "TOKENS", description = "Completion cap sent. Default: ${DEFAULT-VALUE}.")
    int maxTokens = RunConfig.DEFAULT_MAX_TOKENS;

    @Option(names = "--max-model-len", paramLabel = "TOKENS",
            description = "Context window, tokens; 0 probes GET /models. Default: 0.")
    int maxModelLen;

    @Option(names = "--margin", paramLabel = "TOKENS",
            description = "Tokens kept free below the context window. Default: " + RunConfig.DEFAULT_MARGIN
                    + "; 0 with --endpoint embeddings or rerank, which generate nothing (an embedding model's window is"
                    + " often 512 tokens).")
    Integer margin;

    @Option(names = "--dataset", paramLabel = "FILE",
            description = "Send the prompts of this file instead of synthetic ones: JSONL (one object per line with"
                    + " messages, an OpenAI chat messages array, or prompt, a string; optional max_tokens; or a"
                    + " conversation: turns, an array of {prompt} or {messages} with optional max_tokens, and optional"
                    + " system) or ShareGPT JSON (an array of {conversations: [{from: human, value}, {from: gpt, value},"
                    + " ...]}). A file with a conversation of several turns is replayed conversation by conversation"
                    + " (each human turn a turn, the next gpt turn's tokens its output length; --requests counts"
                    + " turns); else request i sends entry i mod N, in file order (a ShareGPT entry its first human"
                    + " turn). Output length: --output-tokens, else the entry's own, else --max-tokens. The report"
                    + " records the file's name and SHA-256.")
    java.nio.file.Path dataset;

    @Option(names = "--tokenizer", paramLabel = "FILE",
            description = "A Hugging Face tokenizer.json counting the --dataset's prompt and reply tokens, and sizing the"
                    + " --input-tokens prompts so that it counts their planned length (default: the reference's"
                    + " estimate, 3 characters per token).")
    java.nio.file.Path tokenizer;

    @Option(names = "--input-tokens", paramLabel = "MEAN[,STDDEV]",
            description = "Synthetic prompt length drawn per request (normal, seeded by --seed, clamped to 32 tokens and"
                    + " the prompt cap) instead of the reference's context distribution, e.g. 1024,256.")
    String inputTokens;

    @Option(names = "--output-tokens", paramLabel = "MEAN[,STDDEV]",
            description = "max_tokens drawn per request (normal, seeded by --seed, clamped to 1..65536) instead of"
                    + " --max-tokens, e.g. 128,32. The context-window rule uses the largest draw.")
    String outputTokens;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "Socket timeout for connect, headers and each read (not a total deadline), e.g. 30s, 1.5s,"
                    + " 500ms, 2m (a bare number is seconds); up to 1h. Default: " + (long) RunConfig.DEFAULT_TIMEOUT_S
                    + "s.")
    java.time.Duration timeout = java.time.Duration.ofMillis(Math.round(RunConfig.DEFAULT_TIMEOUT_S * 1000));

    @Option(names = "--thinking-mode", paramLabel = "MODE",
            description = "default, enabled, disabled or unsupported. Default: default.")
    String thinkingMode = "default";

    @Option(names = "--no-thinking", description = "Alias that forces --thinking-mode disabled.")
    boolean noThinking;

    @Option(names = "--reasoning-effort", paramLabel = "EFFORT",
            description = "none, minimal, low, medium, high, max or xhigh (sent as top-level reasoning_effort).")
    String reasoningEffort;

    @Option(names = "--extra-body", paramLabel = "JSON",
            description = "JSON object whose members are added to every request body, e.g."
                    + " '{\"temperature\":0.7,\"top_p\":0.9,\"ignore_eos\":true}'; a member capstream also sends"
                    + " (temperature, stream_options, ...) is sent with this value; model, messages, prompt, stream"
                    + " and max_tokens are refused (use --model, --max-tokens). Recorded in the report.")
    String extraBody;

    @Option(names = "--server-metrics", paramLabel = "URL|auto|off",
            description = "Scrape the endpoint's own Prometheus metrics about once a second while requests are in"
                    + " flight (queue, KV cache, prefix cache; vLLM, SGLang and llama.cpp series get common names)"
                    + " into the report, the HTML report and the topic capstream.server-metrics. auto: <base URL"
                    + " without /v1>/metrics when it answers with Prometheus text. A URL is scraped whatever it"
                    + " answers: failed scrapes are counted, the run goes on. Default: auto.")
    String serverMetrics = "auto";

    @Option(names = "--arrival", paramLabel = "MODE",
            description = "closed (reference closed loop), constant, poisson or gamma (open loop at --rate). Default: closed.")
    String arrival = "closed";

    @Option(names = "--max-in-flight", paramLabel = "N", description = "Open-loop cap on requests in flight; a run"
            + " held by it says so. Default: " + io.capstream.loadgen.run.LoadShape.DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT
            + ", or --concurrency when that is larger.")
    Integer maxInFlight;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Time bound, e.g. 30s, 5m, 1h (a bare number is seconds): no new request starts after it."
                    + " Closed loop: --requests stays the upper bound. Open loop (--arrival constant|poisson|gamma): the run"
                    + " plans exactly the arrivals scheduled before it, whatever --requests says (at most "
                    + RunConfig.MAX_REQUESTS + ").")
    java.time.Duration duration;

    @Option(names = "--ramp-up", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Closed loop only: start the --concurrency slots evenly over this time (slot k of c takes its"
                    + " first request k/c of it after the start) instead of all at once, e.g. 2s, 500ms (a bare number"
                    + " is seconds; 0 = no ramp). A deviation from the"
                    + " reference, which starts every slot at once; at high concurrency the simultaneous connects of the"
                    + " first wave queue in the client and the engine and add to those requests' TTFT. Default: none.")
    java.time.Duration rampUp;

    @picocli.CommandLine.Mixin WarmupOptions warmupOptions = new WarmupOptions(); // --warmup-requests, --warmup-prime-cache

    @Option(names = "--prompt-salt", paramLabel = "run|off",
            description = "run: a short random line ('# run 3f9a1c2b7d4e') replaces the first characters of every"
                    + " synthetic prompt, the same for all requests of the run, so the run shares no cached prefix"
                    + " with earlier runs while its requests still share their shared prefix (length unchanged;"
                    + " recorded as capstream.run.prompt_salt). off: the reference's prompts, byte for byte. Not"
                    + " applied to --dataset or --trace prompts. Default: off for run and generate, run for sweep"
                    + " (each step its own salt; --prompt-salt off re-sends the same prompts at every step).")
    String promptSalt;

    @Option(names = "--client-warmup", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Upper bound of the client's own warm-up before the first timed request: the whole request"
                    + " path (connect, upload, SSE, chunk decoding, timestamps, events) runs against an in-process"
                    + " loopback stream until its cost per request stops falling, then up to 1,000 requests go through"
                    + " the run's own driver (usually 1-4 s in all). 0 = off: a cold JVM"
                    + " then adds tens to hundreds of ms to the first requests' TTFT. 0 to 600 s. Default: 5s.")
    java.time.Duration clientWarmup = java.time.Duration.ofSeconds(5);

    @Option(names = "--keep-alive",
            description = "Reuse connections (a deviation from the reference, which opens one per request; lowers TTFT).")
    boolean keepAlive;

    @Option(names = "--http-client", paramLabel = "netty|vertx",
            description = "The HTTP client of the streamed requests: netty (Netty's HTTP/1.1 codec directly on the"
                    + " event loops; about 30%% less client CPU per chunk than vertx at 256 streams) or vertx (Vert.x's HttpClient, the"
                    + " client before). Both measure the same way. Default: netty.")
    String httpClient;

    @Option(names = "--no-trace-headers",
            description = "Send no correlation headers. By default every request carries a W3C traceparent (a random"
                    + " trace id per request, sampled) and an X-Request-Id (<run id>-<request index>), recorded per"
                    + " request with the server's response id and timings so that it can be found in the server's"
                    + " logs and traces.")
    boolean noTraceHeaders;

    @Option(names = "--run-id", paramLabel = "ID",
            description = "Run id to use instead of benchmark-YYYYMMDDTHHMMSSZ. Must be unique: a reused id mixes two runs"
                    + " (report, replay); with --bootstrap-servers a warning is printed when capstream.reports already"
                    + " has a report with this id.")
    String runId;

    @Option(names = "--run-id-suffix", paramLabel = "S", description = "Suffix appended to the derived run id as -S.")
    String runIdSuffix;

    @picocli.CommandLine.Mixin
    ConversationOptions conversation = new ConversationOptions();
    /** --batch, arrivals, cancellation, images, TLS, --slo and stop rules, in this order (the help's). */
    @picocli.CommandLine.Mixin TrafficOptions traffic = new TrafficOptions();

    /** @return the given {@code --slo} texts, in order; never null */
    public java.util.List<String> slos() {
        return traffic.slos();
    }

    /** @return the given {@code --tools}, or null */
    public java.nio.file.Path tools() {
        return conversation.tools;
    }

    /** @return the given {@code --trace}, or null */
    public java.nio.file.Path trace() {
        return trace;
    }

    /** @return the given {@code --dataset}, or null */
    public java.nio.file.Path dataset() {
        return dataset;
    }

    /** @return the given {@code --tokenizer}, or null */
    public java.nio.file.Path tokenizer() {
        return tokenizer;
    }

    /** @return the given {@code --model}, or null */
    public String model() {
        return endpointOptions.model();
    }

    /** @return the given {@code --run-id}, or null */
    public String runId() {
        return runId == null || runId.isBlank() ? null : runId;
    }

    /** @return the given base URL, or null when the simulated engine is the target */
    public String baseUrl() {
        return endpointOptions.baseUrl();
    }

    /**
     * Resolves the options once into the run configuration. With a {@code --base-url} the target is
     * that endpoint; without one it is the simulated engine: model and engine label default to the
     * engine's, and the base URL is bound with {@link RunConfig#withBaseUrl} once the engine listens
     * (until then {@link RunConfig#validate} checks everything but the URL).
     *
     * @param sim the simulated engine's options (its model is the default when it is the target); not null
     * @return the config (not validated)
     * @throws IllegalArgumentException for an unknown --thinking-mode, --arrival, --server-metrics or --endpoint,
     *         a malformed -H, --rate-schedule or --steady-state, an --extra-body that is not a JSON object, or an
     *         --input-tokens / --output-tokens that is not MEAN[,STDDEV] (usage error)
     */
    public RunConfig toConfig(SimOptions sim) {
        String url = baseUrl();
        boolean simulated = url == null;
        ArrivalMode arrivalMode = ArrivalMode.parse(arrival);
        if (trace != null) {
            java.util.List<String> with = new java.util.ArrayList<>();
            if (dataset != null) with.add("--dataset");
            if (inputTokens != null) with.add("--input-tokens");
            if (ctxTokens != 0) with.add("--ctx-tokens");
            if (tokenizer != null) with.add("--tokenizer");
            if (arrivalMode != ArrivalMode.CLOSED && arrivalMode != ArrivalMode.TRACE) with.add("--arrival " + arrival);
            if (duration != null) with.add("--duration");
            if (!with.isEmpty()) {
                throw new IllegalArgumentException("--trace cannot be combined with " + String.join(", ", with)
                        + " (the trace sets the prompts, their lengths and the arrivals)");
            }
            arrivalMode = ArrivalMode.TRACE;
        } else if (arrivalMode == ArrivalMode.TRACE) {
            throw new IllegalArgumentException("--arrival trace needs --trace FILE");
        }
        // parsed in this order, so that of several bad values the same one is reported first as before
        ThinkingMode thinking = ThinkingMode.parse(thinkingMode);
        LengthDistribution input = inputTokens == null ? null : LengthDistribution.parse("--input-tokens", inputTokens);
        LengthDistribution output = outputTokens == null ? null
                : LengthDistribution.parse("--output-tokens", outputTokens);
        String salt = saltPrompts() ? PromptBuilder.randomSalt("run", new java.security.SecureRandom()) : null;
        ServerMetricsConfig scrape = ServerMetricsConfig.parse(serverMetrics);
        ApiEndpoint api = endpointOptions.endpoint();
        java.util.List<ExtraHeader> extraHeaders = endpointOptions.headers();
        ExtraBody body = extraBody == null ? null : ExtraBody.parse(extraBody);
        TargetConfig target = traffic.applyTo(new TargetConfig(url, simulated,
                endpointOptions.model() != null ? endpointOptions.model() : simulated ? sim.model() : null,
                engine != null ? engine : simulated ? SimConfig.ENGINE_LABEL : null, endpointOptions.apiKeyEnv(), seconds(timeout), keepAlive,
                api, extraHeaders).withTraceHeaders(!noTraceHeaders)
                .withHttpClient(httpClient == null ? null : io.capstream.loadgen.client.HttpClientKind.parse(httpClient)));
        LoadShape load = traffic.applyTo(loadLevel(new LoadShape(
                requests != null ? requests : trace != null ? RunConfig.MAX_REQUESTS : RunConfig.DEFAULT_REQUESTS,
                RunConfig.DEFAULT_CONCURRENCY, burst, arrivalMode, null,
                maxInFlight == null && trace != null ? Integer.valueOf(TRACE_MAX_IN_FLIGHT) : maxInFlight,
                seconds(duration), seconds(rampUp))));
        // the margin keeps room for the chat template and the estimate's error below a generating model's window;
        // embeddings and rerank send bare inputs (their window is often 512 tokens, below the chat default)
        int marginTokens = margin != null ? margin : api.streamed() ? RunConfig.DEFAULT_MARGIN : 0;
        RequestShape request = new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, marginTokens,
                thinking, noThinking, reasoningEffort, input, output, trace != null ? trace : dataset, tokenizer, body,
                salt);
        RunIdentity identity = new RunIdentity(runId, runIdSuffix, null, 1, seed, gpu);
        WarmupConfig warmup = warmupOptions.toConfig(clientWarmup == null ? 0 : seconds(clientWarmup));
        return traffic.applyTo(new RunConfig(target, load, request, identity, warmup,
                new ReportContext(slos(), null), scrape, conversation.toShape()));
    }

    /**
     * @return whether the run's prompts get a prompt salt: {@code --prompt-salt run|off}, else
     *         {@link #saltPromptsByDefault()}
     * @throws IllegalArgumentException for another {@code --prompt-salt} value
     */
    private boolean saltPrompts() {
        if (promptSalt == null) {
            return saltPromptsByDefault();
        }
        return switch (promptSalt.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "run" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--prompt-salt must be run or off, got '" + promptSalt + "'");
        };
    }

    /**
     * @return the default of {@code --prompt-salt}: true (run) here, for {@code sweep}, whose steps would otherwise
     *         re-send the same prompts and measure the server's prefix cache instead of the load; {@link RunOptions}
     *         (run, generate) keeps the reference's prompts
     */
    boolean saltPromptsByDefault() {
        return true;
    }

    /**
     * Sets the load level: nothing here (the group's defaults, {@value RunConfig#DEFAULT_CONCURRENCY} closed-loop
     * slots and no rate); {@link RunOptions} sets its {@code --concurrency} and {@code --rate}.
     *
     * @param load the load shape of {@link #toConfig}; not null
     * @return the load shape with this command's load level
     */
    LoadShape loadLevel(LoadShape load) {
        return load;
    }

    /** @return the given {@code --arrival} text (closed, constant, poisson or gamma; not yet parsed); never null */
    public String arrival() {
        return arrival == null ? "closed" : arrival;
    }

    /** @return the given {@code --burst} (0 = off) */
    public int burst() {
        return burst;
    }

    /** @return the given {@code --run-id-suffix}, or null */
    public String runIdSuffix() {
        return runIdSuffix == null || runIdSuffix.isBlank() ? null : runIdSuffix;
    }

    /** @return {@code d} in seconds (nanosecond precision), or null when {@code d} is null */
    private static Double seconds(java.time.Duration d) {
        return d == null ? null : d.toNanos() / 1e9;
    }
}
