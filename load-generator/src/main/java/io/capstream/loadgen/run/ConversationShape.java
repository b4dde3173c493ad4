package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.LengthDistribution;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The conversation group of a {@link RunConfig} (issue 29): how many turns each planned conversation has, the think
 * time between a reply and the next turn, the session header, the tools sent and how a tool call is answered, and
 * where a Responses conversation keeps its state. {@link #NONE} (every value absent) is the reference's single-turn
 * run, whose events and report are unchanged.
 *
 * @param turns            {@code --turns MEAN[,STDDEV]}: turns per conversation (normal, seeded by {@code --seed},
 *                         rounded, at least 1); null = 1
 * @param thinkTimeS       {@code --think-time}: mean wait between a reply's end and the next turn, seconds; null = 0
 * @param thinkTimeStddevS its standard deviation, seconds; null = 0
 * @param sessionHeader    {@code --session-header NAME}: a header carrying the conversation id on every turn, or null
 * @param tools            {@code --tools FILE}: OpenAI-style tool definitions sent with every request, or null
 * @param toolChoice       {@code --tool-choice}: auto, required or none; null = the API's default (auto)
 * @param toolResultTokens {@code --tool-result-tokens}: tokens of a mocked tool result; null =
 *                         {@value #DEFAULT_TOOL_RESULT_TOKENS}
 * @param toolLatencyS     {@code --tool-latency}: wait before a tool result is sent, seconds; null = 0
 * @param responsesState   {@code --responses-state}: client (the history is sent) or server
 *                         ({@code previous_response_id}); null = client
 */
public record ConversationShape(LengthDistribution turns, Double thinkTimeS, Double thinkTimeStddevS,
                                String sessionHeader, Path tools, String toolChoice, Integer toolResultTokens,
                                Double toolLatencyS, String responsesState) {
    /** Tokens of a mocked tool result without {@code --tool-result-tokens}. */
    public static final int DEFAULT_TOOL_RESULT_TOKENS = 64;
    /** Largest {@code --tool-result-tokens}. */
    public static final int MAX_TOOL_RESULT_TOKENS = 1_048_576;
    /** Largest mean of {@code --turns}. */
    public static final int MAX_TURNS = 10_000;
    /** Largest {@code --think-time} and {@code --tool-latency}, seconds. */
    public static final double MAX_WAIT_S = 3600;
    /** The values of {@code --tool-choice}. */
    public static final Set<String> TOOL_CHOICES = Set.of("auto", "required", "none");

    /** Single-turn requests without tools: the reference's run. */
    public static final ConversationShape NONE = new ConversationShape(null, null, null, null, null, null, null, null,
            null);

    /** Lower-cases the tool choice and the responses state; a blank session header is none. */
    public ConversationShape {
        toolChoice = toolChoice == null ? null : toolChoice.strip().toLowerCase(Locale.ROOT);
        responsesState = responsesState == null ? null : responsesState.strip().toLowerCase(Locale.ROOT);
        sessionHeader = sessionHeader == null || sessionHeader.isBlank() ? null : sessionHeader.strip();
    }

    /**
     * @return whether requests are turns of conversations: {@code --turns} other than exactly 1, or {@code --tools}
     *         (each request then carries its conversation id and turn); false for the reference's run
     */
    public boolean conversations() {
        return multiTurn() || tools != null;
    }

    /** @return whether a conversation may have more than one turn ({@code --turns} mean above 1 or a spread) */
    public boolean multiTurn() {
        return turns != null && (turns.mean() != 1 || turns.stddev() != 0);
    }

    /** @return whether {@code --responses-state server} was given */
    public boolean serverState() {
        return "server".equals(responsesState);
    }

    /** @return the tokens of a mocked tool result */
    public int effectiveToolResultTokens() {
        return toolResultTokens == null ? DEFAULT_TOOL_RESULT_TOKENS : toolResultTokens;
    }

    /** @param v {@code --turns}, or null @return a copy with it */
    public ConversationShape withTurns(LengthDistribution v) {
        return new ConversationShape(v, thinkTimeS, thinkTimeStddevS, sessionHeader, tools, toolChoice,
                toolResultTokens, toolLatencyS, responsesState);
    }

    /** @param mean seconds, or null @param stddev seconds, or null @return a copy with this think time */
    public ConversationShape withThinkTime(Double mean, Double stddev) {
        return new ConversationShape(turns, mean, stddev, sessionHeader, tools, toolChoice, toolResultTokens,
                toolLatencyS, responsesState);
    }

    /** @param v header name, or null @return a copy with it */
    public ConversationShape withSessionHeader(String v) {
        return new ConversationShape(turns, thinkTimeS, thinkTimeStddevS, v, tools, toolChoice, toolResultTokens,
                toolLatencyS, responsesState);
    }

    /** @param v tools file, or null @return a copy with it */
    public ConversationShape withTools(Path v) {
        return new ConversationShape(turns, thinkTimeS, thinkTimeStddevS, sessionHeader, v, toolChoice,
                toolResultTokens, toolLatencyS, responsesState);
    }

    /**
     * @param choice  {@code --tool-choice}, or null
     * @param tokens  {@code --tool-result-tokens}, or null
     * @param latency {@code --tool-latency}, seconds, or null
     * @return a copy with these tool settings
     */
    public ConversationShape withToolAnswers(String choice, Integer tokens, Double latency) {
        return new ConversationShape(turns, thinkTimeS, thinkTimeStddevS, sessionHeader, tools, choice, tokens,
                latency, responsesState);
    }

    /** @param v client, server, or null @return a copy with it */
    public ConversationShape withResponsesState(String v) {
        return new ConversationShape(turns, thinkTimeS, thinkTimeStddevS, sessionHeader, tools, toolChoice,
                toolResultTokens, toolLatencyS, v);
    }

    /**
     * Checks the group's own values and the rules that involve the endpoint (the tools file itself is checked by
     * {@link RunValidator}).
     *
     * @param endpoint the run's endpoint; not null
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems(ApiEndpoint endpoint) {
        return problems(endpoint, false);
    }

    /**
     * {@link #problems(ApiEndpoint)} for a run that may replay a {@code --dataset}: a multi-turn dataset's
     * conversations take {@code --think-time}, {@code --session-header} and {@code --responses-state server} as
     * synthetic ones do, and whether it is multi-turn is known only once it is read ({@link RunPlanner}), so with a
     * dataset the rules that want conversations are left to the planner.
     *
     * @param endpoint the run's endpoint; not null
     * @param dataset  whether the run has a {@code --dataset} (or {@code --trace})
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems(ApiEndpoint endpoint, boolean dataset) {
        List<String> errors = new ArrayList<>();
        boolean turnsUnknown = dataset && !multiTurn() && tools == null;
        if (turns != null) {
            if (!Double.isFinite(turns.mean()) || turns.mean() < 1 || turns.mean() > MAX_TURNS
                    || !Double.isFinite(turns.stddev()) || turns.stddev() < 0) {
                errors.add("--turns needs a mean between 1 and " + MAX_TURNS + " and a standard deviation >= 0, got "
                        + turns.label().replaceAll(",0$", ""));
            }
        }
        waitProblem(errors, "--think-time", thinkTimeS);
        waitProblem(errors, "--think-time standard deviation", thinkTimeStddevS);
        waitProblem(errors, "--tool-latency", toolLatencyS);
        if (!turnsUnknown) {
            errors.addAll(needConversations(""));
        }
        if (sessionHeader != null && !sessionHeader.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            errors.add("--session-header must be a header name (letters, digits, '-'), got '" + sessionHeader + "'");
        }
        if (toolChoice != null && !TOOL_CHOICES.contains(toolChoice)) {
            errors.add("--tool-choice must be auto, required or none, got '" + toolChoice + "'");
        }
        if (tools == null && (toolChoice != null || toolResultTokens != null || toolLatencyS != null)) {
            errors.add("--tool-choice, --tool-result-tokens and --tool-latency need --tools FILE");
        }
        if (toolResultTokens != null) {
            Ranges.check(errors, "--tool-result-tokens", toolResultTokens, 1, MAX_TOOL_RESULT_TOKENS);
        }
        if (responsesState != null) {
            if (!Set.of("client", "server").contains(responsesState)) {
                errors.add("--responses-state must be client or server, got '" + responsesState + "'");
            } else if (serverState() && endpoint != ApiEndpoint.RESPONSES) {
                errors.add("--responses-state server needs --endpoint responses (previous_response_id is a Responses"
                        + " API field)");
            }
        }
        if (conversations() && endpoint == ApiEndpoint.COMPLETIONS) {
            errors.add("--turns and --tools need a chat, responses or messages --endpoint (completions has no"
                    + " conversation history)");
        }
        return errors;
    }

    /**
     * The options that act between the turns of a conversation, given to a run without conversations.
     *
     * @param why what the run has instead of conversations, e.g. {@code " (--dataset f.jsonl holds single prompts)"},
     *            or empty
     * @return one usage error per such option; empty when the run has conversations or none of them
     */
    public List<String> needConversations(String why) {
        List<String> errors = new ArrayList<>();
        if (multiTurn() || tools != null) {
            return errors;
        }
        String give = ": give --turns (more than 1)" + why;
        if (thinkTimeS != null || thinkTimeStddevS != null) {
            errors.add("--think-time applies between the turns of a conversation" + give);
        }
        if (sessionHeader != null) {
            errors.add("--session-header sends the conversation id with every turn of a conversation" + give);
        }
        if (serverState()) {
            errors.add("--responses-state server applies between the turns of a conversation" + give);
        }
        return errors;
    }

    private static void waitProblem(List<String> errors, String option, Double s) {
        if (s != null && (!Double.isFinite(s) || s < 0 || s > MAX_WAIT_S)) {
            errors.add(option + " must be between 0 and " + (int) MAX_WAIT_S + " s, got " + s + " s");
        }
    }
}
