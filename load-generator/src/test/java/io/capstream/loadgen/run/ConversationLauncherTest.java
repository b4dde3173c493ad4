package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.loadgen.arrival.ArrivalClock;
import io.capstream.loadgen.client.OutputChunkGaps;
import io.capstream.loadgen.client.Reply;
import io.capstream.loadgen.client.RequestError;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.ToolCall;
import io.capstream.loadgen.conversation.ConversationBodyWriter;
import io.capstream.loadgen.conversation.HistoryItem;
import io.capstream.loadgen.conversation.InputMessage;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.BodySource;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.text.SecretMask;
import io.capstream.schemas.time.ManualCapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conversation engine alone (issue 29): a fake sender whose answers the test writes, a manual clock and manual
 * timers (no test sleeps through a think time), a minimal chat body writer, events in memory.
 */
class ConversationLauncherTest {
    static Vertx vertx;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    /** A minimal chat writer (tests only): the history as chat messages, max_tokens, previous_response_id. */
    static final ConversationBodyWriter CHAT = (history, maxTokens, previousResponseId) -> {
        ObjectNode body = JSON.createObjectNode().put("model", "m").put("max_tokens", maxTokens).put("stream", true);
        if (previousResponseId != null) {
            body.put("previous_response_id", previousResponseId);
        }
        ArrayNode messages = body.putArray("messages");
        for (HistoryItem h : history) {
            if (h instanceof HistoryItem.Input in) {
                for (InputMessage m : in.messages()) {
                    messages.addObject().put("role", m.role()).put("content", m.content());
                }
            } else if (h instanceof HistoryItem.Answer a) {
                ObjectNode m = messages.addObject().put("role", "assistant").put("content", a.reply().text());
                for (ToolCall c : a.reply().toolCalls()) {
                    m.withArray("tool_calls").addObject().put("id", c.id()).put("type", "function")
                            .putObject("function").put("name", c.name()).put("arguments", c.arguments());
                }
            } else if (h instanceof HistoryItem.ToolResult t) {
                messages.addObject().put("role", "tool").put("tool_call_id", t.callId()).put("content", t.content());
            }
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    };

    /** Timers the test fires by hand, on the manual clock. */
    static final class ManualTimers implements ArrivalClock {
        final ManualCapClock clock;
        final List<Long> delaysMs = new CopyOnWriteArrayList<>();
        final List<Runnable> tasks = new CopyOnWriteArrayList<>();

        ManualTimers(ManualCapClock clock) {
            this.clock = clock;
        }

        @Override
        public long nanoTime() {
            return clock.nanoTime();
        }

        @Override
        public long setTimer(Context context, long delayMs, Runnable task) {
            delaysMs.add(delayMs);
            tasks.add(() -> context.runOnContext(v -> task.run()));
            return tasks.size();
        }

        @Override
        public void cancelTimer(Context context, long timerId) {
        }

        /** Advances the clock by the timer's delay and fires it. */
        void fire(int i) {
            clock.advance(Duration.ofMillis(delaysMs.get(i)));
            tasks.get(i).run();
        }
    }

    /** One sent request: its body and headers. */
    record Sent(String body, Map<String, String> headers) {
        JsonView json() throws Exception {
            return new JsonView(JSON.readTree(body));
        }
    }

    record JsonView(com.fasterxml.jackson.databind.JsonNode node) {
        List<String> roles() {
            List<String> out = new ArrayList<>();
            node.get("messages").forEach(m -> out.add(m.get("role").asText()));
            return out;
        }

        String content(int i) {
            return node.get("messages").get(i).get("content").asText();
        }
    }

    /** What the engine runs with: a plan, the sink, the fake sender's bodies and the manual timers. */
    final class Harness {
        final ManualCapClock clock = new ManualCapClock();
        final ManualTimers timers = new ManualTimers(clock);
        final long t0 = clock.nanoTime();
        final InMemoryEventSink sink = new InMemoryEventSink();
        final List<Sent> sent = new CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        final RunPlan plan;
        final RequestPipeline pipeline;
        final ConversationLauncher launcher;

        /**
         * @param config  the run's conversation settings, on a 6-request chat run with 100-token contexts
         * @param window  the context window, tokens
         * @param answers request index to its result (t0 = now on the manual clock)
         */
        Harness(UnaryOperator<RunConfig> config, int window, Function<Integer, RequestResult> answers)
                throws Exception {
            this(config, window, answers, null);
        }

        /** As above, for a worker's share ({@code share}, or null for the whole run). */
        Harness(UnaryOperator<RunConfig> config, int window, Function<Integer, RequestResult> answers,
                PlanShare share) throws Exception {
            RunConfig c = config.apply(RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                    .withLoad(l -> l.withRequests(6))
                    .withRequest(r -> r.withSharedPrefixTokens(0).withCtxTokens(100).withMaxTokens(16).withMargin(0)));
            plan = RunPlanner.complete(c, window, ApiKey.none()).get();
            EventFactory events = new EventFactory("run-1", "w", plan, clock);
            RequestPipeline.Observer none = new RequestPipeline.Observer() {
                @Override
                public void inFlight(int n) {
                }

                @Override
                public void request(long e2eNs, int chunks) {
                }
            };
            BodySource single = new BodySource(new PromptBuilder(0), new RequestBodyBuilder("m", 16, null, null));
            pipeline = new RequestPipeline(plan, plan.requests(), single, (body, headers) -> {
                sent.add(new Sent(body.toString(StandardCharsets.UTF_8), headers));
                RequestResult r = answers.apply(sent.size() - 1);
                clock.advance(Duration.ofNanos(r.e2eNs())); // the request took its time
                return Future.succeededFuture(r);
            }, events, t0, none, sink, new GuardedListener(null, SecretMask.NONE), clock);
            launcher = new ConversationLauncher(plan, ConversationScripts.of(plan), CHAT, pipeline, events, timers,
                    t0, stopped::get, share == null ? u -> u : share::globalIndex);
        }

        /** Starts conversation {@code c} at T0; @return completes when it ended */
        CompletableFuture<Void> run(int c) {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            Context ctx = vertx.getOrCreateContext();
            ctx.runOnContext(v -> launcher.launch(c, 0, ctx, () -> ended.complete(null)));
            return ended;
        }

        /** A text answer, 10 ms long from now, with usage. */
        RequestResult text(String answer, long promptTokens) {
            return new RequestResult(clock.nanoTime(), 2_000_000, 3_000_000, 10_000_000, 200, promptTokens, 4, 0, 4, 0,
                    1_000_000, "stop", 100, OutputChunkGaps.NONE, null, 0, new Reply(answer, List.of(), "resp-" + answer));
        }

        RequestCompleted completed(int i) {
            return (RequestCompleted) sink.events().get(i).getPayload();
        }
    }

    private static RunConfig threeTurns(RunConfig c) {
        return c.withConversation(s -> s.withTurns(new LengthDistribution(3, 0)).withThinkTime(2.0, null)
                .withSessionHeader("X-Session-Id"));
    }

    @Test
    void laterTurnsCarryThePreviousAnswersAfterTheThinkTime() throws Exception {
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(ConversationLauncherTest::threeTurns, 32_768,
                i -> h.get(0).text("answer " + (i + 1), 100L * (i + 1) + 8L * i)));
        Harness run = h.get(0);
        CompletableFuture<Void> ended = run.run(0);
        await().atMost(10, TimeUnit.SECONDS).until(() -> run.timers.tasks.size() == 1);
        assertThat(run.timers.delaysMs).as("the think time before turn 2, ms").containsExactly(2000L);
        run.timers.fire(0);
        await().atMost(10, TimeUnit.SECONDS).until(() -> run.timers.tasks.size() == 2);
        run.timers.fire(1);
        ended.get(10, TimeUnit.SECONDS);

        assertThat(run.sent).as("requests sent").hasSize(3);
        JsonView first = run.sent.get(0).json();
        JsonView second = run.sent.get(1).json();
        JsonView third = run.sent.get(2).json();
        assertThat(first.roles()).as("turn 1's messages").containsExactly("user");
        assertThat(second.roles()).as("turn 2's messages").containsExactly("user", "assistant", "user");
        assertThat(second.content(1)).as("turn 2 carries turn 1's answer").isEqualTo("answer 1");
        assertThat(second.content(0)).as("turn 2 re-sends turn 1's prompt").isEqualTo(first.content(0));
        assertThat(second.content(2)).as("turn 2's new prompt (request 1)").contains("# request 1:");
        assertThat(third.roles()).as("turn 3's messages")
                .containsExactly("user", "assistant", "user", "assistant", "user");
        assertThat(List.of(third.content(1), third.content(3))).as("turn 3 carries both earlier answers")
                .containsExactly("answer 1", "answer 2");
        assertThat(run.sent).as("the session header on every turn").extracting(s -> s.headers().get("X-Session-Id"))
                .containsOnly("run-1-c0");

        assertThat(run.sink.events()).as("events").hasSize(3);
        for (int i = 0; i < 3; i++) {
            RequestCompleted c = run.completed(i);
            assertThat(c.getRequestIndex()).as("request index of turn " + (i + 1)).isEqualTo(i);
            assertThat(c.getConversationId()).as("conversation id").isEqualTo("run-1-c0");
            assertThat(c.getTurn()).as("turn").isEqualTo(i + 1);
            assertThat(c.getOutputKind()).as("output kind").isEqualTo("text");
            assertThat(c.getToolCalls()).as("tool calls").isZero();
            assertThat(c.getConversationEnd()).as("no early end").isNull();
        }
        // turn 1 started at T0 and ended 10 ms later; turn 2 was due 2 s after that reply's end
        assertThat(run.completed(1).getScheduledStartNs()).as("turn 2 scheduled at reply end + think time, ns")
                .isEqualTo(10_000_000L + 2_000_000_000L);
        assertThat(run.completed(2).getScheduledStartNs()).as("turn 3 scheduled at turn 2's reply end + think time")
                .isEqualTo(2 * (10_000_000L + 2_000_000_000L));
        assertThat(run.pipeline.unsent()).as("unsent turns").isZero();
    }

