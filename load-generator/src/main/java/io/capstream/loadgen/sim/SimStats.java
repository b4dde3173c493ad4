package io.capstream.loadgen.sim;

import io.capstream.schemas.stats.NearestRank;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live counters of a {@link SimEngine} (readable from any thread).
 */
public final class SimStats {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong active = new AtomicLong();
    final AtomicLong queued = new AtomicLong();
    final AtomicLong tokens = new AtomicLong();
    final AtomicLong writes = new AtomicLong();
    final AtomicLong errors500 = new AtomicLong();
    final AtomicLong rateLimited = new AtomicLong();
    final AtomicLong stalls = new AtomicLong();
    final AtomicLong cuts = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong disconnected = new AtomicLong();
    final AtomicLong badRequests = new AtomicLong();
    final AtomicLong toolCalls = new AtomicLong();
    final AtomicLong cachedTokens = new AtomicLong();
    final AtomicLong images = new AtomicLong();
    final AtomicLong imageTokens = new AtomicLong();
    /** Embeddings inputs and rerank documents answered (issue 30). */
    final AtomicLong inputs = new AtomicLong();
    /** Input tokens of the embeddings and rerank requests answered (issue 30). */
    final AtomicLong inputTokens = new AtomicLong();
    /** Engine-side TTFT (request fully received to first token written), 0.1 ms buckets up to 60 s. */
    private final java.util.concurrent.atomic.AtomicLongArray ttftTenthsMs =
            new java.util.concurrent.atomic.AtomicLongArray(600_001);

    /** Records one engine-side TTFT. @param ns request received to first token written, ns */
    void recordTtft(long ns) {
        int idx = (int) Math.min(ttftTenthsMs.length() - 1, Math.max(0, ns / 100_000));
        ttftTenthsMs.incrementAndGet(idx);
    }

    /**
     * Nearest-rank percentile ({@link NearestRank}, spec §8.1) of the engine-side TTFT recorded since the last
     * {@link #resetTtft()}.
     *
     * @param pct percentile in (0, 100], e.g. 50, 99 or 100 (the maximum)
     * @return the TTFT in ms (0.1 ms resolution), or null when nothing was recorded
     */
    public Double ttftPercentileMs(int pct) {
        long n = 0;
        for (int i = 0; i < ttftTenthsMs.length(); i++) {
            n += ttftTenthsMs.get(i);
        }
        if (n == 0) {
            return null;
        }
        long rank = NearestRank.rank(n, pct);
        long seen = 0;
        for (int i = 0; i < ttftTenthsMs.length(); i++) {
            seen += ttftTenthsMs.get(i);
            if (seen >= rank) {
                return i / 10.0;
            }
        }
        return null;
    }

    /** Clears the engine-side TTFT histogram (e.g. between benchmark phases). */
    public void resetTtft() {
        for (int i = 0; i < ttftTenthsMs.length(); i++) {
            ttftTenthsMs.set(i, 0);
        }
    }

    /** @return requests received (every API) */
    public long requests() { return requests.get(); }
    /** @return embeddings inputs and rerank documents answered */
    public long inputs() { return inputs.get(); }
    /** @return input tokens of the embeddings and rerank requests answered */
    public long inputTokens() { return inputTokens.get(); }
    /** @return requests answered in full (streams ended with [DONE] or a JSON body) */
    public long completed() { return completed.get(); }
    /** @return requests holding a batch slot now */
    public long active() { return active.get(); }
    /** @return requests waiting for a slot now */
    public long queued() { return queued.get(); }
    /** @return output tokens produced (reasoning and content) */
    public long tokens() { return tokens.get(); }
    /** @return socket writes of stream data (one per stream per tick at most) */
    public long writes() { return writes.get(); }
    /** @return injected HTTP 500 answers */
    public long errors500() { return errors500.get(); }
    /** @return injected HTTP 429 answers */
    public long rateLimited() { return rateLimited.get(); }
    /** @return injected stalls */
    public long stalls() { return stalls.get(); }
    /** @return injected mid-stream cuts */
    public long cuts() { return cuts.get(); }
    /** @return injected malformed data lines */
    public long malformed() { return malformed.get(); }
    /**
     * @return requests whose client closed the connection before the end (e.g. cancelled by {@code --cancel-rate}),
     *         while queued or being answered; their decoding stopped
     */
    public long disconnected() { return disconnected.get(); }
    /** @return requests answered with HTTP 400 */
    public long badRequests() { return badRequests.get(); }
    /** @return answers that are tool calls (requests with tools, at the tool-call rate or forced by tool_choice) */
    public long toolCalls() { return toolCalls.get(); }
    /** @return images in the prompts of the requests admitted (issue 30; a re-sent history's counted again) */
    public long images() { return images.get(); }
    /** @return prompt tokens the images were charged ({@link SimImages}), summed over requests */
    public long imageTokens() { return imageTokens.get(); }
    /** @return prompt tokens served from the prefix cache, summed over requests */
    public long cachedTokens() { return cachedTokens.get(); }
}
