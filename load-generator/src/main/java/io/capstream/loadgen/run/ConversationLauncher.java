package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalClock;
import io.capstream.loadgen.arrival.RequestLauncher;
import io.capstream.loadgen.client.Reply;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.client.ToolCall;
import io.capstream.loadgen.conversation.ConversationBodyWriter;
import io.capstream.loadgen.conversation.ConversationScript;
import io.capstream.loadgen.conversation.HistoryItem;
import io.capstream.loadgen.conversation.InputMessage;
import io.capstream.loadgen.images.ImagePool;
import io.capstream.loadgen.conversation.UserTurn;
import io.capstream.loadgen.workload.PromptBuilder;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;

/**
 * Runs whole conversations (issue 29): the arrival drivers start one per unit ({@link #launch}: unit = conversation
 * index), and it sends the conversation's turns one after another through the {@link RequestPipeline}. It keeps the
 * history (every input, every answer as the server said it, every mocked tool result), writes each turn's body with the
 * {@link ConversationBodyWriter}, waits the think time between a reply's end and the next turn (the next turn's
 * scheduled start is the reply's end plus the wait, so a late timer is client queue time), answers a tool-call answer
 * with mocked tool results after the tool latency, and with {@code --responses-state server} sends only the new items
 * with the previous answer's response id.
 *
 * <p>A conversation ends early, saying why on its last sent request's event ({@link EventFactory.Ending}), when an
 * answer failed, when the next turn would not fit the context window (the history's tokens by the server's usage,
 * prompt plus completion, plus the next input, plus its {@code max_tokens}, above the window), or when the run is
 * stopped; this is decided when the turn ends, before its event is emitted. Thread-safe: each conversation runs on its
 * own context.
 */
final class ConversationLauncher implements RequestLauncher {
    /** Salt of the think-time draws. */
    static final long THINK_SALT = 0x7468696e6bL;

    private final ConversationScript script;
    private final ConversationBodyWriter writer;
    private final RequestPipeline pipeline;
    private final EventFactory events;
    private final ArrivalClock clock;
    private final long t0;
    private final BooleanSupplier stop;
    private final ConversationShape shape;
    private final long seed;
    private final Integer window;
    private final int runMaxTokens;
    private final IntUnaryOperator toGlobal;
    /** The run's synthetic images (issue 30), added to each turn's user messages; null for none. */
    private volatile ImagePool images;

    /**
     * @param plan     the run's plan (window, seed, conversation settings, {@code --max-tokens}); not null
     * @param script   the planned conversations; not null
     * @param writer   writes the turns' bodies in the endpoint's form; not null
     * @param pipeline sends the turns; not null
     * @param events   the run's events (the conversation ids); not null
     * @param clock    time and the think-time timers; not null
     * @param t0       the run's T0, ns on {@code clock}'s scale
     * @param stop     true once the run should stop (no further turn is sent); not null
     * @param toGlobal a driver's unit to the run's conversation index (a worker's share: its local counter to the
     *                 share's conversations; else identity); not null
     */
    ConversationLauncher(RunPlan plan, ConversationScript script, ConversationBodyWriter writer,
                         RequestPipeline pipeline, EventFactory events, ArrivalClock clock, long t0,
                         BooleanSupplier stop, IntUnaryOperator toGlobal) {
        this.script = script;
        this.writer = writer;
        this.pipeline = pipeline;
        this.events = events;
        this.clock = clock;
        this.t0 = t0;
        this.stop = stop;
        this.shape = plan.config().conversation();
        this.seed = plan.config().identity().seed();
        this.window = plan.maxModelLen();
        this.runMaxTokens = plan.config().request().maxTokens();
        this.toGlobal = toGlobal;
    }

    /**
     * @param pool the run's synthetic images, added to each turn's user messages (those of request i: the pool's
     *             images for i), or null for none
     * @return this launcher
     */
    ConversationLauncher withImages(ImagePool pool) {
        this.images = pool;
        return this;
    }

    /**
     * Starts a conversation's first turn; {@code onEnd} runs once when its last turn ended.
     *
     * @param unit        the driver's unit (a conversation, mapped with {@code toGlobal})
     * @param scheduledNs its first turn's scheduled start, ns after T0
     * @param context     its event-loop context
     * @param onEnd       run once when the conversation ended
     */
    @Override
    public void launch(int unit, long scheduledNs, Context context, Runnable onEnd) {
        new Conversation(toGlobal.applyAsInt(unit), context, onEnd).start(scheduledNs);
    }

