package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalSchedule;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.loadgen.workload.Dataset;
import io.capstream.loadgen.workload.EndpointPreflight;
import io.capstream.loadgen.workload.RequestPlan;
import io.capstream.schemas.text.HttpUrls;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Resolves a {@link RunConfig} into a {@link RunPlan} (spec §1, §2.1, §3.1): validation (the rules are
 * {@link RunValidator}'s; {@link #plan} checks a config once more there, the gate for callers that did not), API key
 * (or the basic-auth credentials of the base URL's {@code user:password@}),
 * the endpoint check ({@link EndpointPreflight}: the {@code GET /models} probe, whose window is used when
 * {@code --max-model-len} is 0), prompt cap, the aggregate prompt guard and the context plan. Any violation,
 * and an endpoint no request could reach (refused, TLS, a base URL missing its {@code /v1}), is a
 * {@link UsageException}; no chat request is sent (the check's {@code POST {}} is not one).
 *
 * <p>Number of planned requests n: {@code burst} or {@code requests}; for an open loop with
 * {@code --duration}, the number of scheduled arrivals before the duration (at most
 * {@link RunConfig#MAX_REQUESTS}); for a closed loop with {@code --duration}, {@code requests} is
 * the upper bound.
 *
 * <p>With {@code --dataset}, {@code --input-tokens} or {@code --output-tokens} the plan also holds each request's
 * {@code max_tokens} and messages ({@link RequestPlan}); the window rule and the prompt cap then use the largest
 * {@code max_tokens} of any request. The dataset is read on the calling thread, before the probe.
 */
public final class RunPlanner {
    private RunPlanner() {
    }

    /**
     * @param vertx  Vert.x (for the probe)
     * @param config parameters
     * @param env    environment lookup
     * @return the plan, or a future failed with {@link UsageException} (invalid parameters) or
     *         {@link IllegalStateException} (a simulated target whose base URL is not bound yet)
     */
    public static CompletableFuture<RunPlan> plan(Vertx vertx, RunConfig config, Function<String, String> env) {
        return plan(vertx, config, env, true);
    }

    /**
     * @param vertx         Vert.x (for the probe)
     * @param config        parameters
     * @param env           environment lookup
     * @param endpointFatal whether an endpoint no request could reach fails the plan; when false its problem
     *                      is the plan's warning and the window is unknown (the reference's silent probe)
     * @return as {@link #plan(Vertx, RunConfig, Function)}
     */
    public static CompletableFuture<RunPlan> plan(Vertx vertx, RunConfig config, Function<String, String> env,
                                                  boolean endpointFatal) {
        if (config.target().unbound()) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("the simulated target's base URL is not bound (RunConfig.withBaseUrl)"));
        }
        List<String> errors = RunValidator.problems(config, env);
        if (!errors.isEmpty()) {
            return CompletableFuture.failedFuture(new UsageException(errors));
        }
        ApiKey key = credentials(config, env);
        WorkloadPlanner.Inputs inputs;
        try {
            inputs = WorkloadPlanner.inputs(config, plannedRequests(config));
        } catch (UsageException e) {
            return CompletableFuture.failedFuture(e);
        }
        boolean explicit = config.request().maxModelLen() != 0;
        CompletableFuture<RunPlan> out = new CompletableFuture<>();
        EndpointPreflight.check(vertx, config.target().baseUrl(), config.target().endpoint(),
                config.target().model(), key, config.target().headers(), !explicit, config.target().tls().clientTls())
                .onComplete(ar -> {
            EndpointPreflight.Outcome probe = ar.succeeded() ? ar.result()
                    : new EndpointPreflight.Outcome(null, null, List.of());
            if (probe.problem() != null && endpointFatal) {
                out.completeExceptionally(new UsageException(probe.problem()));
                return;
            }
            Integer mml = explicit ? Integer.valueOf(config.request().maxModelLen()) : probe.window();
            List<String> warnings = probe.problem() == null ? probe.warnings() : List.of(probe.problem());
            complete(config, mml, key, inputs).whenComplete((p, e) -> {
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(p.withWarnings(warnings));
                }
            });
        });
        return out;
    }

    /**
     * @param config a validated config
     * @param env    environment lookup
     * @return the key of {@code --api-key-env}, else the {@code user:password@} of the base URL as
     *         basic auth, else none (the validation rejects both at once)
     */
    static ApiKey credentials(RunConfig config, Function<String, String> env) {
        if (config.target().apiKeyEnv() != null) {
            return ApiKey.fromEnv(config.target().apiKeyEnv(), env);
        }
        return ApiKey.basic(HttpUrls.userInfo(config.target().baseUrl()));
    }

    /**
     * The part after the probe (spec §2.1 cap, §1 aggregate guard, §3.1 plan). The window rules are
     * {@link RunValidator#windowProblem}'s, for a window {@link RunValidator#problems} did not check.
     *
     * @param config      parameters (already validated)
     * @param maxModelLen explicit or probed window in tokens, or null
     * @param key         API key
     * @return the plan, or a future failed with {@link UsageException}
     */
    public static CompletableFuture<RunPlan> complete(RunConfig config, Integer maxModelLen, ApiKey key) {
        try {
            return complete(config, maxModelLen, key, WorkloadPlanner.inputs(config, plannedRequests(config)));
        } catch (UsageException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * As {@link #complete(RunConfig, Integer, ApiKey)}, with the {@code --dataset} and {@code --tokenizer} already
     * read.
     *
     * @param config      parameters (already validated)
     * @param maxModelLen explicit or probed window in tokens, or null
     * @param key         API key
     * @param inputs      the dataset's entries and the synthetic prompts' scale
     * @return the plan, or a future failed with {@link UsageException}
     */
    static CompletableFuture<RunPlan> complete(RunConfig config, Integer maxModelLen, ApiKey key,
                                               WorkloadPlanner.Inputs inputs) {
        Dataset dataset = inputs.dataset();
        long[] arrivals = inputs.arrivalOffsetsNs();
        // a trace has as many requests as lines, up to --requests
        int n = arrivals == null ? plannedRequests(config) : Math.min(plannedRequests(config), arrivals.length);
        if (dataset != null && dataset.multiTurn() && config.load().durationS() != null
                && config.load().arrival() != io.capstream.loadgen.arrival.ArrivalMode.CLOSED) {
            // --rate starts conversations: the arrivals within --duration are conversations, n their turns
            n = io.capstream.loadgen.conversation.DatasetConversations.requestsOf(dataset, n, RunConfig.MAX_REQUESTS);
        }
        RequestPlan requests = RequestPlan.of(dataset, WorkloadPlanner.maxTokens(config, n, dataset),
                inputs.promptScale(), inputs.tokenizer());
        if (arrivals != null) {
            requests = requests.withArrivals(java.util.Arrays.copyOf(arrivals, n));
        }
        if (dataset != null && !dataset.multiTurn()) {
            // RunValidator left these to the plan: a multi-turn dataset's conversations take them
            List<String> single = config.conversation().needConversations(
                    config.load().arrival() == io.capstream.loadgen.arrival.ArrivalMode.TRACE
                            ? " (a --trace's lines are single requests)"
                            : " (--dataset " + dataset.name() + " holds single prompts)");
            if (!single.isEmpty()) {
                return CompletableFuture.failedFuture(new UsageException(single));
            }
        }
        if (dataset != null && !dataset.multiTurn() && config.conversation().tools() != null) {
            return CompletableFuture.failedFuture(new UsageException("--tools with --dataset needs a multi-turn dataset"
                    + " (--dataset " + dataset.name() + " holds single prompts)"));
        }
        // the output tokens the window keeps free: none for embeddings and rerank
        int largest = InputsRules.reservedOutput(config, requests.largestMaxTokens(config.request().maxTokens()));
        Integer cap = null;
        if (maxModelLen != null) {
            // an explicit window with one max_tokens for every request was checked by RunValidator.problems
            String window = RunValidator.windowChecked(config) && maxModelLen == config.request().maxModelLen() ? null
                    : RunValidator.windowProblem(config, maxModelLen, largest);
            if (window != null) {
                return CompletableFuture.failedFuture(new UsageException(window));
            }
            cap = (int) config.request().promptCap(maxModelLen, largest);
        }
        List<String> errors = new ArrayList<>();
        ContextPlan contexts;
        if (dataset != null || config.request().inputTokens() != null) {
            String mean = inputMeanAboveCap(config, dataset, cap, maxModelLen, largest);
            if (mean != null) {
                errors.add(mean);
            }
            int[] planned = WorkloadPlanner.planned(config, n, dataset, cap, errors);
            RunValidator.aggregateGuard(errors, n, InputsRules.inputsPerRequest(config),
                    java.util.Arrays.stream(planned).max().orElse(0));
            contexts = ContextPlan.of(planned, cap);
        } else {
            long perRequest = InputsRules.contextTokens(config) != 0 ? InputsRules.contextTokens(config)
                    : Math.min(cap == null ? RunConfig.SAMPLED_CONTEXT_CEILING : cap, RunConfig.SAMPLED_CONTEXT_CEILING);
            RunValidator.aggregateGuard(errors, n, InputsRules.inputsPerRequest(config), perRequest);
            contexts = null;
        }
        if (n == 0) {
            errors.add("--duration " + config.load().durationS() + " s at " + (config.load().rateSchedule() == null
                    ? "--rate " + config.load().rateRps() : "--rate-schedule " + config.load().rateSchedule().canonical())
                    + " schedules no request");
        }
        if (!errors.isEmpty()) {
            return CompletableFuture.failedFuture(new UsageException(errors));
        }
        if (contexts == null) {
            contexts = ContextPlan.build(n, InputsRules.contextTokens(config), config.identity().seed(), cap);
        }
        String outgrown = conversationsOverWindow(config, n, contexts, requests, maxModelLen);
        if (outgrown != null) {
            return CompletableFuture.failedFuture(new UsageException(outgrown));
        }
        return CompletableFuture.completedFuture(new RunPlan(config, maxModelLen, contexts, key, requests));
    }

    /**
     * An {@code --input-tokens} mean above the prompt cap of a known window is refused, as a fixed
     * {@code --ctx-tokens} is: clamping every draw to the cap would send prompts of the cap's length while the report
     * records the asked-for mean. Draws of a mean within the cap are still clamped to it.
     *
     * @param config  the run
     * @param dataset the run's dataset, or null (then {@code --input-tokens} gives the lengths)
     * @param cap     the prompt cap, tokens, or null when the window is unknown
     * @param window  the window the cap comes from, tokens (when {@code cap} is not null)
     * @param largest the largest {@code max_tokens} of any request, tokens; 0 for embeddings and rerank
     * @return the one-line usage error, or null
     */
    static String inputMeanAboveCap(RunConfig config, Dataset dataset, Integer cap, Integer window, int largest) {
        io.capstream.loadgen.workload.LengthDistribution in = config.request().inputTokens();
        if (dataset != null || in == null || cap == null || Math.round(in.mean()) <= cap) {
            return null;
        }
        String source = config.request().maxModelLen() != 0 ? "--max-model-len " + window
                : "the model's window " + window + " (GET /models)";
        return "--input-tokens mean " + Math.round(in.mean()) + " exceeds the prompt cap of " + cap + " tokens = "
                + source + (largest == 0 ? "" : " - max_tokens " + largest) + " - --margin " + config.request().margin()
                + ": every prompt would be cut to " + cap + "; lower the mean (at most " + cap
                + (largest == 0 ? "), or --margin" : "), or --max-tokens or --margin");
    }

    /**
     * Synthetic conversations whose planned history outgrows the window (issue 29): a conversation's last turn sends
     * every turn's planned context and every earlier answer at its {@code max_tokens}, and asks for its own
     * {@code max_tokens}; when that is more than the window, the conversation could only end early, so the run is
     * refused before anything is sent (a conversation that outgrows the window only by its actual answers ends
     * mid-run instead, with {@code conversation_end}).
     *
     * @return a one-line usage error, or null when every conversation fits (or the window is unknown)
     */
    static String conversationsOverWindow(RunConfig config, int n, ContextPlan contexts, RequestPlan requests,
                                          Integer window) {
        ConversationShape conv = config.conversation();
        if (window == null || !conv.multiTurn() || requests.dataset() != null) {
            return null;
        }
        int[] turns = io.capstream.loadgen.conversation.SyntheticConversations.draw(n, conv.turns(),
                config.identity().seed());
        int over = 0;
        String first = null;
        int start = 0;
        for (int c = 0; c < turns.length; c++) {
            long total = 0;
            for (int i = start; i < start + turns[c]; i++) {
                total += contexts.planned(i) + requests.maxTokens(i, config.request().maxTokens());
            }
            if (total > window && over++ == 0) {
                first = "conversation " + c + " (" + turns[c] + " turns) plans " + total + " tokens";
            }
            start += turns[c];
        }
        if (over == 0) {
            return null;
        }
        return "--turns " + conv.turns().label().replaceAll(",0$", "") + ": " + over + " of " + turns.length
                + " conversation(s) outgrow the context window of " + window + " tokens (every turn's planned context"
                + " plus max_tokens); first: " + first + "; give a smaller --ctx-tokens or --input-tokens";
    }

    /**
     * @param config parameters
     * @return n (see the class comment)
     */
    public static int plannedRequests(RunConfig config) {
        LoadShape load = config.load();
        boolean open = load.arrival() != io.capstream.loadgen.arrival.ArrivalMode.CLOSED
                && load.arrival() != io.capstream.loadgen.arrival.ArrivalMode.TRACE;
        // a rate schedule whose last rate is 0 offers a finite number of arrivals: the run ends after them
        boolean finite = open && load.rateSchedule() != null
                && load.rateSchedule().rateAt(Double.POSITIVE_INFINITY) == 0;
        if (open && (load.durationS() != null || finite)) {
            // without --duration (a schedule ending at 0) --requests still bounds the run, in requests (turns)
            int cap = load.durationS() == null ? load.effectiveRequests() : RunConfig.MAX_REQUESTS;
            boolean conversations = config.conversation().multiTurn();
            int arrivals = ArrivalSchedule.countWithin(load.arrivalProcess(), config.identity().seed(),
                    load.durationS() == null ? Long.MAX_VALUE : (long) (load.durationS() * 1e9),
                    conversations ? RunConfig.MAX_REQUESTS : cap);
            // with conversations the rate starts conversations: n is their turns added up
            return conversations ? io.capstream.loadgen.conversation.SyntheticConversations.requestsOf(arrivals,
                    config.conversation().turns(), config.identity().seed(), cap) : arrivals;
        }
        return load.effectiveRequests();
    }
}
