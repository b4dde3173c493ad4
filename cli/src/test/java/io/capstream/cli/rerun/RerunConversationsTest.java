package io.capstream.cli.rerun;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.run.ConversationShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunStartedMapping;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.schemas.avro.RunStarted;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capstream rerun} of a run with conversations (issue 29): the same conversations, the original's tools. */
class RerunConversationsTest {
    @TempDir
    Path dir;

    private static RunStarted recorded(RunConfig c) {
        RunPlan plan = new RunPlan(c, 4096, ContextPlan.of(new int[] {256, 256, 256}, null), ApiKey.none());
        return RunStartedMapping.toRunStarted(plan).setStartedAt("2026-12-05T00:00:00Z").setStartedAtEpochMs(0)
                .build();
    }

    @Test
    void theRerunPlaysTheOriginalsConversationsWithTheToolsFileTheCommandGives() throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\"}}]");
        Path other = Files.writeString(dir.resolve("other.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"other\"}}]");
        RunConfig original = RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                .withConversation(new ConversationShape(new LengthDistribution(3, 1), 2.0, null, "X-Session-Id", tools,
                        "required", 32, 0.05, null));
        RunStarted rs = recorded(original);
        RunConfig command = RunConfig.of(TargetConfig.of("http://127.0.0.1:2/v1", "m2"))
                .withConversation(c -> c.withTools(tools));
        RunConfig rerun = RerunWorkload.apply(command, rs, "run-0", "run-1");
        assertThat(rerun.conversation()).as("the rerun's conversations: the original's, with the command's file")
                .isEqualTo(original.conversation());
        String sha = io.capstream.loadgen.workload.FileDigest.sha256(tools);
        assertThat(RerunWorkload.missingTools(rs, tools, sha)).as("the original's tools file").isEmpty();
        assertThat(RerunWorkload.missingTools(rs, null, null)).as("no --tools").singleElement().asString()
                .startsWith("needs --tools: the original run sent the tools of tools.json");
        assertThat(RerunWorkload.missingTools(rs, other, io.capstream.loadgen.workload.FileDigest.sha256(other)))
                .as("another file").singleElement().asString().contains("is not the original's tools.json");
    }
}