    /**
     * @param index request index of the turn after which the wait comes
     * @return the think time after that turn's reply, ns (a normal draw, seeded by the run's seed and the index, at
     *         least 0)
     */
    long thinkNs(int index) {
        double mean = shape.thinkTimeS() == null ? 0 : shape.thinkTimeS();
        double sd = shape.thinkTimeStddevS() == null ? 0 : shape.thinkTimeStddevS();
        double s = sd == 0 ? mean : mean + sd * new SplittableRandom(seed ^ THINK_SALT ^ (index * 0x9E3779B97F4A7C15L))
                .nextGaussian();
        return (long) (Math.max(0, s) * 1e9);
    }

    /**
     * @param tokens the mocked result's size, tokens
     * @param call   the tool call it answers
     * @return filler text of about {@code tokens} tokens (the run's estimate: 3 characters per token)
     */
    static String toolResult(int tokens, ToolCall call) {
        int chars = (int) Math.min(Integer.MAX_VALUE - 64, (long) (tokens * PromptBuilder.CHARS_PER_TOKEN));
        StringBuilder sb = new StringBuilder(chars + 64);
        sb.append("result of ").append(call.name()).append(":\n");
        for (int k = 0; sb.length() < chars; k++) {
            sb.append("row_").append(k).append(" = lookup(").append(k).append(")  # tool output\n");
        }
        sb.setLength(Math.max(1, chars));
        return sb.toString();
    }

    /** One conversation in progress; used on its context only (one turn at a time). */
    private final class Conversation {
        private final int index;
        private final Context ctx;
        private final Runnable onEnd;
        private final String id;
        private final int turns;
        private final int first;
        private final List<HistoryItem> history = new ArrayList<>();
        /** Where the items after the last answer start (what {@code --responses-state server} sends). */
        private int sinceAnswer;
        private String previousResponseId;
        /** The next turn's new user input, drawn when the previous turn ended (for the window check). */
        private UserTurn nextUser;
        /** Tokens the client estimates for the history when the server gave no usage. */
        private long estimatedHistory;
        /** Whether the last turn's end decided that the conversation ends there. */
        private boolean endedEarly;

        Conversation(int index, Context ctx, Runnable onEnd) {
            this.index = index;
            this.ctx = ctx;
            this.onEnd = onEnd;
            this.id = events.conversationId(index);
            this.turns = script.turns(index);
            this.first = script.firstRequest(index);
        }

        void start(long scheduledNs) {
            try {
                nextUser = script.userTurn(index, 1);
            } catch (RuntimeException e) {
                nextUser = null; // the first turn then fails before it is sent, with this reason
                sendTurn(1, scheduledNs, e);
                return;
            }
            sendTurn(1, scheduledNs, null);
        }

        /**
         * @param turn        1-based
         * @param scheduledNs its scheduled start, ns after T0
         * @param unusable    why its input could not be made, or null
         */
        private void sendTurn(int turn, long scheduledNs, RuntimeException unusable) {
            int request = first + turn - 1;
            int maxTokens = runMaxTokens;
            if (unusable == null && nextUser != null) {
                history.add(new HistoryItem.Input(withImages(nextUser.messages(), request)));
                estimatedHistory += nextUser.promptTokens();
                if (nextUser.maxTokens() != null) {
                    maxTokens = nextUser.maxTokens();
                }
            }
            int mt = maxTokens;
            boolean server = shape.serverState() && previousResponseId != null;
            List<HistoryItem> sent = server ? List.copyOf(history.subList(sinceAnswer, history.size()))
                    : List.copyOf(history);
            String prev = server ? previousResponseId : null;
            long chars = 0;
            for (HistoryItem h : sent) {
                chars += size(h);
            }
            Map<String, String> headers = shape.sessionHeader() == null ? Map.of() : Map.of(shape.sessionHeader(), id);
            pipeline.launchTurn(request, scheduledNs, ctx, () -> {
                if (unusable != null) {
                    throw unusable;
                }
                return writer.request(sent, mt, prev);
            }, chars > io.capstream.loadgen.workload.BodySource.INLINE_BODY_CHARS, headers,
                    new EventFactory.Turn(id, turn, null, null), r -> decide(turn, r), r -> ended(turn, r));
        }

        /** @return the messages, the user ones with request {@code request}'s synthetic images when the run has any */
        private List<InputMessage> withImages(List<InputMessage> messages, int request) {
            if (images == null) {
                return messages;
            }
            return messages.stream()
                    .map(m -> "user".equals(m.role()) ? m.withImages(images.forMessage(request)) : m).toList();
        }

        private static long size(HistoryItem h) {
            if (h instanceof HistoryItem.Input in) {
                return in.messages().stream().mapToLong(m -> m.content().length()).sum();
            }
            if (h instanceof HistoryItem.Answer a) {
                return a.reply().text().length() + a.reply().toolCalls().stream()
                        .mapToLong(c -> c.arguments().length()).sum();
            }
            return ((HistoryItem.ToolResult) h).content().length();
        }

