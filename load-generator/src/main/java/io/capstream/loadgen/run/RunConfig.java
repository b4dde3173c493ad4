package io.capstream.loadgen.run;

import io.capstream.loadgen.stop.StopRules;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Every parameter of one load-generator run, grouped by concern: the {@link TargetConfig target}
 * (endpoint, model, connection), the {@link LoadShape load shape} (how many requests, when), the
 * {@link RequestShape request shape} (prompt and completion), the {@link RunIdentity run identity}
 * (ids, labels, seed) and the {@link WarmupConfig warm-up}. Names and defaults are the reference's
 * ({@code anvil-serving eval benchmark capacity}, spec §1); capstream adds the arrival process,
 * keep-alive, a time bound and run-id control. Bounds are wider than the reference where capstream
 * can do more (requests, concurrency and burst up to {@value #MAX_REQUESTS}).
 *
 * <p>Build with {@link #of(TargetConfig)} and the {@code with...} methods (each group builds itself: its
 * {@code DEFAULTS} and {@code with...} methods); check with {@link #validate(Function)} before
 * anything is sent (violations are usage errors, exit code 2): every group checks itself, and
 * {@link RunValidator} composes those checks with the rules that span groups (model-family guard, aggregate
 * prompt guard). A value is
 * read through its group ({@code config.load().requests()}, {@code config.target().model()}).
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
 * @param conversation turns, think time, tools and session header of the conversations (issue 29; null =
 *                 {@link ConversationShape#NONE}, the single-turn run)
 * @param cancel   which requests the client cancels, and when (issue 30; null = {@link CancelShape#NONE})
 * @param stop     the stop rules checked while the run sends (issue 30; null = {@link StopRules#NONE})
 * @param payload  images and embeddings/rerank batch size (issue 30; null = {@link PayloadShape#NONE})
 */
public record RunConfig(TargetConfig target, LoadShape load, RequestShape request, RunIdentity identity,
                        WarmupConfig warmup, ReportContext report, ServerMetricsConfig serverMetrics,
                        ConversationShape conversation, CancelShape cancel, StopRules stop, PayloadShape payload) {

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
        conversation = conversation == null ? ConversationShape.NONE : conversation;
        cancel = cancel == null ? CancelShape.NONE : cancel;
        stop = stop == null ? StopRules.NONE : stop;
        payload = payload == null ? PayloadShape.NONE : payload;
    }

    /**
     * A run without cancellations, stop rules or payload (the groups before issue 30).
     *
     * @see #RunConfig(TargetConfig, LoadShape, RequestShape, RunIdentity, WarmupConfig, ReportContext,
     *      ServerMetricsConfig, ConversationShape, CancelShape, StopRules, PayloadShape)
     */
    public RunConfig(TargetConfig target, LoadShape load, RequestShape request, RunIdentity identity,
                     WarmupConfig warmup, ReportContext report, ServerMetricsConfig serverMetrics,
                     ConversationShape conversation) {
        this(target, load, request, identity, warmup, report, serverMetrics, conversation, null, null, null);
    }

    /**
     * A single-turn run ({@link ConversationShape#NONE}).
     *
     * @param target        endpoint, model and connection; not null
     * @param load          number and timing of the requests; not null
     * @param request       prompt and completion of each request; not null
     * @param identity      run id, worker id, labels and seed; not null
     * @param warmup        warm-up, null = none
     * @param report        SLOs and sweep step, null = none
     * @param serverMetrics server-metrics scraping, null = off
     */
    public RunConfig(TargetConfig target, LoadShape load, RequestShape request, RunIdentity identity,
                     WarmupConfig warmup, ReportContext report, ServerMetricsConfig serverMetrics) {
        this(target, load, request, identity, warmup, report, serverMetrics, ConversationShape.NONE);
    }

    /**
     * A run against {@code target} with every other group's defaults: {@link LoadShape#DEFAULTS},
     * {@link RequestShape#DEFAULTS}, {@link RunIdentity#DEFAULTS}, no warm-up ({@link WarmupConfig#NONE}), no
     * report context ({@link ReportContext#NONE}), no server metrics ({@link ServerMetricsConfig#OFF}). Change a
     * group with {@link #withLoad}, {@link #withRequest}, ... and the group's own {@code with...} methods.
     *
     * @param target endpoint, model and connection; not null
     * @return the config (not validated: {@link #validate(Function)})
     */
    public static RunConfig of(TargetConfig target) {
        return new RunConfig(target, LoadShape.DEFAULTS, RequestShape.DEFAULTS, RunIdentity.DEFAULTS, WarmupConfig.NONE,
                ReportContext.NONE, ServerMetricsConfig.OFF);
    }

    /**
     * Binds the base URL of a target whose address was not known when the options were resolved (the
     * simulated engine, once it listens).
     *
     * @param baseUrl the endpoint base URL; not null
     * @return a copy targeting {@code baseUrl}
     */
    public RunConfig withBaseUrl(String baseUrl) {
        return new RunConfig(target.withBaseUrl(baseUrl), load, request, identity, warmup, report, serverMetrics,
                conversation, cancel, stop, payload);
    }

    /** @param v the new target; not null @return a copy with it */
    public RunConfig withTarget(TargetConfig v) {
        return new RunConfig(v, load, request, identity, warmup, report, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /** @param v the new server-metrics scraping, null = off @return a copy with it */
    public RunConfig withServerMetrics(ServerMetricsConfig v) {
        return new RunConfig(target, load, request, identity, warmup, report, v, conversation,
                cancel, stop, payload);
    }

    /** @param v the new conversation group, null = single-turn @return a copy with it */
    public RunConfig withConversation(ConversationShape v) {
        return new RunConfig(target, load, request, identity, warmup, report, serverMetrics, v, cancel, stop,
                payload);
    }

    /** @param v the new cancellation group, null = none @return a copy with it */
    public RunConfig withCancel(CancelShape v) {
        return new RunConfig(target, load, request, identity, warmup, report, serverMetrics, conversation, v, stop,
                payload);
    }

    /** @param v the new stop rules, null = none @return a copy with them */
    public RunConfig withStop(StopRules v) {
        return new RunConfig(target, load, request, identity, warmup, report, serverMetrics, conversation, cancel,
                v, payload);
    }

    /** @param v the new payload group, null = none @return a copy with it */
    public RunConfig withPayload(PayloadShape v) {
        return new RunConfig(target, load, request, identity, warmup, report, serverMetrics, conversation, cancel,
                stop, v);
    }

    /** @param change the change of the conversation group; not null @return a copy with the changed group */
    public RunConfig withConversation(UnaryOperator<ConversationShape> change) {
        return withConversation(change.apply(conversation));
    }

    /** @param v the new load shape; not null @return a copy with it */
    public RunConfig withLoad(LoadShape v) {
        return new RunConfig(target, v, request, identity, warmup, report, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /** @param v the new run identity; not null @return a copy with it */
    public RunConfig withIdentity(RunIdentity v) {
        return new RunConfig(target, load, request, v, warmup, report, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /** @param v the new request shape; not null @return a copy with it */
    public RunConfig withRequest(RequestShape v) {
        return new RunConfig(target, load, v, identity, warmup, report, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /** @param v the new warm-up, null = none @return a copy with it */
    public RunConfig withWarmup(WarmupConfig v) {
        return new RunConfig(target, load, request, identity, v, report, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /** @param v the new report context (SLOs, sweep step), null = none @return a copy with it */
    public RunConfig withReport(ReportContext v) {
        return new RunConfig(target, load, request, identity, warmup, v, serverMetrics, conversation,
                cancel, stop, payload);
    }

    /**
     * Changes groups in place of a builder, e.g. {@code config.withLoad(l -> l.withRequests(5).withConcurrency(2))}.
     *
     * @param change the change of the target, e.g. {@code t -> t.withKeepAlive(true)}; not null
     * @return a copy with the changed target
     */
    public RunConfig withTarget(UnaryOperator<TargetConfig> change) {
        return withTarget(change.apply(target));
    }

    /** @param change the change of the load shape; not null @return a copy with the changed load shape */
    public RunConfig withLoad(UnaryOperator<LoadShape> change) {
        return withLoad(change.apply(load));
    }

    /** @param change the change of the request shape; not null @return a copy with the changed request shape */
    public RunConfig withRequest(UnaryOperator<RequestShape> change) {
        return withRequest(change.apply(request));
    }

    /** @param change the change of the run identity; not null @return a copy with the changed identity */
    public RunConfig withIdentity(UnaryOperator<RunIdentity> change) {
        return withIdentity(change.apply(identity));
    }

    /** @param change the change of the report context; not null @return a copy with the changed context */
    public RunConfig withReport(UnaryOperator<ReportContext> change) {
        return withReport(change.apply(report));
    }

    /**
     * Checks every rule that does not need the endpoint: {@link RunValidator#problems}, the one place that
     * validates a whole run (each group's own rules and the rules that span groups).
     *
     * @param env environment lookup (name to value, null when unset), e.g. {@code System::getenv}
     * @return usage error messages, every problem found; empty when the config is valid; never null
     */
    public List<String> validate(Function<String, String> env) {
        return RunValidator.problems(this, env);
    }
}