    /** Before: a run stopped during a think time still sent the conversation's next turn when the timer fired. */
    @Test
    void aRunStoppedDuringAThinkTimeSendsNoFurtherTurn() throws Exception {
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(ConversationLauncherTest::threeTurns, 32_768, i -> h.get(0).text("answer " + (i + 1), 100L)));
        Harness run = h.get(0);
        CompletableFuture<Void> ended = run.run(0);
        await().atMost(10, TimeUnit.SECONDS).until(() -> run.timers.tasks.size() == 1);
        run.stopped.set(true);
        run.timers.fire(0);
        ended.get(10, TimeUnit.SECONDS);
        assertThat(run.sent).as("requests sent: turn 1 only").hasSize(1);
        assertThat(run.sink.events()).as("events").hasSize(1);
    }

    @Test
    void aWorkersShareHoldsWholeConversations() throws Exception {
        // 7 requests at --turns 3: conversations of 3, 3 and 1 turns; share 1 of 2 holds conversation 1 only
        PlanShare share = new PlanShare(1, 2);
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(c -> c.withLoad(l -> l.withRequests(7))
                .withConversation(s -> s.withTurns(new LengthDistribution(3, 0))), 32_768,
                i -> h.get(0).text("answer", 100), share));
        Harness run = h.get(0);
        ConversationScriptsView view = new ConversationScriptsView(ConversationScripts.of(run.plan));
        assertThat(view.turns()).as("the conversations' turns").containsExactly(3, 3, 1);
        assertThat(ConversationScripts.requestsOf(ConversationScripts.of(run.plan), share))
                .as("requests of share 1 of 2").isEqualTo(3);
        assertThat(ConversationScripts.requestsOf(ConversationScripts.of(run.plan), new PlanShare(0, 2)))
                .as("requests of share 0 of 2: conversations 0 and 2").isEqualTo(4);
        run.run(0).get(10, TimeUnit.SECONDS);
        assertThat(run.sink.events()).as("share 1's unit 0: conversation 1's three turns")
                .extracting(e -> ((RequestCompleted) e.getPayload()).getRequestIndex()).containsExactly(3, 4, 5);
        assertThat(run.completed(2).getConversationId()).as("its id").isEqualTo("run-1-c1");
    }

    /** The turns of a script's conversations. */
    record ConversationScriptsView(io.capstream.loadgen.conversation.ConversationScript script) {
        List<Integer> turns() {
            List<Integer> t = new ArrayList<>();
            for (int c = 0; c < script.conversations(); c++) {
                t.add(script.turns(c));
            }
            return t;
        }
    }

    @Test
    void aConversationWhoseNextTurnWouldNotFitTheWindowEndsWithItsReason() throws Exception {
        // window 400: turn 1 used 300 prompt + 4 completion tokens; turn 2 adds 100 input + 16 max_tokens = 420 > 400
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(ConversationLauncherTest::threeTurns, 400, i -> h.get(0).text("answer", 300)));
        Harness run = h.get(0);
        run.run(0).get(10, TimeUnit.SECONDS);
        assertThat(run.sent).as("requests sent").hasSize(1);
        assertThat(run.timers.tasks).as("no think time is waited").isEmpty();
        RequestCompleted c = run.completed(0);
        assertThat(c.getConversationEnd()).as("why it ended").startsWith("context_window: turn ")
                .contains("-token context window");
        assertThat(c.getUnsentTurns()).as("its unsent turns").isEqualTo(2);
        assertThat(run.pipeline.unsent()).as("unsent turns counted by the pipeline").isEqualTo(2);
    }

    @Test
    void serverStateSendsOnlyTheNewInputWithThePreviousResponseId() throws Exception {
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(c -> c.withConversation(s -> s.withTurns(new LengthDistribution(3, 0))
                .withResponsesState("server")), 32_768, i -> h.get(0).text("answer " + (i + 1), 100)));
        Harness run = h.get(0);
        run.run(0).get(10, TimeUnit.SECONDS);
        assertThat(run.sent).as("requests sent").hasSize(3);
        assertThat(run.sent.get(0).json().node().has("previous_response_id")).as("turn 1: no previous response")
                .isFalse();
        for (int t = 1; t < 3; t++) {
            JsonView body = run.sent.get(t).json();
            assertThat(body.roles()).as("turn " + (t + 1) + ": only its new user message").containsExactly("user");
            assertThat(body.node().get("previous_response_id").asText()).as("turn " + (t + 1) + "'s previous id")
                    .isEqualTo("resp-answer " + t);
            assertThat(body.content(0)).as("its new prompt").contains("# request " + t + ":");
        }
    }

    @Test
    void aFailedAnswerEndsItsConversation() throws Exception {
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(c -> c.withConversation(s -> s.withTurns(new LengthDistribution(3, 0))), 32_768,
                i -> i == 0 ? h.get(0).text("answer", 100)
                        : RequestResult.failed(h.get(0).clock.nanoTime(), 5_000_000,
                        RequestError.of("HTTPError", "HTTP Error 500: boom"))));
        Harness run = h.get(0);
        run.run(0).get(10, TimeUnit.SECONDS);
        assertThat(run.sent).as("requests sent (no think time: the next turn at once)").hasSize(2);
        RequestFailed f = (RequestFailed) run.sink.events().get(1).getPayload();
        assertThat(f.getTurn()).as("failed turn").isEqualTo(2);
        assertThat(f.getConversationEnd()).as("why it ended").startsWith("answer_failed: turn ");
        assertThat(f.getUnsentTurns()).as("unsent").isEqualTo(1);
        assertThat(f.getConversationId()).as("conversation id").isEqualTo("run-1-c0");
    }

    /** Issue 30: a turn the client cancelled ends its conversation, as a cancel (its user left), not a failure. */
    @Test
    void aCancelledTurnEndsItsConversation() throws Exception {
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(c -> c.withConversation(s -> s.withTurns(new LengthDistribution(3, 0))), 32_768,
                i -> i == 0 ? h.get(0).text("answer", 100)
                        : RequestResult.failed(h.get(0).clock.nanoTime(), 5_000_000,
                        RequestError.of(io.capstream.loadgen.client.ErrorTypes.CANCELLED, "cancelled by the client"))));
        Harness run = h.get(0);
        run.run(0).get(10, TimeUnit.SECONDS);
        assertThat(run.sent).as("requests sent").hasSize(2);
        RequestFailed f = (RequestFailed) run.sink.events().get(1).getPayload();
        assertThat(f.getCancelled()).as("cancelled").isTrue();
        assertThat(f.getConversationEnd()).as("why it ended").startsWith("cancelled: turn 2 ");
        assertThat(f.getUnsentTurns()).as("unsent").isEqualTo(1);
        assertThat(run.pipeline.cancelled()).as("cancelled requests").isEqualTo(1);
        assertThat(run.pipeline.failed()).as("failed requests").isZero();
    }

    @Test
    void aToolCallIsAnsweredWithAMockedResultAfterTheToolLatency() throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{}}}]");
        List<Harness> h = new ArrayList<>();
        h.add(new Harness(c -> c.withConversation(s -> s.withTurns(new LengthDistribution(2, 0)).withTools(tools)
                .withToolAnswers("auto", 20, 0.05)), 32_768,
                i -> new RequestResult(h.get(0).clock.nanoTime(), 2_000_000, 2_000_000, 10_000_000, 200, 100, 8, 0, 0,
                        0, -1, "tool_calls", 100, OutputChunkGaps.NONE, null, 3,
                        new Reply("", List.of(new ToolCall("call_" + i, "get_weather", "{\"city\":\"Oslo\"}")), null))));
        Harness run = h.get(0);
        CompletableFuture<Void> ended = run.run(0);
        await().atMost(10, TimeUnit.SECONDS).until(() -> run.timers.tasks.size() == 1);
        assertThat(run.timers.delaysMs).as("the tool latency, ms").containsExactly(50L);
        run.timers.fire(0);
        ended.get(10, TimeUnit.SECONDS);
        JsonView second = run.sent.get(1).json();
        assertThat(second.roles()).as("turn 2: prompt, the tool call, its result")
                .containsExactly("user", "assistant", "tool");
        assertThat(second.node().get("messages").get(2).get("tool_call_id").asText()).as("the result's call id")
                .isEqualTo("call_0");
        assertThat(second.content(2).length()).as("the result's size, ~20 tokens x 3 characters").isEqualTo(60);
        RequestCompleted c = run.completed(0);
        assertThat(c.getOutputKind()).as("output kind").isEqualTo("tool_call");
        assertThat(c.getToolCalls()).as("tool calls").isEqualTo(1);
    }
}
