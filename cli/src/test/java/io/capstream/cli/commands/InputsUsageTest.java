package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code run --endpoint embeddings|rerank} usage errors (issue 30): one line, exit 2, before anything starts. */
class InputsUsageTest {
    @Test
    void rerankWithoutDocumentsIsAUsageError() {
        CliRun r = CliRun.run("run", "--endpoint", "rerank", "--batch", "0", "--requests", "2");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.err()).as("stderr").contains("--batch must be at least 1, got 0")
                .doesNotContain("simulated engine");
    }

    @Test
    void generationOptionsAreRefusedWithEmbeddings() {
        CliRun r = CliRun.run("run", "--endpoint", "embeddings", "--turns", "3", "--max-tokens", "16", "--requests", "2");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.err()).as("stderr")
                .contains("--turns and --tools do not apply with --endpoint embeddings (it embeds inputs and generates"
                        + " nothing)")
                .contains("--max-tokens and --output-tokens do not apply with --endpoint embeddings");
    }

    @Test
    void batchWithChatIsAUsageError() {
        CliRun r = CliRun.run("run", "--batch", "4", "--requests", "2");
        assertThat(r.code()).as("exit code; stderr: %s", r.err()).isEqualTo(2);
        assertThat(r.err()).as("stderr")
                .contains("--batch applies to --endpoint embeddings or rerank (inputs or documents per request)");
    }
}
