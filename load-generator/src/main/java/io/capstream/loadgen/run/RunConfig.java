package io.capstream.loadgen.run;

import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every parameter of one load-generator run, grouped by concern: the {@link TargetConfig target}
 * (endpoint, model, connection), the {@link LoadShape load shape} (how many requests, when), the
 * {@link RequestShape request shape} (prompt and completion), the {@link RunIdentity run identity}
 * (ids, labels, seed) and the {@link WarmupConfig warm-up}. Names and defaults are the reference's
 * ({@code anvil-serving eval benchmark capacity}, spec §1); capstream adds the arrival process,
 * keep-alive, a time bound and run-id control. Bounds are wider than the reference where capstream
 * can do more (requests, concurrency and burst up to {@value #MAX_REQUESTS}).
 *
 * <p>Build with {@link #builder(String, String)}; check with {@link #validate(Function)} before
 * anything is sent (violations are usage errors, exit code 2): every group checks itself, and this
 * class adds the rules that span groups (model-family guard, aggregate prompt guard). The flat
 * accessors ({@link #baseUrl()}, {@link #requests()}, ...) are shortcuts to the groups' values.
 *
 * @param target   endpoint, model and connection; not null
 * @param load     number and timing of the requests; not null
 * @param request  prompt and completion of each request; not null
 * @param identity run id, worker id, labels and seed; not null
 * @param warmup   what runs before T0 to warm the client and the target (null = {@link WarmupConfig#NONE};
 *                 the CLI defaults to {@link WarmupConfig#DEFAULTS})
 * @param report   SLOs and sweep step recorded with the run (null = {@link ReportContext#NONE})
 * @param serverMetrics whether and where the endpoint's own metrics are scraped during the run (null =
 *                 {@link ServerMetricsConfig#OFF}; the CLI defaults to {@link ServerMetricsConfig#AUTO})
 */
public record RunConfig(TargetConfig target, LoadShape load, RequestShape request, RunIdentity identity,
                        WarmupConfig warmup, ReportContext report, ServerMetricsConfig serverMetrics) {

    /** Default {@code --requests}. */
    public static final int DEFAULT_REQUESTS = 60;
    /** Default {@code --concurrency}. */
    public static final int DEFAULT_CONCURRENCY = 20;
    /** Default {@code --shared-prefix-tokens}. */
    public static final int DEFAULT_SHARED_PREFIX_TOKENS = 8000;
    /** Default {@code --max-tokens}. */
    public static final int DEFAULT_MAX_TOKENS = 64;
    /** Default {@code --margin}. */
    public static final int DEFAULT_MARGIN = 1024;
    /** Default {@code --timeout}, seconds. */
    public static final double DEFAULT_TIMEOUT_S = 900.0;
    /** Upper bound of requests, concurrency and burst (the reference: 10000 / 256 / 256). */
    public static final int MAX_REQUESTS = 100_000;
    /** Aggregate prompt guard: n × context tokens may not exceed this (spec §1). */
    public static final long AGGREGATE_PROMPT_LIMIT = 67_108_864L;
    /** Context assumed by the aggregate guard when none is fixed (spec §1). */
    public static final int SAMPLED_CONTEXT_CEILING = 262_144;

    /**
     * Canonical constructor: the groups are required; a null warm-up is {@link WarmupConfig#NONE}, a null
     * report context {@link ReportContext#NONE}, null server metrics {@link ServerMetricsConfig#OFF}.
     */
    public RunConfig {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(identity, "identity");
        warmup = warmup == null ? WarmupConfig.NONE : warmup;
        report = report == null ? ReportContext.NONE : report;
        serverMetrics = serverMetrics == null ? ServerMetricsConfig.OFF : serverMetrics;
    }

    /**
     * @param baseUrl endpoint base URL (usually ends in /v1)
     * @param model   model id
     * @return a builder with the reference's defaults
     */
    public static Builder builder(String baseUrl, String model) {
        return new Builder().baseUrl(baseUrl).model(model);
    }

    /** @return a builder initialised with this config's values */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.baseUrl = target.baseUrl(); b.simulated = target.simulated(); b.model = target.model();
        b.engine = target.engine(); b.apiKeyEnv = target.apiKeyEnv(); b.timeoutS = target.timeoutS();
        b.keepAlive = target.keepAlive(); b.endpoint = target.endpoint(); b.headers = target.headers();
        b.requests = load.requests(); b.concurrency = load.concurrency(); b.burst = load.burst();
        b.arrival = load.arrival(); b.rateRps = load.rateRps(); b.maxInFlight = load.maxInFlight();
        b.durationS = load.durationS(); b.rampUpS = load.rampUpS();
        b.sharedPrefixTokens = request.sharedPrefixTokens(); b.ctxTokens = request.ctxTokens();
        b.maxTokens = request.maxTokens(); b.maxModelLen = request.maxModelLen(); b.margin = request.margin();
        b.thinkingMode = request.thinkingMode(); b.noThinking = request.noThinking();
        b.reasoningEffort = request.reasoningEffort(); b.extraBody = request.extraBody();
        b.promptSalt = request.promptSalt();
        b.inputTokens = request.inputTokens(); b.outputTokens = request.outputTokens();
        b.dataset = request.dataset(); b.tokenizer = request.tokenizer();
        b.runId = identity.runId(); b.runIdSuffix = identity.runIdSuffix(); b.workerId = identity.workerId();
        b.expectedWorkers = identity.expectedWorkers(); b.seed = identity.seed(); b.gpu = identity.gpu();
        b.warmup = warmup;
        b.slos = report.slos(); b.sweep = report.sweep(); b.rerunOf = report.rerunOf();
        b.serverMetrics = serverMetrics;
        return b;
    }

    /**
     * Binds the base URL of a target whose address was not known when the options were resolved (the
     * simulated engine, once it listens).
     *
     * @param baseUrl the endpoint base URL; not null
     * @return a copy targeting {@code baseUrl}
     */
    public RunConfig withBaseUrl(String baseUrl) {
        return new RunConfig(target.withBaseUrl(baseUrl), load, request, identity, warmup, report, serverMetrics);
    }

    /** @param v the new target; not null @return a copy with it */
    public RunConfig withTarget(TargetConfig v) {
        return new RunConfig(v, load, request, identity, warmup, report, serverMetrics);
    }

    /** @param v the new server-metrics scraping, null = off @return a copy with it */
    public RunConfig withServerMetrics(ServerMetricsConfig v) {
        return new RunConfig(target, load, request, identity, warmup, report, v);
    }

    /** @param v the new load shape; not null @return a copy with it */
    public RunConfig withLoad(LoadShape v) {
        return new RunConfig(target, v, request, identity, warmup, report, serverMetrics);
    }

    /** @param v the new run identity; not null @return a copy with it */
    public RunConfig withIdentity(RunIdentity v) {
        return new RunConfig(target, load, request, v, warmup, report, serverMetrics);
    }

    /** @param v the new request shape; not null @return a copy with it */
    public RunConfig withRequest(RequestShape v) {
        return new RunConfig(target, load, v, identity, warmup, report, serverMetrics);
    }

    /** @param v the new warm-up, null = none @return a copy with it */
    public RunConfig withWarmup(WarmupConfig v) {
        return new RunConfig(target, load, request, identity, v, report, serverMetrics);
    }

    /** @param v the new report context (SLOs, sweep step), null = none @return a copy with it */
    public RunConfig withReport(ReportContext v) {
        return new RunConfig(target, load, request, identity, warmup, v, serverMetrics);
    }

    /**
     * Checks every rule that does not need the endpoint (spec §1, §2.3): each group's own rules
     * ({@link TargetConfig#problems}, {@link LoadShape#problems}, {@link RequestShape#problems}), the
     * model-family guard ({@link RequestShape#modelProblems}), the aggregate prompt guard for a fixed
     * context or an explicit {@code --max-model-len}, the warm-up and the run identity. A simulated
     * target whose URL is not bound yet is checked without it. The window rule and the guard for a
     * probed window are checked by {@link RunPlanner} after the probe.
     *
     * @param env environment lookup (name to value, null when unset), e.g. {@code System::getenv}
     * @return usage error messages, every problem found, grouped in the order target, load shape,
     *         request shape, cross-group rules, warm-up, identity; empty when the config is valid; never null
     */
    public List<String> validate(Function<String, String> env) {
        List<String> errors = new ArrayList<>(target.problems(env));
        errors.addAll(load.problems());
        errors.addAll(request.problems(load.arrival() == ArrivalMode.TRACE ? "--trace" : "--dataset"));
        errors.addAll(request.modelProblems(target.model()));
        if (target.endpoint() == ApiEndpoint.COMPLETIONS) {
            // the thinking controls are chat-template features: the completions endpoint applies no template
            if (request.noThinking() || request.thinkingMode() == ThinkingMode.ENABLED
                    || request.thinkingMode() == ThinkingMode.DISABLED) {
                errors.add("--thinking-mode/--no-thinking apply to --endpoint chat only (a chat template setting)");
            }
            if (request.reasoningEffort() != null) {
                errors.add("--reasoning-effort applies to --endpoint chat only");
            }
            if (request.dataset() != null) {
                // a dataset's entries are chat messages: without a chat template there is no prompt string for them
                errors.add("--dataset applies to --endpoint chat only (its entries are chat messages)");
            }
        }
        if (!request.perRequestLengths() && (request.ctxTokens() != 0 || request.maxModelLen() != 0)) {
            long perRequest = request.ctxTokens() != 0 ? request.ctxTokens()
                    : Math.min(Math.max(0L, request.promptCap(request.maxModelLen())), SAMPLED_CONTEXT_CEILING);
            aggregateGuard(errors, load.effectiveRequests(), perRequest);
        }
        errors.addAll(warmup.validate());
        errors.addAll(identity.problems());
        return errors;
    }

    /**
     * Aggregate prompt guard (spec §1): {@code n × perRequest ≤ 67,108,864}.
     *
     * @param errors     where to add the message
     * @param n          planned requests
     * @param perRequest the unclamped fixed context, or min(cap or 262144, 262144), tokens
     */
    static void aggregateGuard(List<String> errors, int n, long perRequest) {
        if ((long) n * perRequest > AGGREGATE_PROMPT_LIMIT) {
            errors.add("aggregate prompt guard: " + n + " requests x " + perRequest + " context tokens = "
                    + ((long) n * perRequest) + " exceeds " + AGGREGATE_PROMPT_LIMIT + " tokens");
        }
    }

    // Shortcuts to the groups' values, for the generator's call sites.

    /** @return {@link TargetConfig#baseUrl()}; null only for an unbound simulated target */
    public String baseUrl() { return target.baseUrl(); }
    /** @return {@link TargetConfig#model()} */
    public String model() { return target.model(); }
    /** @return {@link TargetConfig#engine()}, or null */
    public String engine() { return target.engine(); }
    /** @return {@link TargetConfig#apiKeyEnv()}, or null */
    public String apiKeyEnv() { return target.apiKeyEnv(); }
    /** @return {@link TargetConfig#timeoutS()}, seconds */
    public double timeoutS() { return target.timeoutS(); }
    /** @return {@link TargetConfig#keepAlive()} */
    public boolean keepAlive() { return target.keepAlive(); }
    /** @return {@link LoadShape#requests()} */
    public int requests() { return load.requests(); }
    /** @return {@link LoadShape#concurrency()} */
    public int concurrency() { return load.concurrency(); }
    /** @return {@link LoadShape#burst()} */
    public int burst() { return load.burst(); }
    /** @return {@link LoadShape#arrival()}; never null */
    public ArrivalMode arrival() { return load.arrival(); }
    /** @return {@link LoadShape#rateRps()}, requests/s, or null */
    public Double rateRps() { return load.rateRps(); }
    /** @return {@link LoadShape#maxInFlight()}, or null */
    public Integer maxInFlight() { return load.maxInFlight(); }
    /** @return {@link LoadShape#durationS()}, seconds, or null */
    public Double durationS() { return load.durationS(); }
    /** @return {@link LoadShape#rampUpS()}, seconds, or null */
    public Double rampUpS() { return load.rampUpS(); }
    /** @return n: {@code burst} when non-zero, else {@code requests} (spec §1) */
    public int effectiveRequests() { return load.effectiveRequests(); }
    /** @return conc: {@code burst} when non-zero, else {@code concurrency} (spec §1) */
    public int effectiveConcurrency() { return load.effectiveConcurrency(); }
    /** @return {@link LoadShape#effectiveMaxInFlight()} */
    public int effectiveMaxInFlight() { return load.effectiveMaxInFlight(); }
    /** @return {@link RequestShape#sharedPrefixTokens()}, tokens */
    public int sharedPrefixTokens() { return request.sharedPrefixTokens(); }
    /** @return {@link RequestShape#ctxTokens()}, tokens (0 = sampled) */
    public int ctxTokens() { return request.ctxTokens(); }
    /** @return {@link RequestShape#maxTokens()}, tokens */
    public int maxTokens() { return request.maxTokens(); }
    /** @return {@link RequestShape#maxModelLen()}, tokens (0 = probe) */
    public int maxModelLen() { return request.maxModelLen(); }
    /** @return {@link RequestShape#margin()}, tokens */
    public int margin() { return request.margin(); }
    /** @return {@link RequestShape#thinkingMode()}; never null */
    public ThinkingMode thinkingMode() { return request.thinkingMode(); }
    /** @return {@link RequestShape#noThinking()} */
    public boolean noThinking() { return request.noThinking(); }
    /** @return {@link RequestShape#reasoningEffort()}, or null */
    public String reasoningEffort() { return request.reasoningEffort(); }
    /** @return the thinking mode sent and recorded: disabled whenever {@code --no-thinking} is set */
    public ThinkingMode resolvedThinkingMode() { return request.resolvedThinkingMode(); }
    /** @return {@link RequestShape#extraBody()}, or null */
    public ExtraBody extraBody() { return request.extraBody(); }
    /** @return {@link TargetConfig#endpoint()}; never null */
    public ApiEndpoint endpoint() { return target.endpoint(); }
    /** @return {@link TargetConfig#headers()}; never null */
    public List<ExtraHeader> headers() { return target.headers(); }
    /** @return {@link RunIdentity#seed()} */
    public long seed() { return identity.seed(); }
    /** @return {@link RunIdentity#gpu()}, or null */
    public String gpu() { return identity.gpu(); }
    /** @return {@link RunIdentity#runId()}, or null */
    public String runId() { return identity.runId(); }
    /** @return {@link RunIdentity#runIdSuffix()}, or null */
    public String runIdSuffix() { return identity.runIdSuffix(); }
    /** @return {@link RunIdentity#workerId()}, or null */
    public String workerId() { return identity.workerId(); }
    /** @return {@link RunIdentity#expectedWorkers()} */
    public int expectedWorkers() { return identity.expectedWorkers(); }

    /** Mutable builder with the reference's defaults (spec §1); builds the groups. Not thread-safe. */
    public static final class Builder {
        private String baseUrl;
        private boolean simulated;
        private String model;
        private String engine;
        private String gpu;
        private int requests = DEFAULT_REQUESTS;
        private int concurrency = DEFAULT_CONCURRENCY;
        private int burst;
        private int sharedPrefixTokens = DEFAULT_SHARED_PREFIX_TOKENS;
        private int ctxTokens;
        private long seed;
        private int maxTokens = DEFAULT_MAX_TOKENS;
        private int maxModelLen;
        private int margin = DEFAULT_MARGIN;
        private double timeoutS = DEFAULT_TIMEOUT_S;
        private ThinkingMode thinkingMode = ThinkingMode.DEFAULT;
        private boolean noThinking;
        private String reasoningEffort;
        private String apiKeyEnv;
        private io.capstream.loadgen.workload.LengthDistribution inputTokens;
        private io.capstream.loadgen.workload.LengthDistribution outputTokens;
        private java.nio.file.Path dataset;
        private java.nio.file.Path tokenizer;
        private ArrivalMode arrival = ArrivalMode.CLOSED;
        private Double rateRps;
        private Integer maxInFlight;
        private Double durationS;
        private boolean keepAlive;
        private Double rampUpS;
        private String runId;
        private String runIdSuffix;
        private String workerId;
        private int expectedWorkers = 1;
        private WarmupConfig warmup = WarmupConfig.NONE;
        private List<String> slos = List.of();
        private io.capstream.schemas.avro.SweepStep sweep;
        private ServerMetricsConfig serverMetrics = ServerMetricsConfig.OFF;
        private ApiEndpoint endpoint = ApiEndpoint.CHAT;
        private List<ExtraHeader> headers = List.of();
        private ExtraBody extraBody;
        private String promptSalt;
        private String rerunOf;

        private Builder() {
        }

        /** @param v the run id whose workload this run re-sends ({@code capstream rerun}), or null @return this */
        public Builder rerunOf(String v) { this.rerunOf = v; return this; }

        /** @param v chat or completions (null = chat) @return this */
        public Builder endpoint(ApiEndpoint v) { this.endpoint = v; return this; }
        /** @param v headers sent with every request, in order (null = none) @return this */
        public Builder headers(List<ExtraHeader> v) { this.headers = v; return this; }
        /** @param v members added to every body, or null @return this */
        public Builder extraBody(ExtraBody v) { this.extraBody = v; return this; }
        /** @param v the prompt salt ({@link RequestShape#promptSalt()}), null = the reference's prompts @return this */
        public Builder promptSalt(String v) { this.promptSalt = v; return this; }

        /** @param v endpoint base URL @return this */
        public Builder baseUrl(String v) { this.baseUrl = v; return this; }
        /**
         * @param v the target is the simulated engine started by the caller; with a null base URL it is
         *          checked without one and bound later ({@link RunConfig#withBaseUrl})
         * @return this
         */
        public Builder simulated(boolean v) { this.simulated = v; return this; }
        /** @param v model id @return this */
        public Builder model(String v) { this.model = v; return this; }
        /** @param v engine label or null @return this */
        public Builder engine(String v) { this.engine = v; return this; }
        /** @param v GPU label or null @return this */
        public Builder gpu(String v) { this.gpu = v; return this; }
        /** @param v planned requests @return this */
        public Builder requests(int v) { this.requests = v; return this; }
        /** @param v closed-loop slots @return this */
        public Builder concurrency(int v) { this.concurrency = v; return this; }
        /** @param v burst (0 = off) @return this */
        public Builder burst(int v) { this.burst = v; return this; }
        /** @param v shared prefix, tokens @return this */
        public Builder sharedPrefixTokens(int v) { this.sharedPrefixTokens = v; return this; }
        /** @param v fixed context tokens (0 = sampled) @return this */
        public Builder ctxTokens(int v) { this.ctxTokens = v; return this; }
        /** @param v plan seed @return this */
        public Builder seed(long v) { this.seed = v; return this; }
        /** @param v completion cap, tokens @return this */
        public Builder maxTokens(int v) { this.maxTokens = v; return this; }
        /** @param v context window, tokens (0 = probe) @return this */
        public Builder maxModelLen(int v) { this.maxModelLen = v; return this; }
        /** @param v margin, tokens @return this */
        public Builder margin(int v) { this.margin = v; return this; }
        /** @param v socket timeout, seconds @return this */
        public Builder timeoutS(double v) { this.timeoutS = v; return this; }
        /** @param v thinking mode @return this */
        public Builder thinkingMode(ThinkingMode v) { this.thinkingMode = v; return this; }
        /** @param v the --no-thinking flag @return this */
        public Builder noThinking(boolean v) { this.noThinking = v; return this; }
        /** @param v reasoning effort or null @return this */
        public Builder reasoningEffort(String v) { this.reasoningEffort = v; return this; }
        /** @param v {@code --input-tokens} prompt lengths, or null (the context plan) @return this */
        public Builder inputTokens(io.capstream.loadgen.workload.LengthDistribution v) { this.inputTokens = v; return this; }
        /** @param v {@code --output-tokens} max_tokens lengths, or null ({@code --max-tokens}) @return this */
        public Builder outputTokens(io.capstream.loadgen.workload.LengthDistribution v) { this.outputTokens = v; return this; }
        /** @param v {@code --dataset} file, or null (synthetic prompts) @return this */
        public Builder dataset(java.nio.file.Path v) { this.dataset = v; return this; }
        /** @param v {@code --tokenizer} tokenizer.json, or null (the estimate) @return this */
        public Builder tokenizer(java.nio.file.Path v) { this.tokenizer = v; return this; }
        /** @param v name of the API key variable or null @return this */
        public Builder apiKeyEnv(String v) { this.apiKeyEnv = v; return this; }
        /** @param v arrival process @return this */
        public Builder arrival(ArrivalMode v) { this.arrival = v; return this; }
        /** @param v open-loop rate, requests/s, or null @return this */
        public Builder rateRps(Double v) { this.rateRps = v; return this; }
        /** @param v open-loop in-flight cap or null @return this */
        public Builder maxInFlight(Integer v) { this.maxInFlight = v; return this; }
        /** @param v time bound, seconds, or null @return this */
        public Builder durationS(Double v) { this.durationS = v; return this; }
        /** @param v reuse connections @return this */
        public Builder keepAlive(boolean v) { this.keepAlive = v; return this; }
        /** @param v closed-loop ramp-up, seconds, or null @return this */
        public Builder rampUpS(Double v) { this.rampUpS = v; return this; }
        /** @param v run id override or null @return this */
        public Builder runId(String v) { this.runId = v; return this; }
        /** @param v run id suffix or null @return this */
        public Builder runIdSuffix(String v) { this.runIdSuffix = v; return this; }
        /** @param v worker id or null @return this */
        public Builder workerId(String v) { this.workerId = v; return this; }
        /** @param v expected workers @return this */
        public Builder expectedWorkers(int v) { this.expectedWorkers = v; return this; }
        /** @param v warm-up before T0 (null = none) @return this */
        public Builder warmup(WarmupConfig v) { this.warmup = v; return this; }
        /** @param v SLO texts carried to the report (null = none) @return this */
        public Builder slos(List<String> v) { this.slos = v; return this; }
        /** @param v the run's sweep step, or null for a single run @return this */
        public Builder sweep(io.capstream.schemas.avro.SweepStep v) { this.sweep = v; return this; }
        /** @param v whether and where the endpoint's metrics are scraped (null = off, the default) @return this */
        public Builder serverMetrics(ServerMetricsConfig v) { this.serverMetrics = v; return this; }

        /** @return the config (not validated: call {@link RunConfig#validate(Function)}) */
        public RunConfig build() {
            TargetConfig target = new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive,
                    endpoint, headers);
            LoadShape load = new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS,
                    rampUpS);
            RequestShape request = new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin,
                    thinkingMode, noThinking, reasoningEffort, inputTokens, outputTokens, dataset, tokenizer,
                    extraBody, promptSalt);
            RunIdentity identity = new RunIdentity(runId, runIdSuffix, workerId, expectedWorkers, seed, gpu);
            return new RunConfig(target, load, request, identity, warmup, new ReportContext(slos, sweep, rerunOf), serverMetrics);
        }
    }
}