        /** Decides, when turn {@code turn} ended with {@code r}, whether the conversation ends here early. */
        private EventFactory.Ending decide(int turn, RequestResult r) {
            EventFactory.Ending e = ending(turn, r);
            endedEarly = e != null;
            return e;
        }

        private EventFactory.Ending ending(int turn, RequestResult r) {
            int left = turns - turn;
            if (left <= 0) {
                return null;
            }
            if (r != null && r.cancelled()) {
                return new EventFactory.Ending(EventFactory.Ending.CANCELLED + ": turn " + turn
                        + " was cancelled by the client (--cancel-rate), so its user left", left);
            }
            if (r == null || !r.ok()) {
                return new EventFactory.Ending(EventFactory.Ending.ANSWER_FAILED + ": turn " + turn
                        + "'s answer failed, so turn " + (turn + 1) + " had no answer to follow", left);
            }
            if (stop.getAsBoolean()) {
                return new EventFactory.Ending(EventFactory.Ending.STOPPED + ": the run was stopped after turn " + turn,
                        left);
            }
            Reply reply = r.reply();
            long nextInput;
            int nextMax = runMaxTokens;
            nextUser = null;
            if (!reply.toolCalls().isEmpty() && shape.tools() != null) {
                nextInput = (long) reply.toolCalls().size() * shape.effectiveToolResultTokens();
            } else {
                try {
                    nextUser = script.userTurn(index, turn + 1);
                } catch (RuntimeException e) {
                    return null; // the next turn fails before it is sent, with this reason
                }
                nextInput = nextUser.promptTokens();
                if (nextUser.maxTokens() != null) {
                    nextMax = nextUser.maxTokens();
                }
            }
            long completion = r.completionTokens() >= 0 ? r.completionTokens() : r.contentChunks();
            long historyTokens = r.promptTokens() >= 0 ? r.promptTokens() + completion : estimatedHistory + completion;
            if (window != null && historyTokens + nextInput + nextMax > window) {
                return new EventFactory.Ending(EventFactory.Ending.CONTEXT_WINDOW + ": turn " + (turn + 1) + " would need "
                        + historyTokens + " history + " + nextInput + " new + " + nextMax + " max_tokens = "
                        + (historyTokens + nextInput + nextMax) + " tokens, over the " + window + "-token context window",
                        left);
            }
            return null;
        }

        /** After turn {@code turn}'s event was emitted: the next turn after its wait, or the conversation's end. */
        private void ended(int turn, RequestResult r) {
            if (turn >= turns || r == null || !r.ok() || endedEarly) {
                onEnd.run();
                return;
            }
            Reply reply = r.reply();
            long completion = r.completionTokens() >= 0 ? r.completionTokens() : r.contentChunks();
            estimatedHistory = (r.promptTokens() >= 0 ? r.promptTokens() : estimatedHistory) + completion;
            history.add(new HistoryItem.Answer(reply));
            sinceAnswer = history.size();
            previousResponseId = reply.responseId();
            long waitNs;
            RuntimeException unusable = null;
            if (!reply.toolCalls().isEmpty() && shape.tools() != null) {
                for (ToolCall call : reply.toolCalls()) {
                    history.add(new HistoryItem.ToolResult(call.id(), call.name(),
                            toolResult(shape.effectiveToolResultTokens(), call)));
                    estimatedHistory += shape.effectiveToolResultTokens();
                }
                nextUser = null;
                waitNs = shape.toolLatencyS() == null ? 0 : (long) (shape.toolLatencyS() * 1e9);
            } else {
                if (nextUser == null) {
                    try {
                        nextUser = script.userTurn(index, turn + 1);
                    } catch (RuntimeException e) {
                        unusable = e;
                    }
                }
                waitNs = thinkNs(first + turn - 1);
            }
            long replyEnd = r.t0Ns() + r.e2eNs();
            long scheduledNs = replyEnd + waitNs - t0;
            long delayNs = replyEnd + waitNs - clock.nanoTime();
            RuntimeException reason = unusable;
            if (delayNs < 1_000_000L) {
                sendTurn(turn + 1, scheduledNs, reason);
            } else {
                clock.setTimer(ctx, Math.max(1, Math.round(delayNs / 1e6)), () -> {
                    if (stop.getAsBoolean()) {
                        onEnd.run(); // stopped during the think time or tool latency: the next turn is not sent
                    } else {
                        sendTurn(turn + 1, scheduledNs, reason);
                    }
                });
            }
        }
    }
}
