package io.capstream.aggregator.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One bad-file test per validation rule; each names the file and the field. */
class ArtifactValidationTest {
    private static final String FILE = "bad.json";

    private static ObjectNode seed() throws Exception {
        return (ObjectNode) ArtifactJson.read(CorpusRecomputeTest.shared().resolve("corpus/seed-example.json"));
    }

    private static ArtifactValidationException reject(Consumer<ObjectNode> mutate) throws Exception {
        ObjectNode a = seed();
        mutate.accept(a);
        // Python's json module writes NaN as a bare token; the tree cannot hold it as a string
        String text = ArtifactJson.write(a).replace("\"NAN_MARKER\"", "NaN");
        return assertThrows(ArtifactValidationException.class, () -> ArtifactImporter.plan(text, FILE));
    }

    private static ObjectNode row(ObjectNode a, int i) {
        return (ObjectNode) a.get("request_timings").get(i);
    }

    private static void assertField(ArtifactValidationException e, String field) {
        assertEquals(FILE, e.file());
        assertEquals(field, e.field(), e.getMessage());
        assertThat(e.getMessage()).startsWith(FILE + ": " + field + ": ");
    }

    @Test
    void notJson() {
        ArtifactValidationException e = assertThrows(ArtifactValidationException.class,
                () -> ArtifactImporter.plan("{\"schema\": ", FILE));
        assertField(e, "<file>");
        assertThat(e.detail()).startsWith("line 1: not valid JSON (Unexpected end-of-input");
    }

