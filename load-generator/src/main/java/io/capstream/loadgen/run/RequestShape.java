package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.DatasetReader;
import io.capstream.loadgen.workload.HfTokenCounter;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.ThinkingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The request-shape group of a {@link RunConfig}: what each request's prompt and completion look like
 * (spec §1, §2.1, §2.2, §3). Holds the one rule relating the context window to the completion
 * ({@link #windowProblem(String, long)}), used for an explicit {@code --max-model-len} here and for a
 * probed window by {@link RunPlanner}.
 *
 * @param sharedPrefixTokens {@code --shared-prefix-tokens}, tokens (default 8000)
 * @param ctxTokens          {@code --ctx-tokens}: fixed context, tokens; 0 samples the distribution (default 0)
 * @param maxTokens          {@code --max-tokens}: completion cap sent, tokens (default 64)
 * @param maxModelLen        {@code --max-model-len}, tokens; 0 probes {@code /models} (default 0)
 * @param margin             {@code --margin}, tokens kept free below the context window (default 1024)
 * @param thinkingMode       {@code --thinking-mode}; null means {@link ThinkingMode#DEFAULT}
 * @param noThinking         {@code --no-thinking}: forces thinking-mode disabled
 * @param reasoningEffort    {@code --reasoning-effort}, or null
 * @param inputTokens        {@code --input-tokens MEAN[,STDDEV]}: synthetic prompt lengths drawn per request
 *                           instead of the reference's context plan, or null
 * @param outputTokens       {@code --output-tokens MEAN[,STDDEV]}: {@code max_tokens} drawn per request instead of
 *                           {@code --max-tokens}, or null
 * @param dataset            {@code --dataset FILE}: the requests' messages come from this file, or null
 * @param tokenizer          {@code --tokenizer FILE}: a Hugging Face tokenizer.json counting the dataset's tokens
 *                           and sizing the {@code --input-tokens} prompts, or null (the reference's estimate, 3
 *                           characters per token)
 * @param extraBody          {@code --extra-body} members added to each body, or null for none
 * @param promptSalt         the prompt salt that replaces the first characters of every synthetic prompt of the run
 *                           ({@code --prompt-salt run}, a sweep step's own salt, or a past run's for {@code rerun};
 *                           see {@link io.capstream.loadgen.workload.PromptBuilder}), or null for the reference's
 *                           prompts
 */
public record RequestShape(int sharedPrefixTokens, int ctxTokens, int maxTokens, int maxModelLen, int margin,
                           ThinkingMode thinkingMode, boolean noThinking, String reasoningEffort,
                           LengthDistribution inputTokens, LengthDistribution outputTokens, Path dataset,
                           Path tokenizer, ExtraBody extraBody, String promptSalt) {

    /** Smallest {@code --input-tokens} draw, tokens (the smallest {@code --ctx-tokens}: the prompt envelope fits). */
    public static final int MIN_INPUT_TOKENS = 32;
    /** Largest {@code --input-tokens} draw, tokens (the largest {@code --ctx-tokens}). */
    public static final int MAX_INPUT_TOKENS = 1_048_576;
    /** Largest {@code max_tokens} of a request, tokens (the bound of {@code --max-tokens}). */
    public static final int MAX_OUTPUT_TOKENS = 65_536;

    /**
     * The reference's request shape: synthetic prompts from the context plan, {@code --max-tokens} for every request.
     *
     * @param sharedPrefixTokens {@code --shared-prefix-tokens}, tokens
     * @param ctxTokens          {@code --ctx-tokens}, tokens (0 = sampled)
     * @param maxTokens          {@code --max-tokens}, tokens
     * @param maxModelLen        {@code --max-model-len}, tokens (0 = probe)
     * @param margin             {@code --margin}, tokens
     * @param thinkingMode       {@code --thinking-mode}, or null
     * @param noThinking         {@code --no-thinking}
     * @param reasoningEffort    {@code --reasoning-effort}, or null
     */
    public RequestShape(int sharedPrefixTokens, int ctxTokens, int maxTokens, int maxModelLen, int margin,
                        ThinkingMode thinkingMode, boolean noThinking, String reasoningEffort) {
        this(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking, reasoningEffort,
                null, null, null, null, null, null);
    }

    /**
     * The reference's request shape: a {@value RunConfig#DEFAULT_SHARED_PREFIX_TOKENS}-token shared prefix, sampled
     * contexts, {@value RunConfig#DEFAULT_MAX_TOKENS} completion tokens, a probed window, a
     * {@value RunConfig#DEFAULT_MARGIN}-token margin, default thinking, no per-request lengths, dataset, extra body
     * or prompt salt.
     */
    public static final RequestShape DEFAULTS = new RequestShape(RunConfig.DEFAULT_SHARED_PREFIX_TOKENS, 0,
            RunConfig.DEFAULT_MAX_TOKENS, 0, RunConfig.DEFAULT_MARGIN, ThinkingMode.DEFAULT, false, null);

    /** @param v shared prefix, tokens @return a copy with it */
    public RequestShape withSharedPrefixTokens(int v) {
        return new RequestShape(v, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v fixed context, tokens (0 = sampled) @return a copy with it */
    public RequestShape withCtxTokens(int v) {
        return new RequestShape(sharedPrefixTokens, v, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v completion cap, tokens @return a copy with it */
    public RequestShape withMaxTokens(int v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, v, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v context window, tokens (0 = probe) @return a copy with it */
    public RequestShape withMaxModelLen(int v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, v, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v margin, tokens @return a copy with it */
    public RequestShape withMargin(int v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, v, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v thinking mode (null = default) @return a copy with it */
    public RequestShape withThinkingMode(ThinkingMode v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, v, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v the --no-thinking flag @return a copy with it */
    public RequestShape withNoThinking(boolean v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, v,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v reasoning effort, or null @return a copy with it */
    public RequestShape withReasoningEffort(String v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                v, inputTokens, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v {@code --input-tokens} prompt lengths, or null @return a copy with it */
    public RequestShape withInputTokens(LengthDistribution v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, v, outputTokens, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v {@code --output-tokens} max_tokens lengths, or null @return a copy with it */
    public RequestShape withOutputTokens(LengthDistribution v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, v, dataset, tokenizer, extraBody, promptSalt);
    }

    /** @param v {@code --dataset} (or {@code --trace}) file, or null @return a copy with it */
    public RequestShape withDataset(Path v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, v, tokenizer, extraBody, promptSalt);
    }

    /** @param v {@code --tokenizer} tokenizer.json, or null @return a copy with it */
    public RequestShape withTokenizer(Path v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, v, extraBody, promptSalt);
    }

    /** @param v members added to every body, or null @return a copy with it */
    public RequestShape withExtraBody(ExtraBody v) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, v, promptSalt);
    }

    /**
     * @param salt the prompt salt, or null for the reference's prompts
     * @return a copy with that salt
     */
    public RequestShape withPromptSalt(String salt) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, dataset, tokenizer, extraBody, salt);
    }

    /**
     * @param datasetFile   the {@code --dataset} (or {@code --trace}) file, or null
     * @param tokenizerFile the {@code --tokenizer} file, or null
     * @return a copy reading these files
     */
    public RequestShape withFiles(Path datasetFile, Path tokenizerFile) {
        return new RequestShape(sharedPrefixTokens, ctxTokens, maxTokens, maxModelLen, margin, thinkingMode, noThinking,
                reasoningEffort, inputTokens, outputTokens, datasetFile, tokenizerFile, extraBody, promptSalt);
    }

    /**
     * @return true when requests may send different {@code max_tokens} or prompts not from the context plan
     *         ({@code --output-tokens}, {@code --input-tokens} or {@code --dataset}): the window rule and the aggregate
     *         guard then need the per-request values and are checked by {@link RunPlanner}
     */
    public boolean perRequestLengths() {
        return inputTokens != null || outputTokens != null || dataset != null;
    }

    /** Accepted {@code --reasoning-effort} values (spec §1). */
    public static final Set<String> REASONING_EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "max", "xhigh");

    /** Fills a null thinking mode with {@link ThinkingMode#DEFAULT}. */
    public RequestShape {
        thinkingMode = thinkingMode == null ? ThinkingMode.DEFAULT : thinkingMode;
    }

    /** @return the thinking mode sent and recorded: disabled whenever {@code --no-thinking} is set */
    public ThinkingMode resolvedThinkingMode() {
        return noThinking ? ThinkingMode.DISABLED : thinkingMode;
    }

    /**
     * The prompt cap of a context window (spec §2.1): {@code window − maxTokens − margin}.
     *
     * @param window context window, tokens
     * @return the cap, tokens; ≤ 0 when {@link #windowProblem} reports the window
     */
    public long promptCap(long window) {
        return promptCap(window, maxTokens);
    }

    /**
     * @param window        context window, tokens
     * @param largestOutput the largest {@code max_tokens} of any request, tokens
     * @return the prompt cap {@code window − largestOutput − margin}, tokens
     */
    public long promptCap(long window, int largestOutput) {
        return window - largestOutput - margin;
    }

    /**
     * The window rule (spec §1, §2.1): a known context window must exceed {@code maxTokens + margin}.
     *
     * @param label  how the window is named in the message: {@code --max-model-len} for an explicit one,
     *               {@code max model length} for a probed one
     * @param window context window, tokens
     * @return e.g. {@code "--max-model-len 1000 must exceed --max-tokens + --margin (1088)"}, or null when the
     *         window is large enough
     */
    public String windowProblem(String label, long window) {
        if (promptCap(window) > 0) {
            return null;
        }
        return label + " " + window + " must exceed --max-tokens + --margin (" + ((long) maxTokens + margin) + ")";
    }

    /**
     * The window rule for per-request {@code max_tokens}: the window must exceed the largest plus the margin.
     *
     * @param label         how the window is named in the message
     * @param window        context window, tokens
     * @param largestOutput the largest {@code max_tokens} of any request, tokens; 0 when none is sent (embeddings)
     * @return the message, or null when the window is large enough; {@link #windowProblem(String, long)}'s
     *         message when {@code largestOutput} is {@code --max-tokens}
     */
    public String windowProblem(String label, long window, int largestOutput) {
        if (promptCap(window, largestOutput) > 0) {
            return null;
        }
        if (largestOutput == maxTokens) {
            return windowProblem(label, window);
        }
        return largestOutput == 0 ? label + " " + window + " must exceed --margin (" + margin + ")"
                : label + " " + window + " must exceed the largest max_tokens + --margin (" + largestOutput + " + "
                        + margin + ")";
    }

    /**
     * A fixed {@code --ctx-tokens} above the prompt cap is refused, not clamped (the reference clamps it,
     * spec §3.1, and its report would then name a context no request had).
     *
     * @param source        how the window is named, e.g. {@code --max-model-len 4096}
     * @param window        the known window, tokens
     * @param largestOutput the largest {@code max_tokens} of any request, tokens; 0 when none is sent (embeddings,
     *                      rerank: the message then names --margin alone)
     * @return the usage error naming the cap, how it is computed and the options that change it; null when
     *         {@code --ctx-tokens} is 0 or fits
     */
    public String ctxAboveCap(String source, long window, int largestOutput) {
        long cap = promptCap(window, largestOutput);
        if (ctxTokens == 0 || ctxTokens <= cap) {
            return null;
        }
        String output = largestOutput == 0 ? "" : largestOutput == maxTokens ? "--max-tokens " + largestOutput + " - "
                : "the largest max_tokens " + largestOutput + " - ";
        return "--ctx-tokens " + ctxTokens + " exceeds the prompt cap of " + cap + " tokens = " + source + " - "
                + output + "--margin " + margin + "; lower --ctx-tokens (at most " + cap
                + (largestOutput == 0 ? "), or --margin" : "), or --max-tokens or --margin");
    }

    /**
     * Checks the group alone (spec §1): token bounds, an explicit window against the completion and a fixed
     * {@code --ctx-tokens} against its prompt cap, the
     * reasoning-effort value and its combination with the thinking controls, and the dataset and length options
     * (their combinations, and that the {@code --dataset} and {@code --tokenizer} files exist; their content is
     * read by {@link RunPlanner}). The rules that also need the
     * model are {@link #modelProblems(String)}.
     *
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems() {
        return problems("--dataset", maxTokens);
    }

    /**
     * {@link #problems()}, naming the file of {@link #dataset()} by the option that gave it.
     *
     * @param datasetOption  {@code --dataset}, or {@code --trace} when the prompts come from a trace (which sets the
     *                       dataset field too)
     * @param reservedOutput the output tokens an explicit window keeps free: {@code maxTokens}, or 0 for an endpoint
     *                       that generates nothing ({@link InputsRules#reservedOutput})
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems(String datasetOption, int reservedOutput) {
        List<String> errors = new ArrayList<>();
        Ranges.check(errors, "--shared-prefix-tokens", sharedPrefixTokens, 0, 262_144);
        if (ctxTokens != 0 && (ctxTokens < 32 || ctxTokens > 1_048_576)) {
            errors.add("--ctx-tokens must be 0 or between 32 and 1048576, got " + ctxTokens);
        }
        Ranges.check(errors, "--max-tokens", maxTokens, 1, 65_536);
        Ranges.check(errors, "--max-model-len", maxModelLen, 0, 1_048_576);
        Ranges.check(errors, "--margin", margin, 0, 1_048_576);
        lengthProblems(errors, datasetOption);
        if (maxModelLen != 0 && outputTokens == null && dataset == null) {
            String window = windowProblem("--max-model-len", maxModelLen, reservedOutput);
            if (window != null) {
                errors.add(window);
            } else if (ctxAboveCap("--max-model-len " + maxModelLen, maxModelLen, reservedOutput) != null) {
                errors.add(ctxAboveCap("--max-model-len " + maxModelLen, maxModelLen, reservedOutput));
            }
        }
        if (reasoningEffort != null) {
            if (!REASONING_EFFORTS.contains(reasoningEffort)) {
                errors.add("--reasoning-effort must be one of none, minimal, low, medium, high, max, xhigh; got '"
                        + reasoningEffort + "'");
            }
            if (noThinking || thinkingMode != ThinkingMode.DEFAULT) {
                errors.add("--reasoning-effort cannot be combined with --no-thinking or --thinking-mode "
                        + resolvedThinkingMode().wireName());
            }
        }
        return errors;
    }

    private void lengthProblems(List<String> errors, String datasetOption) {
        if (inputTokens != null && inputTokens.problem("--input-tokens") != null) {
            errors.add(inputTokens.problem("--input-tokens"));
        }
        if (outputTokens != null && outputTokens.problem("--output-tokens") != null) {
            errors.add(outputTokens.problem("--output-tokens"));
        }
        if (dataset != null && inputTokens != null) {
            errors.add("--dataset and --input-tokens cannot be combined (the dataset's prompts have their own lengths)");
        }
        if (ctxTokens != 0 && (dataset != null || inputTokens != null)) {
            errors.add("--ctx-tokens cannot be combined with " + (dataset != null ? "--dataset" : "--input-tokens"));
        }
        if (tokenizer != null && dataset == null && inputTokens == null) {
            errors.add("--tokenizer counts the tokens of a --dataset or of --input-tokens prompts; give one of them");
        }
        if (dataset != null && DatasetReader.fileProblem(datasetOption, dataset) != null) {
            errors.add(DatasetReader.fileProblem(datasetOption, dataset));
        }
        if (tokenizer != null && HfTokenCounter.fileProblem(tokenizer) != null) {
            errors.add(HfTokenCounter.fileProblem(tokenizer));
        }
    }

    /**
     * The model-family guard (spec §1): which thinking controls and efforts a model family accepts. The
     * model id is lower-cased before matching.
     *
     * @param model the model id, or null (no rule applies)
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> modelProblems(String model) {
        List<String> errors = new ArrayList<>();
        if (model == null) {
            return errors;
        }
        String m = model.toLowerCase(Locale.ROOT);
        String effort = reasoningEffort;
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
        return errors;
    }
}
