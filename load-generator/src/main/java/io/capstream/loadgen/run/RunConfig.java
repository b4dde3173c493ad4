package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import io.capstream.schemas.text.RunIdRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Every parameter of one load-generator run. Names and defaults are the reference's
 * ({@code anvil-serving eval benchmark capacity}, spec §1); capstream adds the arrival process,
 * keep-alive, a time bound and run-id control. Bounds are wider than the reference where capstream
 * can do more (requests, concurrency and burst up to {@value #MAX_REQUESTS}).
 *
 * <p>Build with {@link #builder(String, String)}; check with {@link #validate(Function)} before
 * anything is sent (violations are usage errors, exit code 2). The API key itself is never part of
 * the config: only the name of the environment variable that holds it.
 *
 * @param baseUrl            endpoint base URL, usually ending in {@code /v1}; required; checked by
 *                           {@link HttpUrls#problem}. A {@code user:password@} in it is sent as HTTP basic
 *                           auth and recorded as {@code ***@} ({@link Redaction#urls})
 * @param model              model id sent in each request; required
 * @param engine             engine label recorded in the report, or null
 * @param gpu                GPU label recorded in the report, or null
 * @param requests           {@code --requests}: number of planned requests (default 60); with a
 *                           {@code --duration} in closed loop, the upper bound
 * @param concurrency        {@code --concurrency}: closed-loop slots (default 20)
 * @param burst              {@code --burst}: when non-zero replaces both requests and concurrency (default 0)
 * @param sharedPrefixTokens {@code --shared-prefix-tokens}, tokens (default 8000)
 * @param ctxTokens          {@code --ctx-tokens}: fixed context, tokens; 0 samples the distribution (default 0)
 * @param seed               {@code --seed} of the context plan (and of Poisson arrivals) (default 0)
 * @param maxTokens          {@code --max-tokens}: completion cap sent, tokens (default 64)
 * @param maxModelLen        {@code --max-model-len}, tokens; 0 probes {@code /models} (default 0)
 * @param margin             {@code --margin}, tokens kept free below the context window (default 1024)
 * @param timeoutS           {@code --timeout}: socket timeout per connect and per read, seconds (default 900)
 * @param thinkingMode       {@code --thinking-mode} (default {@link ThinkingMode#DEFAULT})
 * @param noThinking         {@code --no-thinking}: forces thinking-mode disabled
 * @param reasoningEffort    {@code --reasoning-effort}, or null
 * @param apiKeyEnv          {@code --api-key-env}: name of the environment variable with the key, or null
 * @param arrival            arrival process (default {@link ArrivalMode#CLOSED})
 * @param rateRps            open-loop rate, requests per second; required for constant/poisson, else null
 * @param maxInFlight        open-loop cap on requests in flight; null = {@code concurrency}
 * @param durationS          time bound in seconds (no new request starts after it), or null
 * @param keepAlive          reuse connections (deviation from the reference, which opens one per request)
 * @param rampUpS            closed-loop ramp-up, seconds: slot k of c takes its first request k x rampUpS / c
 *                           after T0 instead of at T0 (a deviation from the reference, which starts every
 *                           slot at once); null or 0 = no ramp. Open loop: must be null
 * @param runId              run id override used verbatim, or null to derive {@code benchmark-YYYYMMDDTHHMMSSZ};
 *                           checked by {@link RunIdRule} (no {@code /}, {@code \}, control characters; at most
 *                           {@value RunIdRule#MAX_LENGTH} characters)
 * @param runIdSuffix        appended to the derived run id as {@code -<suffix>} to avoid same-second collisions,
 *                           or null; the resulting id follows the same rule
 * @param workerId           id of this generator process in the events, or null for a random one
 * @param expectedWorkers    number of workers whose RunFinished completes the run (default 1)
 * @param warmup             what runs before T0 to warm the client and the target (null = {@link WarmupConfig#NONE}; the CLI defaults to {@link WarmupConfig#DEFAULTS})
 */
public record RunConfig(
        String baseUrl,
        String model,
        String engine,
        String gpu,
        int requests,
        int concurrency,
        int burst,
        int sharedPrefixTokens,
        int ctxTokens,
        long seed,
        int maxTokens,
        int maxModelLen,
        int margin,
        double timeoutS,
        ThinkingMode thinkingMode,
        boolean noThinking,
        String reasoningEffort,
        String apiKeyEnv,
        ArrivalMode arrival,
        Double rateRps,
        Integer maxInFlight,
        Double durationS,
        boolean keepAlive,
        Double rampUpS,
        String runId,
        String runIdSuffix,
        String workerId,
        int expectedWorkers,
        WarmupConfig warmup) {

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
    /** Accepted {@code --reasoning-effort} values (spec §1). */
    public static final Set<String> REASONING_EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "max", "xhigh");

    /** Canonical constructor: fills null enums with their defaults. */
    public RunConfig {
        thinkingMode = thinkingMode == null ? ThinkingMode.DEFAULT : thinkingMode;
        arrival = arrival == null ? ArrivalMode.CLOSED : arrival;
        warmup = warmup == null ? WarmupConfig.NONE : warmup;
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
        b.baseUrl = baseUrl; b.model = model; b.engine = engine; b.gpu = gpu; b.requests = requests;
        b.concurrency = concurrency; b.burst = burst; b.sharedPrefixTokens = sharedPrefixTokens;
        b.ctxTokens = ctxTokens; b.seed = seed; b.maxTokens = maxTokens; b.maxModelLen = maxModelLen;
        b.margin = margin; b.timeoutS = timeoutS; b.thinkingMode = thinkingMode; b.noThinking = noThinking;
        b.reasoningEffort = reasoningEffort; b.apiKeyEnv = apiKeyEnv; b.arrival = arrival; b.rateRps = rateRps;
        b.maxInFlight = maxInFlight; b.durationS = durationS; b.keepAlive = keepAlive; b.rampUpS = rampUpS; b.runId = runId;
        b.runIdSuffix = runIdSuffix; b.workerId = workerId; b.expectedWorkers = expectedWorkers;
        b.warmup = warmup;
        return b;
    }

    /** @return n: {@code burst} when non-zero, else {@code requests} (spec §1) */
    public int effectiveRequests() {
        return burst != 0 ? burst : requests;
    }

    /** @return conc: {@code burst} when non-zero, else {@code concurrency} (spec §1) */
    public int effectiveConcurrency() {
        return burst != 0 ? burst : concurrency;
    }

    /** @return the thinking mode sent and recorded: disabled whenever {@code --no-thinking} is set */
    public ThinkingMode resolvedThinkingMode() {
        return noThinking ? ThinkingMode.DISABLED : thinkingMode;
    }

    /** @return the open-loop in-flight cap: {@code maxInFlight}, or conc when null */
    public int effectiveMaxInFlight() {
        return maxInFlight != null ? maxInFlight : effectiveConcurrency();
    }

    /**
     * Checks every rule that does not need the endpoint (spec §1, §2.3): bounds, burst, the
     * thinking/effort combinations, the model-family guard, the aggregate prompt guard for a fixed
     * context or an explicit {@code --max-model-len}, the arrival options and the API key variable.
     * The guard for a probed window is checked by {@link RunPlanner} after the probe.
     *
     * @param env environment lookup (name to value, null when unset), e.g. {@code System::getenv}
     * @return usage error messages, empty when the config is valid; never null
     */
    public List<String> validate(Function<String, String> env) {
        List<String> errors = new ArrayList<>();
        if (baseUrl == null || baseUrl.isBlank()) {
            errors.add("--base-url is required");
        } else {
            String problem = HttpUrls.problem(baseUrl);
            if (problem != null) {
                errors.add("--base-url " + problem + ": '" + Redaction.urls(baseUrl.strip()) + "'");
            } else if (apiKeyEnv != null && HttpUrls.userInfo(baseUrl) != null) {
                errors.add("--base-url carries user:password@ and --api-key-env is set: both would be the"
                        + " Authorization header; give one");
            }
        }
        if (model == null || model.isBlank()) {
            errors.add("--model is required");
        }
        range(errors, "--requests", requests, 1, MAX_REQUESTS);
        range(errors, "--concurrency", concurrency, 1, MAX_REQUESTS);
        range(errors, "--burst", burst, 0, MAX_REQUESTS);
        range(errors, "--shared-prefix-tokens", sharedPrefixTokens, 0, 262_144);
        if (ctxTokens != 0 && (ctxTokens < 32 || ctxTokens > 1_048_576)) {
            errors.add("--ctx-tokens must be 0 or between 32 and 1048576, got " + ctxTokens);
        }
        range(errors, "--max-tokens", maxTokens, 1, 65_536);
        range(errors, "--max-model-len", maxModelLen, 0, 1_048_576);
        range(errors, "--margin", margin, 0, 1_048_576);
        if (maxModelLen != 0 && (long) maxModelLen <= (long) maxTokens + margin) {
            errors.add("--max-model-len " + maxModelLen + " must exceed --max-tokens + --margin ("
                    + ((long) maxTokens + margin) + ")");
        }
        if (!Double.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 3600) {
            errors.add("--timeout must be a finite number of seconds > 0 and <= 3600, got " + timeoutS);
        }
        String effort = reasoningEffort;
        if (effort != null) {
            if (!REASONING_EFFORTS.contains(effort)) {
                errors.add("--reasoning-effort must be one of none, minimal, low, medium, high, max, xhigh; got '" + effort + "'");
            }
            if (noThinking || thinkingMode != ThinkingMode.DEFAULT) {
                errors.add("--reasoning-effort cannot be combined with --no-thinking or --thinking-mode "
                        + resolvedThinkingMode().wireName());
            }
        }
        if (model != null) {
            modelFamilyGuard(errors, model.toLowerCase(Locale.ROOT), effort);
        }
        int n = effectiveRequests();
        if (ctxTokens != 0 || maxModelLen != 0) {
            long perRequest = ctxTokens != 0 ? ctxTokens
                    : Math.min(Math.max(0L, (long) maxModelLen - maxTokens - margin), SAMPLED_CONTEXT_CEILING);
            aggregateGuard(errors, n, perRequest);
        }
        switch (arrival) {
            case CLOSED -> {
                if (rateRps != null) {
                    errors.add("--rate needs --arrival constant or poisson");
                }
            }
            case CONSTANT, POISSON -> {
                if (rateRps == null || !Double.isFinite(rateRps) || rateRps <= 0) {
                    errors.add("--arrival " + arrival.wireName() + " needs --rate > 0 (requests per second)");
                }
            }
            default -> throw new IllegalStateException();
        }
        if (maxInFlight != null && (maxInFlight < 1 || maxInFlight > MAX_REQUESTS)) {
            errors.add("--max-in-flight must be between 1 and " + MAX_REQUESTS + ", got " + maxInFlight);
        }
        if (durationS != null && (!Double.isFinite(durationS) || durationS <= 0)) {
            errors.add("--duration must be a positive number of seconds, got " + durationS);
        }
        if (rampUpS != null) {
            if (!Double.isFinite(rampUpS) || rampUpS < 0) {
                errors.add("--ramp-up must be a duration >= 0, got " + rampUpS + " s");
            } else if (arrival != ArrivalMode.CLOSED) {
                errors.add("--ramp-up applies to the closed loop (--arrival closed), not to --arrival " + arrival.wireName());
            }
        }
        errors.addAll(warmup.validate());
        if (expectedWorkers < 1) {
            errors.add("expected workers must be >= 1, got " + expectedWorkers);
        }
        runIdRule(errors, "--run-id", runId);
        if (runId == null && runIdSuffix != null && !runIdSuffix.isBlank()) {
            String derived = RunIds.runId(java.time.Instant.EPOCH, null, runIdSuffix);
            if (derived.length() > RunIdRule.MAX_LENGTH) {
                errors.add("--run-id-suffix makes the run id " + derived.length() + " characters long, at most "
                        + RunIdRule.MAX_LENGTH);
            } else {
                runIdRule(errors, "--run-id-suffix", runIdSuffix);
            }
        }
        if (apiKeyEnv != null) {
            String value = env.apply(apiKeyEnv);
            if (value == null || value.strip().isEmpty()) {
                errors.add("--api-key-env names environment variable " + apiKeyEnv + ", which is missing or empty");
            }
        }
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

    private void modelFamilyGuard(List<String> errors, String m, String effort) {
        if (m.contains("gpt-oss")) {
            if (noThinking || thinkingMode == ThinkingMode.ENABLED || thinkingMode == ThinkingMode.DISABLED) {
                errors.add("gpt-oss models do not accept --thinking-mode enabled/disabled or --no-thinking; use --reasoning-effort");
            }
            if (effort != null && !Set.of("low", "medium", "high").contains(effort)) {
                errors.add("gpt-oss models accept --reasoning-effort low, medium or high; got '" + effort + "'");
            }
        } else if (m.contains("deepseek-v4") || m.contains("deepseek_v4")) {
            if (effort != null && !Set.of("low", "high", "max").contains(effort)) {
                errors.add("DeepSeek V4 models accept --reasoning-effort low, high or max; got '" + effort + "'");
            }
        } else if (m.contains("qwen3.8") || m.contains("qwen38")) {
            if (effort != null && !Set.of("low", "medium", "xhigh").contains(effort)) {
                errors.add("Qwen3.8 models accept --reasoning-effort low, medium or xhigh; got '" + effort + "'");
            }
        } else if (m.contains("qwen")) {
            if (effort != null) {
                errors.add("Qwen models do not accept --reasoning-effort; use --thinking-mode");
            }
        }
    }

    /** Adds the {@link RunIdRule} problem of {@code id}, naming the option; shows the id only when it is printable. */
    private static void runIdRule(List<String> errors, String option, String id) {
        String problem = RunIdRule.problem(id);
        if (problem != null) {
            errors.add(option + " " + problem + (problem.startsWith("must not contain '") ? ": '" + id + "'" : ""));
        }
    }

    private static void range(List<String> errors, String name, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            errors.add(name + " must be between " + lo + " and " + hi + ", got " + v);
        }
    }

    /** Mutable builder with the reference's defaults (spec §1). Not thread-safe. */
    public static final class Builder {
        private String baseUrl;
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

        private Builder() {
        }

        /** @param v endpoint base URL @return this */
        public Builder baseUrl(String v) { this.baseUrl = v; return this; }
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

        /** @return the config (not validated: call {@link RunConfig#validate(Function)}) */
        public RunConfig build() {
            return new RunConfig(baseUrl, model, engine, gpu, requests, concurrency, burst, sharedPrefixTokens,
                    ctxTokens, seed, maxTokens, maxModelLen, margin, timeoutS, thinkingMode, noThinking,
                    reasoningEffort, apiKeyEnv, arrival, rateRps, maxInFlight, durationS, keepAlive, rampUpS, runId,
                    runIdSuffix, workerId, expectedWorkers, warmup);
        }
    }
}