    @Test
    void aBinaryFileIsNamedAsSuch(@TempDir Path dir) throws Exception {
        // issue 27.6: import of a binary file said "cannot read: Input length = 1"
        Path f = dir.resolve("photo.json");
        Files.write(f, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 0x10});
        ArtifactValidationException e = assertThrows(ArtifactValidationException.class, () -> ArtifactImporter.plan(f));
        assertEquals("cannot read: not UTF-8 text (a binary file?)", e.detail());
    }

    @Test
    void notJsonFileOnDisk(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("broken.json");
        Files.writeString(f, "this is not json");
        ArtifactValidationException e = assertThrows(ArtifactValidationException.class, () -> ArtifactImporter.plan(f));
        assertEquals("broken.json", e.file());
        assertEquals("<file>", e.field());
    }

    @Test
    void runIdsThatCannotNameAFileAreRejected() throws Exception {
        // import used to accept any run_id and publish the report under it (issue 11, item 7)
        ArtifactValidationException e = reject(a -> a.put("run_id", "../../etc/x"));
        assertField(e, "run_id");
        assertEquals("bad.json: run_id: must not contain '/' (it names the report file)", e.getMessage());
        e = reject(a -> a.put("run_id", "run\u001b[2J"));
        assertEquals("bad.json: run_id: must not contain control characters (U+001B at index 3)", e.getMessage());
        e = reject(a -> a.put("run_id", "r".repeat(201)));
        assertEquals("bad.json: run_id: is 201 characters long, at most 200", e.getMessage());
    }

    @Test
    void moreRequestsThanARunMayHaveAreRejectedBeforeAnythingIsSent() throws Exception {
        // the aggregator dead-letters the RunStarted of such a run (EventBounds): import used to send it anyway
        ArtifactValidationException e = reject(a -> a.put("requests", 100_001));
        assertEquals("bad.json: requests: requests = 100001 is more than 100000, the most a run may have",
                e.getMessage());
    }

    @Test
    void wrongSchema() throws Exception {
        assertField(reject(a -> a.put("schema", "anvil-serving.benchmark-result/v1")), "schema");
        assertField(reject(a -> a.remove("schema")), "schema");
        assertField(reject(a -> a.put("measurement_protocol", "capacity-v9")), "measurement_protocol");
        assertThrows(ArtifactValidationException.class, () -> ArtifactImporter.plan("[1, 2]", FILE));
    }

    @Test
    void nanTime() throws Exception {
        assertField(reject(a -> row(a, 3).put("ttft_ms", "NAN_MARKER")), "request_timings[3].ttft_ms");
        assertField(reject(a -> a.put("wall_clock_ms", "NAN_MARKER")), "wall_clock_ms");
        assertField(reject(a -> ((ObjectNode) a.get("metrics")).put("e2e_p50_ms", "NAN_MARKER")), "metrics.e2e_p50_ms");
    }

    @Test
    void negativeTime() throws Exception {
        assertField(reject(a -> row(a, 0).put("e2e_ms", -1.5)), "request_timings[0].e2e_ms");
        assertField(reject(a -> row(a, 2).put("generation_ms", -0.1)), "request_timings[2].generation_ms");
        assertField(reject(a -> a.put("wall_clock_ms", -6790.5)), "wall_clock_ms");
    }

    @Test
    void nonIntegerTokenCounts() throws Exception {
        assertField(reject(a -> row(a, 1).put("prompt_tokens", 3613.5)), "request_timings[1].prompt_tokens");
        assertField(reject(a -> row(a, 1).put("output_tokens", 48.0)), "request_timings[1].output_tokens");
        assertField(reject(a -> row(a, 1).put("output_tokens", "48")), "request_timings[1].output_tokens");
        assertField(reject(a -> row(a, 4).put("content_chunks", 1.5)), "request_timings[4].content_chunks");
        assertField(reject(a -> ((ObjectNode) a.get("metrics")).put("output_tokens", 461.0)), "metrics.output_tokens");
    }

    @Test
    void timeToFirstOutputAfterTtft() throws Exception {
        ArtifactValidationException e = reject(a -> row(a, 5).put("time_to_first_output_ms", 400.0));
        assertField(e, "request_timings[5].time_to_first_output_ms");
        assertThat(e.detail()).contains("after TTFT");
    }

    @Test
    void duplicateRequestIndices() throws Exception {
        assertField(reject(a -> row(a, 7).put("request_index", 2)), "request_timings[7].request_index");
        ArtifactValidationException e = reject(a -> {
            row(a, 9).put("request_index", 3);
            ((ArrayNode) a.get("failures")).addObject().put("request_index", 3).put("error_type", "ValueError");
            a.put("failed", 1);
            a.put("requests", 11);
        });
        assertThat(e.detail()).as(e.getMessage()).contains("duplicate request index 3");
    }

    @Test
    void completedNotEqualToRows() throws Exception {
        assertField(reject(a -> {
            ((ArrayNode) a.get("request_timings")).remove(9);
            a.put("requests", 10);
        }), "completed");
        assertField(reject(a -> a.put("completed", 9)), "completed");
    }

    @Test
    void requestsNotEqualToCompletedPlusFailed() throws Exception {
        assertField(reject(a -> a.put("requests", 12)), "requests");
        assertField(reject(a -> a.put("failed", 2)), "failed");
    }

    @Test
    void requestIndexOutsideThePlan() throws Exception {
        assertField(reject(a -> row(a, 0).put("request_index", 10)), "request_timings[0].request_index");
    }

    @Test
    void summaryOnlyArtifactsAreCheckedToo() throws Exception {
        ObjectNode legacy = ArtifactJson.nodes().objectNode();
        legacy.put("schema", "anvil-serving.benchmark/v1").put("run_id", "benchmark-x").put("base_url", "u")
                .put("model", "m").put("requests", 2).put("completed", 2.5).put("concurrency", 1).put("max_tokens", 64);
        legacy.putObject("metrics");
        ArtifactValidationException e = assertThrows(ArtifactValidationException.class,
                () -> ArtifactImporter.plan(ArtifactJson.write(legacy), FILE));
        assertField(e, "completed");
        legacy.put("completed", 2);
        assertTrue(ArtifactImporter.plan(ArtifactJson.write(legacy), FILE).summaryOnly());
    }
}
