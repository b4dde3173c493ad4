package io.capstream.cli.check;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ModelsProbe;
import io.vertx.core.http.HttpMethod;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Sends the check's requests one after another, within one time bound: {@code GET /models}, four short streamed
 * requests of {@value ProbeBodies#MAX_TOKENS} tokens (with {@code include_usage}, the same again, without it, with
 * thinking off), one with thinking on (chat), one oversize prompt, and {@code GET /metrics} at the server root:
 * at most six generations, each of a few tokens. A request whose turn comes after the bound is not sent.
 */
public final class CheckProbe {
    /** Most time one exchange gets, ms (within the whole bound). */
    static final long EXCHANGE_MS = 20_000;

    private CheckProbe() {
    }

    /**
     * @param client   the client; not null
     * @param target   the endpoint; not null
     * @param bodies   the request bodies; not null
     * @param budgetMs bound of the whole check, ms
     * @param clockMs  a monotonic clock, ms
     * @return what each request gave
     * @throws InterruptedException when interrupted while waiting for an answer
     */
    public static Observations run(ProbeClient client, ProbeTarget target, ProbeBodies bodies, long budgetMs,
                                   LongSupplier clockMs) throws InterruptedException {
        long deadline = clockMs.getAsLong() + budgetMs;
        Step step = new Step(client, deadline, clockMs);
        Exchange models = step.get(target.modelsUrl());
        Exchange basic = step.post(target, bodies.streamed(true, null));
        Exchange repeat = step.post(target, bodies.streamed(true, null));
        Exchange unasked = step.post(target, bodies.streamed(false, null));
        boolean chat = target.endpoint() == ApiEndpoint.CHAT;
        Exchange on = chat ? step.post(target, bodies.streamed(true, true)) : Exchange.failed("not sent: chat only");
        Exchange off = chat ? step.post(target, bodies.streamed(true, false)) : Exchange.failed("not sent: chat only");
        Exchange oversize = step.post(target, bodies.oversize(ModelsProbe.parse(
                models.ok() ? io.vertx.core.buffer.Buffer.buffer(models.body()) : null, target.model())));
        Exchange metrics = step.get(target.metricsUrl());
        return new Observations(basic, repeat, unasked, on, off, oversize, models, metrics);
    }

    /** One exchange at a time within the deadline. */
    private record Step(ProbeClient client, long deadline, LongSupplier clockMs) {
        Exchange post(ProbeTarget target, String body) throws InterruptedException {
            return send(HttpMethod.POST, target.apiUrl(), body);
        }

        Exchange get(String url) throws InterruptedException {
            return send(HttpMethod.GET, url, null);
        }

        private Exchange send(HttpMethod method, String url, String body) throws InterruptedException {
            long left = deadline - clockMs.getAsLong();
            if (left <= 0) {
                return Exchange.failed("not sent: the check's time bound (--timeout) ran out");
            }
            long bound = Math.min(left, EXCHANGE_MS);
            try {
                return client.send(method, url, body, bound).toCompletionStage().toCompletableFuture()
                        .get(bound + 5_000, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return Exchange.failed("no answer within " + bound + " ms");
            }
        }
    }
}
