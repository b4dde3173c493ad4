package io.capstream.loadgen.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.client.ClientConfig;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.schemas.time.CapClock;
import io.capstream.schemas.time.ManualCapClock;
import java.time.Duration;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClientWarmupTest {
    static Vertx vertx;
    static final ClientConfig TEMPLATE = new ClientConfig("http://127.0.0.1:1/v1", 30, false, 64, ApiKey.none());
    static final WarmupBodies BODIES = (ctx, k) -> Future.succeededFuture(Buffer.buffer(
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"# request " + k + ": hi\"}],\"stream\":true}"));

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private static List<Context> contexts() {
        return List.of(((VertxInternal) vertx).createEventLoopContext(), ((VertxInternal) vertx).createEventLoopContext());
    }

    @Test
    void runsWholeBatchesOfRealStreamsUntilItsBound() throws Exception {
        List<RequestResult> results = new CopyOnWriteArrayList<>();
        WarmupResult w = ClientWarmup.run(vertx, contexts(), new ClientWarmup.Settings(60, 1_000_000, 300, 100, 8),
                TEMPLATE, BODIES, () -> false, results::add, CapClock.system()).await(60, TimeUnit.SECONDS);
        assertEquals(300, w.loopbackRequests(), "stops at maxRequests, in whole batches");
        assertEquals(300, results.size());
        assertThat(results).as("every loopback stream completes").allMatch(RequestResult::ok);
        assertThat(results).allMatch(r -> r.contentChunks() == LoopbackStreamServer.CONTENT_CHUNKS
                && r.completionTokens() == LoopbackStreamServer.CONTENT_CHUNKS && r.ttftNs() > 0);
        assertEquals(75, results.stream().filter(r -> r.reasoningChunks() == 2).count(), "every fourth has reasoning");
        assertNotNull(w.firstUsPerRequest());
        assertNotNull(w.lastUsPerRequest());
        assertTrue(w.loopbackMs() > 0);
        assertEquals(0, w.targetRequests());
    }

    @Test
    void aStopRequestStartsNoFurtherRequest() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<RequestResult> results = new CopyOnWriteArrayList<>();
        WarmupResult w = ClientWarmup.run(vertx, contexts(), new ClientWarmup.Settings(600, 1_000_000, 1_000_000, 100, 4),
                TEMPLATE, BODIES, stop::get, r -> {
                    if (results.size() == 30) {
                        stop.set(true); // the 31st result asks to stop
                    }
                    results.add(r);
                }, CapClock.system()).await(60, TimeUnit.SECONDS);
        assertTrue(results.size() >= 31 && results.size() <= 31 + 4, "at most the 4 in flight end after the stop: "
                + results.size());
        assertEquals(results.size(), w.loopbackRequests(), "the stopped batch's started requests are counted");
    }

    @Test
    void aStoppedTargetWarmupSendsNothing() throws Exception {
        List<RequestResult> results = new CopyOnWriteArrayList<>();
        ClientConfig cfg = new ClientConfig("http://127.0.0.1:1/v1", 5, false, 8, ApiKey.none());
        try (io.capstream.loadgen.client.StreamingClient client = new io.capstream.loadgen.client.StreamingClient(vertx, cfg)) {
            int failed = TargetWarmup.run(contexts(), client, BODIES, k -> java.util.Map.of(), 5, 2, () -> true, results::add)
                    .await(30, TimeUnit.SECONDS);
            assertEquals(0, failed);
            assertEquals(List.of(), results);
        }
    }

    @Test
    void theTimeBoundEndsItAfterTheCurrentBatch() throws Exception {
        // each loopback result moves the clock 100 ms: the 50 of the first batch reach the 5 s bound
        ManualCapClock clock = new ManualCapClock();
        WarmupResult w = ClientWarmup.run(vertx, contexts(), new ClientWarmup.Settings(5, 1_000_000, 1_000_000, 50, 4),
                TEMPLATE, BODIES, () -> false, r -> clock.advance(Duration.ofMillis(100)), clock)
                .await(60, TimeUnit.SECONDS);
        assertThat(w.loopbackRequests()).as("loopback requests: one batch, then the bound").isEqualTo(50);
        assertThat(w.loopbackMs()).as("warm-up time on the clock, ms").isEqualTo(5000.0);
    }

    @Test
    void theDeadlineIsOnTheInjectedClock() {
        ManualCapClock clock = new ManualCapClock();
        ClientWarmup.State st = new ClientWarmup.State(new ClientWarmup.Settings(2, 0, 1_000_000, 100, 8), clock);
        assertThat(st.record(100, 1000, 0.5)).as("go on at 0 s of 2").isTrue();
        clock.advance(Duration.ofMillis(1999));
        assertThat(st.record(100, 500, 0.5)).as("go on at 1.999 s of 2").isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(st.record(100, 250, 0.5)).as("stops at 2 s of 2").isFalse();
        assertThat(st.result().loopbackMs()).as("warm-up time, ms").isEqualTo(2000.0);
    }

    @Test
    void bodiesThatCannotBeBuiltEndItWithoutFailing() throws Exception {
        WarmupResult w = ClientWarmup.run(vertx, contexts(), new ClientWarmup.Settings(60, 10, 1000, 10, 2), TEMPLATE,
                (ctx, k) -> Future.failedFuture(new IllegalStateException("no body")), () -> false, r -> { },
                CapClock.system())
                .await(60, TimeUnit.SECONDS);
        assertEquals(0, w.loopbackRequests(), "a batch that failed whole is not counted");
    }

    @Test
    void stopRuleWantsAFlatCostAQuietJitAndTheMinimumCount() {
        ClientWarmup.State st = new ClientWarmup.State(new ClientWarmup.Settings(60, 300, 1_000_000, 100, 8), new ManualCapClock());
        assertTrue(st.record(100, 1000, 0.5), "falling");
        assertTrue(st.record(100, 500, 0.5), "falling");
        assertTrue(st.record(100, 490, 0.0), "flat 1");
        assertTrue(st.record(100, 495, 0.0), "flat 2");
        assertTrue(st.record(100, 480, 0.2), "flat 3, but the JIT is still busy");
        assertTrue(!st.record(100, 485, 0.01), "flat, quiet JIT, >= 300 requests: settled");
        assertEquals(600, st.result().loopbackRequests());
        assertEquals(1000.0, st.result().firstUsPerRequest());
        assertEquals(485.0, st.result().lastUsPerRequest());

        ClientWarmup.State few = new ClientWarmup.State(new ClientWarmup.Settings(60, 10_000, 1_000_000, 100, 8), new ManualCapClock());
        for (int i = 0; i < 5; i++) {
            assertTrue(few.record(100, 100, 0.0), "below the minimum count it goes on");
        }
        ClientWarmup.State faster = new ClientWarmup.State(new ClientWarmup.Settings(60, 0, 1_000_000, 100, 8), new ManualCapClock());
        double cost = 1000;
        for (int i = 0; i < 10; i++) {
            cost *= 0.9;
            assertTrue(faster.record(100, cost, 0.0), "10% faster per batch: still falling");
        }
    }
}
