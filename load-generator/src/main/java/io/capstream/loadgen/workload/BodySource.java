package io.capstream.loadgen.workload;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * Builds request bodies (prompt, spec §3.3, then JSON, spec §2.2) where they do not hold up the
 * event loops: a body of at most {@value #INLINE_BODY_CHARS} prompt characters on the calling
 * event loop, a larger one on a worker thread of the given context. Body building happens before a
 * request's t0 (it is not part of TTFT). Thread-safe.
 */
public final class BodySource {
    /** Largest prompt, characters, built on the event loop itself. */
    public static final int INLINE_BODY_CHARS = 64 * 1024;

    private final PromptBuilder prompts;
    private final RequestBodyBuilder bodies;
    private final RequestPlan requests;
    private final int maxTokens;
    /** The embeddings or rerank bodies (issue 30), or null for the generation endpoints. */
    private final InputBatch inputs;

    /**
     * The reference's workload: synthetic prompts, the builder's {@code max_tokens}.
     *
     * @param prompts prompt construction (shared prefix of the run)
     * @param bodies  body serialisation (model, max_tokens, thinking controls)
     */
    public BodySource(PromptBuilder prompts, RequestBodyBuilder bodies) {
        this(prompts, bodies, RequestPlan.SYNTHETIC, 0);
    }

    /**
     * @param prompts   prompt construction (shared prefix of the run)
     * @param bodies    body serialisation (model, thinking controls)
     * @param requests  per-request {@code max_tokens} and dataset messages ({@link RequestPlan#SYNTHETIC}: none)
     * @param maxTokens the run's {@code --max-tokens}, for requests the plan gives none, tokens
     */
    public BodySource(PromptBuilder prompts, RequestBodyBuilder bodies, RequestPlan requests, int maxTokens) {
        this(prompts, bodies, requests, maxTokens, null);
    }

    /**
     * @param prompts   prompt construction (shared prefix of the run)
     * @param bodies    body serialisation (model, thinking controls)
     * @param requests  per-request {@code max_tokens} and dataset messages ({@link RequestPlan#SYNTHETIC}: none)
     * @param maxTokens the run's {@code --max-tokens}, for requests the plan gives none, tokens
     * @param inputs    the embeddings or rerank bodies (issue 30), which then replace the others; null for the
     *                  generation endpoints
     */
    public BodySource(PromptBuilder prompts, RequestBodyBuilder bodies, RequestPlan requests, int maxTokens,
                      InputBatch inputs) {
        this.prompts = prompts;
        this.bodies = bodies;
        this.requests = requests;
        this.maxTokens = maxTokens;
        this.inputs = inputs;
    }

    /**
     * @param ctx     the event-loop context of the request (its worker pool builds large bodies)
     * @param index   request index (goes into the prompt's tail)
     * @param planned planned context, tokens (the synthetic prompt's size, scaled by the plan's
     *                {@link RequestPlan#promptTokens}; a dataset entry is sent as it is)
     * @return the body; fails with {@link PromptBuilder.PromptTooSmallException} when the context
     *         cannot hold the prompt envelope
     */
    public Future<Buffer> body(Context ctx, int index, int planned) {
        Dataset dataset = requests.dataset();
        long size = dataset != null ? dataset.entry(index).messagesJson().length()
                : (long) (requests.promptTokens(planned) * PromptBuilder.CHARS_PER_TOKEN)
                * (inputs == null ? 1 : inputs.batch());
        if (size <= INLINE_BODY_CHARS) {
            try {
                return Future.succeededFuture(Buffer.buffer(build(index, planned)));
            } catch (PromptBuilder.PromptTooSmallException e) {
                return Future.failedFuture(e);
            }
        }
        return ctx.executeBlocking(() -> Buffer.buffer(build(index, planned)), false);
    }

    private byte[] build(int index, int planned) throws PromptBuilder.PromptTooSmallException {
        if (inputs != null) {
            return inputs.body(index, requests.promptTokens(planned));
        }
        if (requests == RequestPlan.SYNTHETIC) {
            return bodies.body(prompts.prompt(index, planned));
        }
        int mt = requests.maxTokens(index, maxTokens);
        Dataset dataset = requests.dataset();
        return dataset != null ? bodies.bodyWithMessages(dataset.entry(index).messagesJson(), mt)
                : bodies.body(prompts.prompt(index, requests.promptTokens(planned)), mt);
    }
}
