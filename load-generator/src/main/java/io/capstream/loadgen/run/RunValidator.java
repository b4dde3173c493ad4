package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.BodyControls;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The one place that validates a whole run (spec §1, §2.1, §2.3): it composes each group's own checks
 * ({@link TargetConfig#problems}, {@link LoadShape#problems}, {@link RequestShape#problems},
 * {@link WarmupConfig#validate}, {@link RunIdentity#problems}) with the rules that span groups (model-family
 * guard, completions-endpoint rules, the aggregate prompt guard), and holds the rules that need the endpoint's
 * window ({@link #windowProblem}) for {@link RunPlanner} after the probe. Every problem is a one-line usage
 * error (exit code 2), found before any request is sent.
 */
public final class RunValidator {
    private RunValidator() {
    }

    /**
     * Checks every rule that does not need the endpoint: each group's own rules, the model-family guard
     * ({@link RequestShape#modelProblems}), the completions endpoint's limits, the aggregate prompt guard for a
     * fixed context or an explicit {@code --max-model-len}, the warm-up and the run identity. A simulated
     * target whose URL is not bound yet is checked without it. The window rule and the guard for a probed
     * window are {@link #windowProblem}'s and {@link RunPlanner}'s, after the probe.
     *
     * @param config the run; not null
     * @param env    environment lookup (name to value, null when unset), e.g. {@code System::getenv}
     * @return usage error messages, every problem found, grouped in the order target, load shape,
     *         request shape, cross-group rules, warm-up, identity; empty when the config is valid; never null
     */
    public static List<String> problems(RunConfig config, Function<String, String> env) {
        TargetConfig target = config.target();
        LoadShape load = config.load();
        RequestShape request = config.request();
        List<String> errors = new ArrayList<>(target.problems(env));
        errors.addAll(load.problems());
        int reserved = InputsRules.reservedOutput(config, request.maxTokens());
        errors.addAll(request.problems(load.arrival() == ArrivalMode.TRACE ? "--trace" : "--dataset", reserved));
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
        errors.addAll(apiProblems(target.endpoint(), request));
        if (!request.perRequestLengths() && (request.ctxTokens() != 0 || request.maxModelLen() != 0)) {
            long perRequest = request.ctxTokens() != 0 ? request.ctxTokens()
                    : Math.min(Math.max(0L, request.promptCap(request.maxModelLen(), reserved)), RunConfig.SAMPLED_CONTEXT_CEILING);
            aggregateGuard(errors, load.effectiveRequests(), InputsRules.inputsPerRequest(config), perRequest);
        }
        errors.addAll(conversationProblems(config));
        errors.addAll(config.cancel().problems());
        errors.addAll(config.stop().problems());
        errors.addAll(config.payload().problems());
        errors.addAll(config.payload().imageProblems(target.endpoint(), request.dataset() != null));
        errors.addAll(InputsRules.problems(config));
        errors.addAll(config.warmup().validate());
        errors.addAll(config.identity().problems());
        return errors;
    }

    /**
     * The conversation group's rules (issue 29): its own values ({@link ConversationShape#problems}), the tools
     * file (a JSON array of OpenAI-style tools), and the options conversations cannot be combined with.
     *
     * @param config the run; not null
     * @return one usage error message per problem; empty when valid; never null
     */
    static List<String> conversationProblems(RunConfig config) {
        ConversationShape conv = config.conversation();
        List<String> errors = new ArrayList<>(conv.problems(config.target().endpoint(),
                config.request().dataset() != null));
        if (conv.tools() != null) {
            try {
                io.capstream.loadgen.conversation.ToolDefinitions.read(conv.tools());
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
        }
        if (conv.multiTurn() && config.request().dataset() != null && config.load().arrival() != ArrivalMode.TRACE) {
            errors.add("--turns applies to synthetic prompts: a multi-turn --dataset gives each conversation its own"
                    + " turns");
        }
        if (conv.conversations()) {
            LoadShape load = config.load();
            if (load.arrival() == ArrivalMode.TRACE) {
                errors.add("--turns and --tools cannot be combined with --trace (a trace's lines are single requests)");
            }
            if (load.burst() != 0) {
                errors.add("--turns and --tools cannot be combined with --burst (a burst is single requests at once)");
            }
        }
        return errors;
    }

    /**
     * The rules of the Responses and Messages APIs (issue 29): the Messages API has no reasoning effort, and
     * {@code --extra-body} may not set a member these APIs' bodies get from capstream
     * ({@link BodyControls#extraBodyProblem}).
     *
     * @param endpoint the API
     * @param request  the request shape
     * @return one-line usage errors; empty for chat and completions
     */
    static List<String> apiProblems(ApiEndpoint endpoint, RequestShape request) {
        List<String> errors = new ArrayList<>();
        if (endpoint == ApiEndpoint.MESSAGES && request.reasoningEffort() != null) {
            errors.add("--reasoning-effort applies to --endpoint chat or responses (the Messages API has no effort"
                    + " setting; use --thinking-mode, or --extra-body for Anthropic's thinking budget)");
        }
        if (request.extraBody() != null) {
            String p = BodyControls.extraBodyProblem(endpoint, request.extraBody());
            if (p != null) {
                errors.add(p);
            }
        }
        return errors;
    }

    /**
     * The rules that need the context window once it is known (spec §2.1): the window rule
     * ({@link RequestShape#windowProblem(String, long, int)}, naming the window {@code max model length}) and a
     * fixed {@code --ctx-tokens} against the prompt cap ({@link RequestShape#ctxAboveCap}). {@link #problems}
     * already checked both for an explicit {@code --max-model-len} with one {@code max_tokens} for every request,
     * so {@link RunPlanner} asks only for a probed window or per-request lengths.
     *
     * @param config  the run; not null
     * @param window  the explicit or probed window, tokens
     * @param largest the largest {@code max_tokens} of any request, tokens; 0 for embeddings and rerank
     *                ({@link InputsRules#reservedOutput})
     * @return the first problem, or null when the window fits
     */
    public static String windowProblem(RunConfig config, int window, int largest) {
        RequestShape request = config.request();
        String problem = request.windowProblem("max model length", window, largest);
        if (problem != null) {
            return problem;
        }
        String source = request.maxModelLen() != 0 ? "--max-model-len " + window
                : "the model's window " + window + " (GET /models)";
        return request.ctxAboveCap(source, window, largest);
    }

    /**
     * @param config the run; not null
     * @return whether {@link #problems} already checked the window rules of {@link #windowProblem} (an explicit
     *         {@code --max-model-len}, one {@code max_tokens} and the context plan for every request)
     */
    static boolean windowChecked(RunConfig config) {
        return config.request().maxModelLen() != 0 && !config.request().perRequestLengths();
    }

    /**
     * Aggregate prompt guard (spec §1): {@code n × perRequest ≤ }{@value RunConfig#AGGREGATE_PROMPT_LIMIT}.
     *
     * @param errors     where to add the message
     * @param n          planned requests
     * @param perRequest the unclamped fixed context, or min(cap or 262144, 262144), tokens
     */
    static void aggregateGuard(List<String> errors, int n, long perRequest) {
        aggregateGuard(errors, n, 1, perRequest);
    }

    /**
     * Aggregate prompt guard of a run whose requests carry {@code inputs} inputs each ({@code --batch} of
     * {@code --endpoint embeddings|rerank}; 1 otherwise): {@code n × inputs × perInput ≤ }
     * {@value RunConfig#AGGREGATE_PROMPT_LIMIT} tokens. It also bounds one request's body (at most the limit's
     * tokens, about 200 MB of text), which a {@code --batch} in the millions would otherwise push past what one
     * Java array holds.
     *
     * @param errors   where to add the message
     * @param n        planned requests
     * @param inputs   inputs (documents) per request, &gt;= 1
     * @param perInput tokens of each input (the unclamped fixed context, or the largest planned one)
     */
    static void aggregateGuard(List<String> errors, int n, int inputs, long perInput) {
        long count = (long) n * Math.max(1, inputs);
        // a count past the limit (a --batch in the millions) could overflow a long when multiplied: no need to
        boolean countOver = count > RunConfig.AGGREGATE_PROMPT_LIMIT;
        if (perInput <= 0 || !countOver && count * perInput <= RunConfig.AGGREGATE_PROMPT_LIMIT) {
            return;
        }
        String total = countOver ? "more than " + RunConfig.AGGREGATE_PROMPT_LIMIT : Long.toString(count * perInput);
        errors.add("aggregate prompt guard: " + n + " requests x " + (inputs > 1 ? inputs + " inputs x " : "")
                + perInput + " context tokens = " + total + " exceeds " + RunConfig.AGGREGATE_PROMPT_LIMIT + " tokens"
                + (inputs > 1 ? " (lower --batch, --requests or the input length)" : ""));
    }
}
