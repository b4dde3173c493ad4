package io.capstream.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each option has one row per table of {@code docs/configuration.md}: a second row of the same option is a stale copy
 * (the run table had an old {@code --arrival closed|constant|poisson} row beside the one with gamma, and an old
 * {@code --endpoint} row without embeddings and rerank).
 */
class ConfigurationTableRowsTest {
    @Test
    void noOptionHasTwoRowsInOneTable() throws Exception {
        List<String> lines = Files.readAllLines(MarkdownDocs.repositoryRoot().resolve("docs/configuration.md"));
        List<String> duplicates = new ArrayList<>();
        Map<String, Integer> table = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                table.clear();
                continue;
            }
            if (!line.startsWith("| `--")) {
                continue;
            }
            String option = line.substring(3, line.indexOf('`', 3)).split("[ =]")[0];
            Integer first = table.putIfAbsent(option, i + 1);
            if (first != null) {
                duplicates.add(option + " at lines " + first + " and " + (i + 1));
            }
        }
        assertThat(duplicates).as("options with two rows in one table of docs/configuration.md").isEmpty();
    }
}
