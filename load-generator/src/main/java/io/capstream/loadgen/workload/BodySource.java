package io.capstream.loadgen.workload;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.capstream.loadgen.images.DatasetImages;
import io.capstream.loadgen.images.ImageStats;

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
    /** Images of each dataset entry (issue 30), or null when no entry has any. */
    private final ImageStats[] datasetImages;
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
        this.datasetImages = datasetImages(requests.dataset());
    }

    /**
     * @return this source without the run's synthetic images (the same prompts and bodies otherwise): what most
     *         client warm-up requests send, so that the loopback warm-up is not spent moving megabytes
     */
    public BodySource withoutImages() {
        return bodies.images() == null ? this : new BodySource(prompts, bodies.withImages(null), requests, maxTokens,
                inputs);
    }

    /** @return each entry's images (counted before T0), or null when the dataset has none */
    private static ImageStats[] datasetImages(Dataset dataset) {
        if (dataset == null) {
            return null;
        }
        ImageStats[] stats = new ImageStats[dataset.size()];
        boolean any = false;
        for (int i = 0; i < stats.length; i++) {
            stats[i] = DatasetImages.count(dataset.entries().get(i).messagesJson());
            any |= stats[i].images() > 0;
        }
        return any ? stats : null;
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
        return request(ctx, index, planned).map(RequestBody::buffer);
    }

    /**
     * As {@link #body}, with the images the body carries (issue 30): the run's synthetic images, or a dataset
     * entry's own.
     *
     * @param ctx     the event-loop context of the request (its worker pool builds large bodies)
     * @param index   request index
     * @param planned planned context, tokens
     * @return the body and its images; fails as {@link #body} does
     */
    public Future<RequestBody> request(Context ctx, int index, int planned) {
        Dataset dataset = requests.dataset();
        long size = dataset != null ? dataset.entry(index).messagesJson().length()
                : (long) (requests.promptTokens(planned) * PromptBuilder.CHARS_PER_TOKEN)
                * (inputs == null ? 1 : inputs.batch());
        if (size <= INLINE_BODY_CHARS) {
            try {
                return Future.succeededFuture(build(index, planned));
            } catch (PromptBuilder.PromptTooSmallException e) {
                return Future.failedFuture(e);
            }
        }
        return ctx.executeBlocking(() -> build(index, planned), false);
    }

    private RequestBody build(int index, int planned) throws PromptBuilder.PromptTooSmallException {
        if (inputs != null) {
            return RequestBody.of(inputs.body(index, requests.promptTokens(planned)));
        }
        if (requests == RequestPlan.SYNTHETIC) {
            return bodies.request(prompts.prompt(index, planned), index);
        }
        int mt = requests.maxTokens(index, maxTokens);
        Dataset dataset = requests.dataset();
        if (dataset != null) {
            return new RequestBody(Buffer.buffer(bodies.bodyWithMessages(dataset.entry(index).messagesJson(), mt)),
                    datasetImages == null ? ImageStats.NONE
                            : datasetImages[Math.floorMod(index, datasetImages.length)]);
        }
        return bodies.request(prompts.prompt(index, requests.promptTokens(planned)), mt, index);
    }
}
