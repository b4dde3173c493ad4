package io.capstream.loadgen.sim;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The engine's batch: {@code batchSlots} slots, a FIFO queue in front of them, one shared prefill
 * lane and a periodic decode tick that writes every decoding stream's new tokens in one write per
 * stream per tick. Runs on one event loop (every method is called on the engine's context); all
 * waiting uses Vert.x timers.
 */
final class BatchScheduler {
    private final Vertx vertx;
    private final SimConfig cfg;
    private final SimStats stats;
    private final ArrayDeque<SimStream> waiting = new ArrayDeque<>();
    private final ArrayList<SimStream> decoding = new ArrayList<>();
    private int busySlots;
    private long prefillFreeAtNs;
    private long lastTickNs;
    private long tickTimer = -1;
    private final Consumer<SimStream> onCompleted;

    /**
     * @param vertx       the engine's Vert.x (timers on its context)
     * @param cfg         the timing model
     * @param stats       the counters
     * @param onCompleted called on the event loop with each answer sent in full (for the prefix cache and the
     *                    Responses store)
     */
    BatchScheduler(Vertx vertx, SimConfig cfg, SimStats stats, Consumer<SimStream> onCompleted) {
        this.vertx = vertx;
        this.cfg = cfg;
        this.stats = stats;
        this.onCompleted = onCompleted;
    }

    /** Starts the periodic decode tick. */
    void start() {
        lastTickNs = System.nanoTime();
        tickTimer = vertx.setPeriodic(cfg.tickMs(), id -> tick());
    }

    /** Stops the tick and drops every request (their connections are closed by the server). */
    void stop() {
        if (tickTimer >= 0) {
            vertx.cancelTimer(tickTimer);
        }
        waiting.clear();
        decoding.clear();
    }

    /**
     * Accepts a request: admits it to a free slot or queues it. A stream whose API opens at once (Responses,
     * Messages) gets its headers and first frames now.
     */
    void submit(SimStream s) {
        s.response.closeHandler(v -> onClosed(s));
        if (s.request.stream() && s.wire.hasPreamble()) {
            startStream(s);
            Buffer out = Buffer.buffer(1024);
            s.wire.preamble(out, s);
            flush(s, out);
        }
        if (busySlots < cfg.batchSlots()) {
            admit(s);
        } else {
            waiting.add(s);
            stats.queued.incrementAndGet();
        }
    }

    private void onClosed(SimStream s) {
        if (s.closed) {
            return;
        }
        s.closed = true;
        if (s.state == SimStream.State.QUEUED) {
            if (waiting.remove(s)) {
                stats.queued.decrementAndGet();
                stats.disconnected.incrementAndGet(); // the client left before a slot was free: never decoded
            }
        } else if (s.state != SimStream.State.DONE) {
            stats.disconnected.incrementAndGet();
            if (s.state == SimStream.State.PREFILL) {
                release(s);
            }
            // DECODING streams are removed by the next tick.
        }
    }

    private void admit(SimStream s) {
        busySlots++;
        s.holdsSlot = true;
        stats.active.incrementAndGet();
        s.state = SimStream.State.PREFILL;
        long now = System.nanoTime();
        s.admittedNs = now;
        int uncached = s.promptTokens - s.cachedTokens;
        long prefillNs = cfg.prefillTokPerS() == 0 ? 0 : (long) (uncached / cfg.prefillTokPerS() * 1e9);
        long prefillStart = Math.max(now, prefillFreeAtNs);
        prefillFreeAtNs = prefillStart + prefillNs;
        long firstAt = prefillFreeAtNs + (long) (cfg.ttftBaseMs() * 1e6);
        if (s.fault.kind() == FaultPlan.Kind.STALL && s.fault.atToken() == 0) {
            firstAt += cfg.stallMs() * 1_000_000L;
            s.faultDone = true;
        }
        after(firstAt - now, () -> firstToken(s));
    }

    /**
     * An embeddings or rerank request (issue 30): its input tokens take their turn on the shared prefill lane, then
     * {@code ttftBaseMs} passes and {@code done} runs (it sends the whole answer). It holds no batch slot: such
     * engines batch the inputs of many requests into one forward pass.
     *
     * @param tokens the request's input tokens, &gt;= 0
     * @param done   run on the engine's event loop when the answer is ready
     */
    void prefillOnly(int tokens, Runnable done) {
        long now = System.nanoTime();
        long prefillNs = cfg.prefillTokPerS() == 0 ? 0 : (long) (tokens / cfg.prefillTokPerS() * 1e9);
        prefillFreeAtNs = Math.max(now, prefillFreeAtNs) + prefillNs;
        after(prefillFreeAtNs + (long) (cfg.ttftBaseMs() * 1e6) - now, done);
    }

    private void after(long delayNs, Runnable action) {
        long ms = Math.round(delayNs / 1e6);
        if (ms < 1) {
            vertx.getOrCreateContext().runOnContext(v -> action.run());
        } else {
            vertx.setTimer(ms, id -> action.run());
        }
    }

    private void firstToken(SimStream s) {
        if (s.closed) {
            return;
        }
        s.state = SimStream.State.DECODING;
        s.firstTokenNs = System.nanoTime();
        stats.recordTtft(s.firstTokenNs - s.arrivedNs);
        s.credit = 0;
        Buffer out = Buffer.buffer(512);
        if (s.request.stream()) {
            if (!s.headersSent) {
                startStream(s);
            }
            s.wire.begin(out, s);
        }
        if (!emit(s, out, 1)) {
            return;
        }
        flush(s, out);
        if (s.remaining() == 0) {
            finish(s);
        } else {
            decoding.add(s);
        }
    }

    /** Sends the 200 and the event-stream headers. */
    void startStream(SimStream s) {
        s.headersSent = true;
        s.response.setStatusCode(200).setChunked(true)
                .putHeader("content-type", "text/event-stream; charset=utf-8")
                .putHeader("cache-control", "no-cache");
    }

    /**
     * Appends up to {@code n} tokens to {@code out}, applying this stream's fault when its position
     * is reached.
     *
     * @return false when the stream was cut (the connection is closed and the slot released)
     */
    private boolean emit(SimStream s, Buffer out, int n) {
        for (int k = 0; k < n && s.remaining() > 0; k++) {
            if (!s.faultDone && s.fault.atToken() == s.written) {
                s.faultDone = true;
                switch (s.fault.kind()) {
                    case CUT -> {
                        flush(s, out);
                        cut(s);
                        return false;
                    }
                    case STALL -> {
                        s.stalledUntilNs = System.nanoTime() + cfg.stallMs() * 1_000_000L;
                        stats.stalls.incrementAndGet();
                        return true;
                    }
                    case MALFORMED -> {
                        if (s.request.stream()) {
                            s.wire.malformed(out);
                            stats.malformed.incrementAndGet();
                        }
                    }
                    default -> { }
                }
            }
            int i = s.written;
            if (i < s.reasoningTokens) {
                String t = SseChunks.reasoningToken(i);
                if (s.request.stream()) {
                    s.wire.reasoning(out, s, t);
                } else {
                    s.reasoning.append(t);
                }
            } else if (s.tool != null) {
                if (s.request.stream()) {
                    s.wire.toolCall(out, s, i - s.reasoningTokens);
                }
            } else {
                String t = SseChunks.contentToken(i - s.reasoningTokens);
                if (s.request.stream()) {
                    s.wire.content(out, s, t);
                } else {
                    s.content.append(t);
                }
            }
            s.written++;
            stats.tokens.incrementAndGet();
        }
        return true;
    }

    private void flush(SimStream s, Buffer out) {
        if (out.length() > 0 && s.request.stream() && !s.closed) {
            s.response.write(out);
            stats.writes.incrementAndGet();
        }
    }

    private void cut(SimStream s) {
        stats.cuts.incrementAndGet();
        s.state = SimStream.State.DONE;
        s.closed = true;
        release(s);
        s.response.reset();
    }

    private void tick() {
        long now = System.nanoTime();
        double dt = (now - lastTickNs) / 1e9;
        lastTickNs = now;
        int active = decoding.size();
        if (active == 0) {
            return;
        }
        double shared = cfg.decodeTokPerS() / active;
        int i = 0;
        while (i < decoding.size()) {
            SimStream s = decoding.get(i);
            boolean remove;
            if (s.closed) {
                release(s);
                remove = true;
            } else if (s.stalledUntilNs > now) {
                remove = false;
            } else {
                s.credit += Math.min(s.streamTokPerS, shared) * dt;
                int n = (int) s.credit;
                remove = false;
                if (n > 0) {
                    s.credit -= n;
                    Buffer out = Buffer.buffer(160 * n + 64);
                    if (!emit(s, out, n)) {
                        remove = true;
                    } else {
                        flush(s, out);
                        if (s.remaining() == 0) {
                            finish(s);
                            remove = true;
                        }
                    }
                }
            }
            if (remove) {
                int last = decoding.size() - 1;
                decoding.set(i, decoding.get(last));
                decoding.remove(last);
            } else {
                i++;
            }
        }
    }

    private void finish(SimStream s) {
        s.state = SimStream.State.DONE;
        long now = System.nanoTime();
        String timings = String.format(Locale.ROOT,
                "{\"queue_ms\":%.3f,\"prompt_n\":%d,\"prompt_ms\":%.3f,\"predicted_n\":%d,\"predicted_ms\":%.3f}",
                (s.admittedNs - s.arrivedNs) / 1e6, s.promptTokens - s.cachedTokens,
                (s.firstTokenNs - s.admittedNs) / 1e6, s.outputTokens, (now - s.firstTokenNs) / 1e6);
        if (!s.closed) {
            if (s.request.stream()) {
                Buffer out = Buffer.buffer(1024);
                s.wire.finish(out, s, timings);
                s.response.end(out);
            } else {
                s.response.putHeader("content-type", "application/json").end(s.wire.body(s, timings).toBuffer());
            }
            stats.completed.incrementAndGet();
            onCompleted.accept(s);
        }
        release(s);
    }

    private void release(SimStream s) {
        if (!s.holdsSlot) {
            return;
        }
        s.holdsSlot = false;
        busySlots--;
        stats.active.decrementAndGet();
        while (!waiting.isEmpty() && busySlots < cfg.batchSlots()) {
            SimStream next = waiting.poll();
            stats.queued.decrementAndGet();
            if (!next.closed) {
                admit(next);
            }
        }
    }
}
