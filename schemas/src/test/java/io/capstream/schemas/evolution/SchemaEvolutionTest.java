package io.capstream.schemas.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.junit.jupiter.api.Test;

/**
 * Keeps schema evolution BACKWARD compatible: every current schema ({@code src/main/avro}) must read
 * data written with every released version ({@code src/test/resources/released/v*}), checked with
 * Avro's {@link SchemaCompatibility} (reader = current, writer = released).
 */
class SchemaEvolutionTest {
    private static final Path CURRENT = Path.of("src/main/avro");
    private static final Path RELEASED = Path.of("src/test/resources/released");

    @Test
    void everyCurrentSchemaReadsEveryReleasedVersion() throws IOException {
        Map<String, Schema> current = parseDir(CURRENT);
        assertEquals(List.of("io.capstream.schemas.avro.BenchmarkReport", "io.capstream.schemas.avro.ChangePoint",
                        "io.capstream.schemas.avro.ReportChunk",
                        "io.capstream.schemas.avro.RunEvent", "io.capstream.schemas.avro.ServerMetricsScrape",
                        "io.capstream.schemas.avro.ServerWindowState",
                        "io.capstream.schemas.avro.SloBreach",
                        "io.capstream.schemas.avro.SweepCurve", "io.capstream.schemas.avro.WindowSummary",
                        "io.capstream.schemas.avro.WorkerShare"),
                List.copyOf(current.keySet()));
        List<Path> versions = releasedVersions();
        assertThat(versions).as("no released versions under " + RELEASED).isNotEmpty();
        int checked = 0;
        for (Path version : versions) {
            for (Map.Entry<String, Schema> released : parseDir(version).entrySet()) {
                Schema now = current.get(released.getKey());
                assertTrue(now != null, released.getKey() + " of " + version.getFileName() + " was removed (breaking)");
                SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(now, released.getValue());
                assertEquals(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE, result.getType(),
                        () -> released.getKey() + ": current schema cannot read data written with released "
                                + version.getFileName() + ": " + result.getResult().getIncompatibilities());
                checked++;
            }
        }
        assertTrue(checked >= 4, "checked " + checked + " schema pairs");
    }

    @Test
    void aNewRequiredFieldIsDetected() throws IOException {
        Schema released = parseDir(RELEASED.resolve("v1")).get("io.capstream.schemas.avro.RunEvent");
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(released.toString());
        ArrayNode fields = (ArrayNode) json.get("fields");
        fields.addObject().put("name", "region").put("type", "string"); // no default: old data cannot be read
        Schema changed = new Schema.Parser().parse(json.toString());
        SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(changed, released);
        assertEquals(SchemaCompatibility.SchemaCompatibilityType.INCOMPATIBLE, result.getType());
        assertEquals(SchemaCompatibility.SchemaIncompatibilityType.READER_FIELD_MISSING_DEFAULT_VALUE,
                result.getResult().getIncompatibilities().get(0).getType());
    }

    @Test
    void aChangedFieldTypeIsDetected() throws IOException {
        Schema released = parseDir(RELEASED.resolve("v1")).get("io.capstream.schemas.avro.WindowSummary");
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(released.toString());
        ObjectNode field = null;
        for (JsonNode f : json.get("fields")) {
            if (f.get("type").isTextual() && f.get("type").asText().equals("long")) {
                field = (ObjectNode) f;
                break;
            }
        }
        assertTrue(field != null, "WindowSummary has a long field");
        field.put("type", "int"); // long -> int narrows: old data cannot be read
        field.remove("default");
        Schema changed = new Schema.Parser().parse(json.toString());
        assertEquals(SchemaCompatibility.SchemaCompatibilityType.INCOMPATIBLE,
                SchemaCompatibility.checkReaderWriterCompatibility(changed, released).getType());
    }

    private static List<Path> releasedVersions() throws IOException {
        try (Stream<Path> s = Files.list(RELEASED)) {
            return s.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
    }

    /**
     * Parses every .avsc of a directory with one parser, in file-name order, so that a file may use the named
     * types of a file before it (WorkerShare.avsc embeds RunEvent.avsc's RunStarted); returns full name ->
     * schema of each file's top-level type, sorted by name.
     */
    static Map<String, Schema> parseDir(Path dir) throws IOException {
        Map<String, Schema> out = new TreeMap<>();
        Schema.Parser parser = new Schema.Parser();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".avsc")).sorted().collect(Collectors.toList())) {
                Schema schema = parser.parse(p.toFile());
                out.put(schema.getFullName(), schema);
            }
        }
        return out;
    }
}
