package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.LengthDistribution;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole-run checks of the conversation options (issue 29): one-line usage errors before anything is sent. */
class ConversationShapeTest {
    @TempDir
    Path dir;

    private static RunConfig base() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"));
    }

    private static List<String> problems(RunConfig c) {
        return RunValidator.problems(c, n -> null);
    }

    @Test
    void theDefaultIsASingleTurnRunWithoutProblems() {
        assertThat(base().conversation()).as("default group").isEqualTo(ConversationShape.NONE);
        assertThat(base().conversation().conversations()).as("conversations by default").isFalse();
        assertThat(problems(base())).as("problems of the default run").isEmpty();
        RunConfig one = base().withConversation(c -> c.withTurns(new LengthDistribution(1, 0)));
        assertThat(one.conversation().conversations()).as("--turns 1 is the single-turn run").isFalse();
        assertThat(problems(one)).as("problems of --turns 1").isEmpty();
    }

    @Test
    void conversationsWhosePlannedHistoryOutgrowsTheWindowAreRefusedBeforeTheRun() throws Exception {
        // 3 turns of 1000 planned tokens + 16 max_tokens each = 3048 > 3000; at 900 tokens (2748) they fit
        RunConfig c = base().withLoad(l -> l.withRequests(6))
                .withRequest(r -> r.withSharedPrefixTokens(0).withCtxTokens(1000).withMaxTokens(16).withMargin(0))
                .withConversation(s -> s.withTurns(new LengthDistribution(3, 0)));
        java.util.concurrent.CompletableFuture<RunPlan> refused = RunPlanner.complete(c, 3000,
                io.capstream.loadgen.workload.ApiKey.none());
        assertThat(refused).as("the plan of conversations over the window").isCompletedExceptionally();
        assertThat(refused.handle((p, e) -> e.getCause() != null ? e.getCause().getMessage() : e.getMessage()).get())
                .as("the usage error").isEqualTo("--turns 3: 2 of 2 conversation(s) outgrow the context window of 3000"
                        + " tokens (every turn's planned context plus max_tokens); first: conversation 0 (3 turns)"
                        + " plans 3048 tokens; give a smaller --ctx-tokens or --input-tokens");
        RunConfig fits = c.withRequest(r -> r.withCtxTokens(900));
        assertThat(RunPlanner.complete(fits, 3000, io.capstream.loadgen.workload.ApiKey.none()).get().requests())
                .as("planned requests when they fit").isEqualTo(6);
    }

    @Test
    void zeroTurnsIsAUsageError() {
        RunConfig c = base().withConversation(s -> s.withTurns(new LengthDistribution(0, 0)));
        assertThat(problems(c)).as("--turns 0")
                .containsExactly("--turns needs a mean between 1 and 10000 and a standard deviation >= 0, got 0");
    }

    @Test
    void serverStateNeedsTheResponsesEndpointAndTurns() {
        RunConfig chat = base().withConversation(s -> s.withTurns(new LengthDistribution(3, 0))
                .withResponsesState("server"));
        assertThat(problems(chat)).as("--responses-state server with chat").containsExactly(
                "--responses-state server needs --endpoint responses (previous_response_id is a Responses API field)");
        RunConfig responses = chat.withTarget(t -> new TargetConfig(t.baseUrl(), false, t.model(), null, null,
                t.timeoutS(), false, ApiEndpoint.RESPONSES, List.of()));
        assertThat(problems(responses)).as("--responses-state server with responses and --turns").isEmpty();
        RunConfig single = responses.withConversation(s -> s.withTurns(null));
        assertThat(problems(single)).as("without --turns").singleElement().asString()
                .startsWith("--responses-state server applies between the turns");
    }

    @Test
    void aToolsFileThatIsNotAnArrayOfToolsIsAUsageError() throws Exception {
        Path bad = Files.writeString(dir.resolve("tools.json"), "{\"type\":\"function\"}");
        assertThat(problems(base().withConversation(s -> s.withTools(bad)))).as("an object, not an array")
                .singleElement().asString().startsWith("--tools " + bad).contains("must be a JSON array of tools");
        Path nameless = Files.writeString(dir.resolve("nameless.json"), "[{\"type\":\"function\",\"function\":{}}]");
        assertThat(problems(base().withConversation(s -> s.withTools(nameless)))).as("a tool without a name")
                .singleElement().asString().startsWith("--tools " + nameless).contains("name");
        Path missing = dir.resolve("missing.json");
        assertThat(problems(base().withConversation(s -> s.withTools(missing)))).as("no such file")
                .singleElement().asString().startsWith("--tools " + missing).contains("no such file");
        Path good = Files.writeString(dir.resolve("good.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":{}}}]");
        RunConfig tools = base().withConversation(s -> s.withTools(good).withToolAnswers("required", 64, 0.05));
        assertThat(problems(tools)).as("a good tools file").isEmpty();
        assertThat(tools.conversation().conversations()).as("--tools makes requests turns of conversations").isTrue();
    }

    @Test
    void toolOptionsWithoutToolsAndThinkTimeWithoutTurnsAreUsageErrors() {
        RunConfig c = base().withConversation(s -> s.withToolAnswers("auto", null, null).withThinkTime(1.0, null));
        assertThat(problems(c)).as("problems").containsExactly(
                "--think-time applies between the turns of a conversation: give --turns (more than 1)",
                "--tool-choice, --tool-result-tokens and --tool-latency need --tools FILE");
    }

    @Test
    void turnsCannotBeCombinedWithTheCompletionsEndpointOrABurst() {
        RunConfig c = base().withConversation(s -> s.withTurns(new LengthDistribution(2, 0)))
                .withLoad(l -> l.withBurst(4))
                .withTarget(t -> new TargetConfig(t.baseUrl(), false, t.model(), null, null, t.timeoutS(), false,
                        ApiEndpoint.COMPLETIONS, List.of()));
        assertThat(problems(c)).as("problems").anySatisfy(p -> assertThat(p).startsWith("--turns and --tools need a chat"))
                .anySatisfy(p -> assertThat(p).startsWith("--turns and --tools cannot be combined with --burst"));
    }
}
