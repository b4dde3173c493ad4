package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The run's lifecycle alone, against the simulated engine, with a manual clock: T0, the shared start instant of a
 * share, the run's start and end stamps and its wall clock all come from the clock, so none of them needs a wait.
 */
class RunLifecycleTest {
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
    static Vertx vertx;
    static SimEngine sim;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(1).tickMs(1).build())
                .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private static RunPlan plan(RunConfig b) throws Exception {
        return RunPlanner.complete(b, 4096, ApiKey.none()).get();
    }

    private static RunConfig config() {
        return RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(3).withConcurrency(2))
                .withRequest(r -> r.withMaxTokens(4).withCtxTokens(64).withSharedPrefixTokens(0));
    }

    /** A listener that moves the clock 100 ms at each request's end. */
    private static RunListener ticking(ManualCapClock clock) {
        return new RunListener() {
            @Override
            public void onEvent(RunEvent event) {
                if (event.getPayload() instanceof RequestCompleted) {
                    clock.advance(Duration.ofMillis(100));
                }
            }
        };
    }

    @Test
    void aRunsStampsAndWallClockAreTheClocks() throws Exception {
        // the monotonic origin is the system's, as the stamps of the real requests are
        ManualCapClock clock = new ManualCapClock(NOW, System.nanoTime());
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new RunLifecycle(vertx, plan(config()), sink, ticking(clock), null, null, clock).start()
                .get(60, TimeUnit.SECONDS);
        assertThat(o.completed()).as("completed").isEqualTo(3);
        RunStarted rs = sink.payloads(RunStarted.class).get(0);
        RunFinished rf = sink.payloads(RunFinished.class).get(0);
        assertThat(rs.getStartedAt()).as("RunStarted's started_at").isEqualTo("2026-12-01T12:00:00Z");
        assertThat(o.startedAt()).as("outcome's start").isEqualTo(NOW);
        // each end is stamped before its event is emitted (whose listener moves the clock): the last at 200 ms
        assertThat(rf.getWallClockNs()).as("wall clock: T0 to the last end on the clock").isEqualTo(200_000_000L);
        assertThat(o.finishedAt()).as("outcome's end").isEqualTo(NOW.plusMillis(300));
        assertThat(sink.events().get(0).getEmittedAtMs()).as("RunStarted's emitted_at_ms")
                .isEqualTo(NOW.toEpochMilli());
        assertThat(o.runId()).as("run id from the clock's start").isEqualTo("benchmark-20261201T120000Z");
    }

    @Test
    void aLateShareStartsAtOnceWithTheSharedInstantAsT0() throws Exception {
        ManualCapClock clock = new ManualCapClock(NOW, System.nanoTime());
        InMemoryEventSink sink = new InMemoryEventSink();
        // the shared start was 3 s ago on the clock: no timer, T0 is the instant and the due requests queue
        ShareAssignment a = new ShareAssignment(new PlanShare(0, 1), 2, NOW.minusSeconds(3).toEpochMilli(), 0.0, 0.5);
        RunOutcome o = new RunLifecycle(vertx, plan(config().withIdentity(i -> i.withRunId("dist-1"))), sink, ticking(clock), null, a, clock)
                .start().get(60, TimeUnit.SECONDS);
        assertThat(sink.payloads(RunStarted.class)).as("a share emits no RunStarted").isEmpty();
        assertThat(o.startedAt()).as("the share's T0").isEqualTo(NOW.minusSeconds(3));
        RunFinished rf = sink.payloads(RunFinished.class).get(0);
        assertThat(rf.getWallClockNs()).as("wall clock from the shared instant: 3 s late + the last end at 200 ms")
                .isEqualTo(3_200_000_000L);
        assertThat(sink.payloads(RequestCompleted.class)).as("requests of the share")
                .allSatisfy(c -> assertThat(c.getStartNs()).as("a late share's request starts after T0, ns")
                        .isGreaterThanOrEqualTo(3_000_000_000L));
    }

    @Test
    void aRunStoppedBeforeItsStartEndsWithoutSendingAShareStillReportsItsEnd() throws Exception {
        ManualCapClock clock = new ManualCapClock(NOW, System.nanoTime());
        RunControl stopped = new RunControl();
        stopped.requestStop();
        InMemoryEventSink sink = new InMemoryEventSink();
        assertThatThrownBy(() -> new RunLifecycle(vertx, plan(config()), sink, null, stopped, null, clock).start()
                .get(60, TimeUnit.SECONDS)).as("a one-process run stopped before its start")
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(StoppedBeforeStartException.class);
        assertThat(sink.events()).as("events of a run stopped before its start").isEmpty();

        ShareAssignment a = new ShareAssignment(new PlanShare(0, 1), 2, NOW.plusSeconds(60).toEpochMilli(), 0.0, 0.5);
        RunOutcome o = new RunLifecycle(vertx, plan(config().withIdentity(i -> i.withRunId("dist-2"))), sink, null, stopped, a, clock).start()
                .get(60, TimeUnit.SECONDS);
        assertThat(o.interrupted()).as("interrupted").isTrue();
        assertThat(o.requestsSent()).as("sent").isZero();
        assertThat(sink.payloads(RunFinished.class)).as("the share's RunFinished").hasSize(1);
    }

    /**
     * A fresh user's finding: Ctrl-C during long streams waited for them until the stop's bound and lost the report of
     * what ran. An interrupted run's requests in flight get the grace, then are cancelled (the connection closed), so
     * the run ends, interrupted, with their events, and one notice says how many.
     */
    @Test
    void anInterruptedRunCancelsItsRequestsStillInFlightAfterTheGrace() throws Exception {
        SimEngine slow = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(1).tickMs(5).decodeTokPerS(4)
                .streamDecodeTokPerS(1).outputTokens(2000).build()).toCompletionStage().toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
        try {
            ManualCapClock clock = new ManualCapClock(NOW, System.nanoTime());
            RunControl control = new RunControl(Duration.ofMillis(200));
            List<String> notices = new CopyOnWriteArrayList<>();
            RunListener listener = new RunListener() {
                @Override
                public void onNotice(String line) {
                    notices.add(line);
                }
            };
            RunConfig cfg = RunConfig.of(TargetConfig.of(slow.baseUrl(), SimConfig.defaults().modelId()))
                    .withLoad(l -> l.withRequests(4).withConcurrency(2))
                    .withRequest(r -> r.withMaxTokens(2000).withCtxTokens(64).withSharedPrefixTokens(0));
            InMemoryEventSink sink = new InMemoryEventSink();
            var running = new RunLifecycle(vertx, plan(cfg), sink, listener, control, null, clock).start();
            // both streams are open (each would take ~2,000 s), then the interruption
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> slow.stats().tokens() >= 2);
            control.requestStop();
            RunOutcome o = running.get(60, TimeUnit.SECONDS);

            assertThat(o.interrupted()).as("interrupted").isTrue();
            assertThat(o.requestsSent()).as("sent: the two that were in flight").isEqualTo(2);
            assertThat(o.cancelled()).as("cancelled after the grace").isEqualTo(2);
            assertThat(sink.payloads(RequestFailed.class)).as("the cancelled requests' events").hasSize(2)
                    .allSatisfy(f -> {
                        assertThat(f.getErrorType()).as("error type").isEqualTo("Cancelled");
                        assertThat(f.getErrorMessage()).as("error message").endsWith("(the run was interrupted)");
                    });
            assertThat(sink.payloads(RunFinished.class)).as("RunFinished").singleElement()
                    .satisfies(f -> assertThat(f.getInterrupted()).as("RunFinished.interrupted").isTrue());
            assertThat(notices).as("notices").contains("2 request(s) still in flight 200 ms after the interruption"
                    + " were cancelled (counted as cancelled, in no percentile)");
        } finally {
            slow.close();
        }
    }
}
