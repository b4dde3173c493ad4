package io.capstream.loadgen.run;

import io.capstream.loadgen.stop.StopRules;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.stop.StopRuleChecker;
import io.capstream.loadgen.stop.StopTrip;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStop;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stop rules end to end on the built-in simulated engine (issue 30): a run whose rule trips stops starting
 * requests, lets those in flight end and records the rule in its RunFinished; a coordinator's stop records the rule
 * {@code coordinator}; neither is an interruption.
 */
class StopRulesSimTest {
    private Vertx vertx;
    private SimEngine sim;

    private void start(double errorRate) throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(2).decodeTokPerS(5000).streamDecodeTokPerS(2000)
                .tickMs(2).errorRate(errorRate).seed(7).build()).toCompletionStage().toCompletableFuture()
                .get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private RunConfig config(int requests, StopRules rules) {
        return RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(requests).withConcurrency(4))
                .withRequest(r -> r.withMaxTokens(8).withCtxTokens(128).withSharedPrefixTokens(0).withMaxModelLen(4096))
                .withStop(rules);
    }

    private static RunFinished finished(InMemoryEventSink sink) {
        List<RunFinished> f = sink.payloads(RunFinished.class);
        assertThat(f).as("one RunFinished").hasSize(1);
        return f.get(0);
    }

    @Test
    void aHighErrorRateStopsTheRunEarlyAndRecordsTheRule() throws Exception {
        start(0.9);
        InMemoryEventSink sink = new InMemoryEventSink();
        RunControl control = new RunControl();
        List<StopTrip> told = new CopyOnWriteArrayList<>();
        control.onTrip(told::add);
        RunPlan plan = new LoadGenerator(vertx).prepare(config(2000, new StopRules(0.5, null, null, false)))
                .get(30, TimeUnit.SECONDS);
        RunOutcome o = new LoadGenerator(vertx).run(plan, sink, RunListener.NONE, control).get(60, TimeUnit.SECONDS);
        int events = sink.payloads(RequestCompleted.class).size() + sink.payloads(RequestFailed.class).size();
        assertThat(o.requestsSent()).as("requests sent of 2000").isLessThan(2000).isEqualTo(events)
                .isBetween(StopRules.DEFAULT_ERROR_WINDOW, StopRules.DEFAULT_ERROR_WINDOW + 4 + 4);
        RunStop s = finished(sink).getStopped();
        assertThat(s).as("RunFinished.stopped").isNotNull();
        assertThat(s.getRule()).isEqualTo(StopRuleChecker.MAX_ERROR_RATE);
        assertThat(s.getDetail()).matches("\\d+ of the last 50 requests failed \\(\\d+%\\), over the 50% limit");
        assertThat(s.getRequestsEnded()).as("the 50th ended request trips it (others may end at once)")
                .isBetween(50, 53);
        assertThat(s.getAtMs()).as("ms after T0").isPositive();
        assertThat(finished(sink).getInterrupted()).as("a stop rule is not an interruption").isFalse();
        assertThat(o.interrupted()).isFalse();
        assertThat(o.stopped()).isEqualTo(s);
        assertThat(o.exitCode()).isEqualTo(RunOutcome.EXIT_STOPPED);
        assertThat(told).as("the caller heard of the trip once").hasSize(1);
        assertThat(told.get(0).rule()).isEqualTo(StopRuleChecker.MAX_ERROR_RATE);
        assertThat(control.stopRequested()).as("the caller's control is not stopped: a sweep goes on").isFalse();
    }

    @Test
    void consecutiveErrorsStopTheRun() throws Exception {
        start(1.0);
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(config(500, new StopRules(null, null, 5, false)), sink,
                RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertThat(o.requestsSent()).as("every request fails: 5 in a row, plus the 3 other slots' in flight")
                .isBetween(5, 8);
        assertThat(finished(sink).getStopped().getRule()).isEqualTo(StopRuleChecker.MAX_CONSECUTIVE_ERRORS);
        assertThat(finished(sink).getStopped().getDetail()).startsWith("5 requests in a row failed, the last with ");
    }

    @Test
    void aHealthyRunIsNotStopped() throws Exception {
        start(0.0);
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(config(120, new StopRules(0.2, 20, 3, true)), sink,
                RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertThat(o.completed()).isEqualTo(120);
        assertThat(o.stopped()).isNull();
        assertThat(finished(sink).getStopped()).isNull();
        assertThat(o.exitCode()).isZero();
    }

    @Test
    void aCoordinatorStopRecordsTheRuleCoordinator() throws Exception {
        start(0.0);
        InMemoryEventSink sink = new InMemoryEventSink();
        RunControl control = new RunControl();
        CompletableFuture<Void> halfway = new CompletableFuture<>();
        RunListener stopAt100 = new RunListener() {
            @Override
            public void onProgress(RunProgress p) {
                if (p.done() == 100) {
                    control.requestStop(StopRuleChecker.COORDINATOR, "the coordinator stopped the run: worker w1"
                            + " (share 1) tripped stop rule max_error_rate: 30 of the last 50 requests failed");
                    halfway.complete(null);
                }
            }
        };
        RunPlan plan = new LoadGenerator(vertx).prepare(config(5000, StopRules.NONE)).get(30, TimeUnit.SECONDS);
        RunOutcome o = new LoadGenerator(vertx).run(plan, sink, stopAt100, control).get(60, TimeUnit.SECONDS);
        assertThat(halfway).isDone();
        RunStop s = finished(sink).getStopped();
        assertThat(s.getRule()).isEqualTo(StopRuleChecker.COORDINATOR);
        assertThat(s.getDetail()).startsWith("the coordinator stopped the run: worker w1");
        assertThat(s.getRequestsEnded()).as("ended when the stop came").isBetween(100, 104);
        assertThat(o.requestsSent()).as("of 5000").isLessThan(200);
        assertThat(finished(sink).getInterrupted()).isFalse();
    }
}
