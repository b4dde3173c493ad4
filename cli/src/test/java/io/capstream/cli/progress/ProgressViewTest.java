package io.capstream.cli.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunProgress;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The plain progress line (issue 11, item 6): a clock that moves, and what the end of a run waits for. */
class ProgressViewTest {
    private static final long S = 1_000_000_000L;

    private static RunPlan plan(int n) {
        return new RunPlan(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                .withLoad(l -> l.withRequests(n))
                .withRequest(r -> r.withCtxTokens(64)), 4096,
                ContextPlan.build(n, 64, 0, null), ApiKey.none());
    }

    @Test
    void theClockMovesAndTheDeliveryWaitIsNamed() {
        AtomicLong now = new AtomicLong(100 * S);
        AtomicLong pending = new AtomicLong();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressView view = new ProgressView(false, new PrintStream(bytes, true, StandardCharsets.UTF_8), 3600,
                now::get).watchDelivery(pending::get);
        view.onStarted("r", plan(300));
        assertEquals("0/300 done (0 s), no request has ended yet", view.line(), "nothing ended yet");
        view.onProgress(new RunProgress(300, 300, 2, 0, 41.5, 42 * S));
        now.addAndGet(42 * S);
        assertEquals("300/300 done (42 s), failed 2, in flight 0, TTFT p50 41.5 ms", view.line());
        now.addAndGet(5 * S);
        assertEquals("300/300 done (47 s), failed 2, in flight 0, TTFT p50 41.5 ms", view.line(),
                "the clock keeps running while nothing ends (it used to stay at 42 s)");
        pending.set(77);
        view.onAwaitingDelivery(300);
        now.addAndGet(12 * S);
        assertEquals("all 300 requests done; waiting for Kafka to acknowledge 77 events (12 s)", view.line());
        pending.set(1);
        now.addAndGet(S);
        assertEquals("all 300 requests done; waiting for Kafka to acknowledge 1 event (13 s)", view.line());
        view.close();
        assertEquals("capstream: run r started: 300 requests\n", bytes.toString(StandardCharsets.UTF_8),
                "no frozen '300/300 done' line at the end");
    }

    @Test
    void anEndpointThatHasNotAnsweredYetStillGetsALineEveryInterval() {
        AtomicLong now = new AtomicLong(7 * S);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressView view = new ProgressView(false, new PrintStream(bytes, true, StandardCharsets.UTF_8), 3600,
                now::get);
        assertThat(view.line()).as("before the run started").isNull();
        view.onStarted("r", plan(2));
        now.addAndGet(200 * S);
        assertThat(view.line())
                .as("a run whose requests hang (a server that only sends keep-alive comments) printed nothing after"
                        + " 'started' for minutes")
                .isEqualTo("0/2 done (200 s), no request has ended yet");
        view.onProgress(new RunProgress(1, 2, 1, 1, null, 201 * S));
        now.addAndGet(S);
        assertThat(view.line()).as("once a request ended").isEqualTo("1/2 done (201 s), failed 1, in flight 1, TTFT p50 -");
        view.close();
    }

    @Test
    void aRunThatEndedEarlySaysSo() {
        AtomicLong now = new AtomicLong();
        ProgressView view = new ProgressView(false, new PrintStream(new ByteArrayOutputStream()), 3600, now::get)
                .watchDelivery(() -> 5);
        view.onStarted("r", plan(300));
        view.onProgress(new RunProgress(120, 300, 0, 0, null, S));
        view.onAwaitingDelivery(120);
        assertEquals("120 of 300 requests done, no more will start; waiting for Kafka to acknowledge 5 events (0 s)",
                view.line());
        view.close();
    }

    /**
     * Fresh-user pass 3: while {@code run} started its embedded broker after the last request, the line said
     * "waiting for Kafka to acknowledge 300 events"; it names the broker's start until the broker is up. Fresh-user
     * pass 4: after the broker's address was printed the line still said "starting the embedded Kafka broker" while
     * the topics, the aggregator and the producer were set up; it names the step the opening is at (failed before:
     * the view only knew whether the opening was still under way).
     */
    @Test
    void whileTheEmbeddedKafkaStartsTheLineNamesEachStep() {
        AtomicLong now = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<String> step =
                new java.util.concurrent.atomic.AtomicReference<>("starting the embedded Kafka broker");
        ProgressView view = new ProgressView(false, new PrintStream(new ByteArrayOutputStream()), 3600, now::get)
                .watchDelivery(() -> 300).watchKafkaStart(step::get);
        view.onStarted("r", plan(300));
        view.onProgress(new RunProgress(300, 300, 0, 0, null, S));
        view.onAwaitingDelivery(300);
        now.addAndGet(3 * S);
        assertThat(view.line()).as("while the broker starts")
                .isEqualTo("all 300 requests done; starting the embedded Kafka broker, 300 events held (3 s)");
        for (String s : List.of("creating the topics", "starting the report aggregator",
                "opening the report waiter and the producer")) {
            step.set(s);
            assertThat(view.line()).as("at the step '%s'", s).isEqualTo("all 300 requests done; " + s
                    + ", 300 events held (3 s)");
        }
        step.set(null);
        assertThat(view.line()).as("once Kafka is up")
                .isEqualTo("all 300 requests done; waiting for Kafka to acknowledge 300 events (3 s)");
        view.close();
    }

    @Test
    void withoutASinkToWatchItStillNamesTheWait() {
        AtomicLong now = new AtomicLong();
        ProgressView view = new ProgressView(false, new PrintStream(new ByteArrayOutputStream()), 3600, now::get);
        view.onStarted("r", plan(4));
        view.onProgress(new RunProgress(4, 4, 0, 0, 10.0, S));
        view.onAwaitingDelivery(4);
        now.addAndGet(3 * S);
        assertEquals("all 4 requests done; waiting for the events to be delivered (3 s)", view.line());
        view.close();
    }
}
