package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.InputBatch;
import io.capstream.loadgen.workload.ThinkingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the endpoints that take a batch of inputs (issue 30): {@code --batch} belongs to
 * {@code --endpoint embeddings} and {@code rerank}, and those endpoints generate nothing, so the options about
 * generation, conversations and chat content are refused with them: {@code --turns} / {@code --tools}, the thinking
 * options, {@code --max-tokens} / {@code --output-tokens}, {@code --cancel-rate} (there is no stream
 * to close), {@code --dataset} / {@code --trace} (chat messages and output lengths) and a
 * {@code --shared-prefix-tokens} (the inputs are distinct passages); {@code --images} is refused by
 * {@link PayloadShape#imageProblems}. {@code --max-tokens} is refused when it is not
 * its default ({@value RunConfig#DEFAULT_MAX_TOKENS}), {@code --shared-prefix-tokens} when it is neither its default
 * nor 0: the run's configuration cannot tell a default from the same value given. Every problem is a one-line usage
 * error, found before anything is sent. A {@code --batch} below 1 (rerank without documents) is
 * {@link PayloadShape#problems}'s.
 */
final class InputsRules {
    private InputsRules() {
    }

    /**
     * @param config the run; not null
     * @return one usage error per problem; empty when valid; never null
     */
    static List<String> problems(RunConfig config) {
        ApiEndpoint endpoint = config.target().endpoint();
        List<String> errors = new ArrayList<>();
        if (endpoint.streamed()) {
            if (config.payload().batch() != null) {
                errors.add("--batch applies to --endpoint embeddings or rerank (inputs or documents per request)");
            }
            return errors;
        }
        String with = " with --endpoint " + endpoint.label() + " (" + (endpoint == ApiEndpoint.RERANK
                ? "it ranks documents" : "it embeds inputs") + " and generates nothing)";
        RequestShape request = config.request();
        if (config.conversation().conversations()) {
            errors.add("--turns and --tools do not apply" + with);
        }
        if (request.noThinking() || request.thinkingMode() == ThinkingMode.ENABLED
                || request.thinkingMode() == ThinkingMode.DISABLED || request.reasoningEffort() != null) {
            errors.add("--thinking-mode, --no-thinking and --reasoning-effort do not apply" + with);
        }
        if (request.maxTokens() != RunConfig.DEFAULT_MAX_TOKENS || request.outputTokens() != null) {
            errors.add("--max-tokens and --output-tokens do not apply" + with);
        }
        // --images: PayloadShape.imageProblems says it for every endpoint without user messages (not twice)
        if (config.cancel().active()) {
            errors.add("--cancel-rate does not apply" + with + ": there is no stream to close");
        }
        if (config.load().arrival() == ArrivalMode.TRACE) {
            errors.add("--trace does not apply" + with + "; use --input-tokens for the input lengths");
        } else if (request.dataset() != null) {
            errors.add("--dataset does not apply" + with + "; use --input-tokens for the input lengths");
        }
        if (request.sharedPrefixTokens() != 0 && request.sharedPrefixTokens() != RunConfig.DEFAULT_SHARED_PREFIX_TOKENS) {
            errors.add("--shared-prefix-tokens does not apply" + with + ": every input is a distinct passage");
        }
        if (request.extraBody() != null) {
            for (String name : InputBatch.RESERVED.stream().sorted().toList()) {
                if (request.extraBody().has(name)) {
                    errors.add("--extra-body may not set \"" + name + "\" with --endpoint " + endpoint.label()
                            + ": capstream sets it");
                }
            }
        }
        return errors;
    }

    /**
     * @param config the run; not null
     * @return the inputs (documents) each request carries: {@code --batch} (default 1) for embeddings and rerank,
     *         1 for the streamed endpoints; what the aggregate prompt guard multiplies the input length by
     */
    static int inputsPerRequest(RunConfig config) {
        Integer batch = config.payload().batch();
        return config.target().endpoint().streamed() || batch == null ? 1 : Math.max(1, batch);
    }

    /**
     * The planned input length of a run that gives none: {@code --ctx-tokens} when set, else for embeddings and rerank
     * {@value InputBatch#DEFAULT_INPUT_TOKENS} tokens, else 0 (the reference's context distribution).
     *
     * @param config the run; not null
     * @return the fixed context of every request, tokens, or 0 to sample the reference's distribution
     */
    static int contextTokens(RunConfig config) {
        int ctx = config.request().ctxTokens();
        return ctx != 0 || config.target().endpoint().streamed() ? ctx : InputBatch.DEFAULT_INPUT_TOKENS;
    }

    /**
     * @param config  the run; not null
     * @param largest the largest {@code max_tokens} of any request, tokens
     * @return the output tokens a context window keeps free below the prompt cap ({@code window - output - margin}):
     *         {@code largest}, or 0 for embeddings and rerank, which send no {@code max_tokens} and generate nothing
     */
    static int reservedOutput(RunConfig config, int largest) {
        return config.target().endpoint().streamed() ? largest : 0;
    }
}
