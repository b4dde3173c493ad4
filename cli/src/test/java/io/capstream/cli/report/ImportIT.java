package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.importer.MetricComparison;
import io.capstream.cli.CommandOutput;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capstream import} end to end: embedded broker, in-memory registry, report topology in this JVM. */
class ImportIT {
    @TempDir
    Path tmp;

    @Test
    void seedIsImportedMatchedAndWritten() throws Exception {
        Path seed = SharedDir.seed();
        CommandOutput r = CommandOutput.run("import", seed.toString(), "--output-dir", tmp.toString());

        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertThat(r.out()).contains("seed-example.json: MATCHED");
        assertThat(r.out()).contains("1 of 1 matched");
        Path written = tmp.resolve("seed-example.json");
        assertTrue(Files.isRegularFile(written));
        JsonNode original = ArtifactJson.read(seed);
        JsonNode ours = ArtifactJson.read(written);
        assertEquals(original.get("run_id"), ours.get("run_id"));
        assertEquals(List.of(), MetricComparison.compare(original, ours));
        // every top-level key of the seed is in the recomputed artifact (ours adds only "capstream")
        original.fieldNames().forEachRemaining(k -> assertTrue(ours.has(k), "missing key " + k));
        assertEquals(original.get("request_timings"), ours.get("request_timings"));
    }

    @Test
    void wholeCorpusWithTimingsMatchesInOneJvm() throws Exception {
        Path dir = SharedDir.withTimings();
        long files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".json")).count();
        }
        CommandOutput r = CommandOutput.run("import", dir.toString(), "--output-dir", tmp.toString());

        assertEquals(59, files);
        assertThat(r.out()).contains("59 of 59 matched");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(59, s.count());
        }
    }

    @Test
    void badFileIsReportedAndTheOthersStillImport() throws Exception {
        Path bad = tmp.resolve("in/broken.json");
        Files.createDirectories(bad.getParent());
        Files.writeString(bad, "{ not json");
        Path seedCopy = tmp.resolve("in/seed-example.json");
        Files.copy(SharedDir.seed(), seedCopy);
        Path outDir = tmp.resolve("out");

        CommandOutput r = CommandOutput.run("import", tmp.resolve("in").toString(), "--output-dir", outDir.toString());

        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("broken.json: ")), r.out());
        assertThat(r.out()).contains("seed-example.json: MATCHED");
        assertThat(r.out()).contains("1 of 2 matched");
        assertTrue(Files.exists(outDir.resolve("seed-example.json")));
        assertTrue(Files.notExists(outDir.resolve("broken.json")));
    }

    @Test
    void noFilesIsAUsageError() {
        assertEquals(2, CommandOutput.run("import").exitCode());
    }
}
