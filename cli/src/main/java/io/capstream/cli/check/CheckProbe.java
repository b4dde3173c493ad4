package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;
import io.capstream.loadgen.client.StreamProbe;

import io.capstream.loadgen.workload.ApiEndpoint;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Sends the check's requests one after another, within one time bound: {@code GET /models}, four short streamed
 * requests of {@value ProbeBodies#MAX_TOKENS} tokens (with {@code include_usage}, the same again, without it, with
 * thinking off), one with thinking on (chat), one oversize prompt, and {@code GET /metrics} at the server root:
 * at most six generations, each of a few tokens. A request whose turn comes after the bound is not sent; when neither
 * {@code /models} nor the first request got an answer, nothing more is sent.
 */
public final class CheckProbe {
    /** Most time one exchange gets by default, ms (within the whole bound; {@code --exchange-timeout}). */
    static final long EXCHANGE_MS = 20_000;

    private CheckProbe() {
    }

    /**
     * @param client   the client; not null
     * @param target   the endpoint; not null
     * @param bodies   the request bodies; not null
     * @param budgetMs   bound of the whole check, ms
     * @param exchangeMs most time one exchange gets, ms: one that ends unanswered after it is
     *                   {@link Answers#timedOut timed out}
     * @param clockMs    a monotonic clock, ms
     * @return what each request gave
     * @throws InterruptedException when interrupted while waiting for an answer
     */
    public static Observations run(StreamProbe client, ProbeTarget target, ProbeBodies bodies, long budgetMs,
                                   long exchangeMs, LongSupplier clockMs) throws InterruptedException {
        long deadline = clockMs.getAsLong() + budgetMs;
        Step step = new Step(client, deadline, exchangeMs, clockMs);
        ProbeExchange models = step.get(target.modelsUrl());
        ProbeExchange basic = step.post(target, bodies.streamed(true, null));
        if (basic.status() == 0 && models.status() == 0) {
            // nothing answers (refused, unresolved, TLS, timeout): the other requests would only fail the same way
            ProbeExchange skipped = ProbeExchange.failed("not sent: the endpoint did not answer (" + basic.failure()
                    + ")");
            return new Observations(basic, skipped, skipped, skipped, skipped, skipped, models, skipped);
        }
        ProbeExchange repeat = step.post(target, bodies.streamed(true, null));
        ProbeExchange unasked = step.post(target, bodies.streamed(false, null));
        boolean chat = target.endpoint() == ApiEndpoint.CHAT;
        ProbeExchange on = chat ? step.post(target, bodies.streamed(true, true)) : ProbeExchange.failed("not sent: chat only");
        ProbeExchange off = chat ? step.post(target, bodies.streamed(true, false)) : ProbeExchange.failed("not sent: chat only");
        ProbeExchange oversize = step.post(target, bodies.oversize(models.modelsWindow(target.model())));
        ProbeExchange metrics = step.get(target.metricsUrl());
        return new Observations(basic, repeat, unasked, on, off, oversize, models, metrics);
    }

    /** One exchange at a time within the deadline. */
    private record Step(StreamProbe client, long deadline, long exchangeMs, LongSupplier clockMs) {
        ProbeExchange post(ProbeTarget target, String body) throws InterruptedException {
            return send(target.apiUrl(), body);
        }

        ProbeExchange get(String url) throws InterruptedException {
            return send(url, null);
        }

        private ProbeExchange send(String url, String body) throws InterruptedException {
            long left = deadline - clockMs.getAsLong();
            if (left <= 0) {
                return ProbeExchange.failed("not sent: the check's time bound (--timeout) ran out");
            }
            long bound = Math.min(left, exchangeMs);
            long start = clockMs.getAsLong();
            ProbeExchange x;
            try {
                x = (body == null ? client.get(url, bound) : client.post(url, body, bound)).toCompletionStage()
                        .toCompletableFuture().get(bound + 5_000, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return ProbeExchange.failed(Answers.timedOut(bound));
            }
            // unanswered, or cut off mid-stream, when its time was up: a slow endpoint, not a broken one
            return x.failure() != null && clockMs.getAsLong() - start >= bound - 1 // the timer, not an early error
                    ? ProbeExchange.failed(Answers.timedOut(bound)) : x;
        }
    }
}
