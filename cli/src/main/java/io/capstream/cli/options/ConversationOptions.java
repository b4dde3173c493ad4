package io.capstream.cli.options;

import io.capstream.loadgen.run.ConversationShape;
import io.capstream.loadgen.workload.LengthDistribution;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The conversation options of {@code capstream run}, {@code generate} and {@code sweep} (issue 29): turns, think
 * time, session header, tools and how tool calls are answered, and where a Responses conversation keeps its state.
 * Resolved into a {@link ConversationShape} by {@link #toShape()}; the rules of the values are
 * {@link io.capstream.loadgen.run.RunValidator}'s.
 */
public class ConversationOptions {
    @Option(names = "--turns", paramLabel = "MEAN[,STDDEV]",
            description = "Turns per conversation (normal, seeded by --seed, rounded, at least 1), e.g. 5 or 5,2: each"
                    + " turn re-sends the whole history (every earlier user message and the model's actual answer)"
                    + " plus a new user message. --requests counts turns (conversations are planned until their turns"
                    + " add up to it, the last one shortened); --concurrency is conversations at once, --rate"
                    + " conversations started per second; after --duration no conversation starts. A conversation"
                    + " whose next turn would not fit the context window, or whose answer failed, ends there (its"
                    + " reason is recorded). Default: 1 (single requests).")
    String turns;

    @Option(names = "--think-time", paramLabel = "DURATION[,STDDEV]",
            description = "Wait between a reply's end and the conversation's next turn (normal, seeded, at least 0),"
                    + " e.g. 2s or 2s,500ms. Default: 0.")
    String thinkTime;

    @Option(names = "--session-header", paramLabel = "NAME",
            description = "Send the conversation id (<run id>-c<index>) in this header with every turn, e.g."
                    + " X-Session-Id (routers use it for affinity).")
    String sessionHeader;

    @Option(names = "--tools", paramLabel = "FILE",
            description = "A JSON array of OpenAI-style tool definitions sent with every request. A streamed tool call"
                    + " is output (TTFT counts its first delta) and a tool-call answer is a success of kind tool_call;"
                    + " with --turns it is answered by a mocked tool result as the next turn (an agent loop).")
    Path tools;

    @Option(names = "--tool-choice", paramLabel = "auto|required|none",
            description = "tool_choice sent with --tools. Default: the API's (auto).")
    String toolChoice;

    @Option(names = "--tool-result-tokens", paramLabel = "N",
            description = "Tokens of a mocked tool result (filler text). Default: "
                    + ConversationShape.DEFAULT_TOOL_RESULT_TOKENS + ".")
    Integer toolResultTokens;

    @Option(names = "--tool-latency", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Wait before a mocked tool result is sent (the tool's run time), e.g. 50ms. Default: 0.")
    Duration toolLatency;

    @Option(names = "--responses-state", paramLabel = "client|server",
            description = "With --endpoint responses and --turns: client re-sends the history; server sends only the"
                    + " new input with previous_response_id. Default: client.")
    String responsesState;

    /**
     * @return the conversation group of the run ({@link ConversationShape#NONE} when no option was given)
     * @throws IllegalArgumentException when {@code --turns} or {@code --think-time} does not parse, or
     *                                  {@code --session-header} is blank (usage error)
     */
    public ConversationShape toShape() {
        LengthDistribution t = turns == null ? null : turns(turns);
        Double thinkMean = null;
        Double thinkSd = null;
        if (thinkTime != null) {
            String[] p = thinkTime.split(",", -1);
            if (p.length > 2) {
                throw new IllegalArgumentException("--think-time must be DURATION or DURATION,STDDEV, got '"
                        + thinkTime + "'");
            }
            thinkMean = seconds("--think-time", p[0]);
            thinkSd = p.length == 2 ? seconds("--think-time", p[1]) : null;
        }
        if (sessionHeader != null && sessionHeader.isBlank()) {
            throw new IllegalArgumentException("--session-header needs a header name, e.g. X-Session-Id, got '"
                    + sessionHeader + "'");
        }
        return new ConversationShape(t, thinkMean, thinkSd, sessionHeader, tools, toolChoice, toolResultTokens,
                toolLatency == null ? null : toolLatency.toNanos() / 1e9, responsesState);
    }

    private static LengthDistribution turns(String text) {
        String[] p = text.split(",", -1);
        try {
            if (p.length > 2) {
                throw new NumberFormatException();
            }
            return new LengthDistribution(Double.parseDouble(p[0].strip()),
                    p.length == 2 ? Double.parseDouble(p[1].strip()) : 0);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--turns must be MEAN or MEAN,STDDEV (turns), got '" + text + "'");
        }
    }

    private static double seconds(String option, String text) {
        try {
            return DurationConverter.parse(text).toNanos() / 1e9;
        } catch (TypeConversionException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
    }
}
