package io.capstream.aggregator.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricComparisonTest {
    private static JsonNode art(String metrics) throws Exception {
        return ArtifactJson.parse("{\"requests\": 2, \"metrics\": " + metrics + "}");
    }

    @Test
    void equalWithinTolerance() throws Exception {
        JsonNode e = art("{\"a\": 100.0, \"n\": 5, \"s\": {\"usage\": 2}, \"z\": null}");
        JsonNode a = art("{\"a\": 100.00000000001, \"n\": 5, \"s\": {\"usage\": 2}, \"z\": null, \"extra\": 1.0}");
        assertEquals(List.of(), MetricComparison.compare(e, a));
    }

    @Test
    void reportsEachDifference() throws Exception {
        JsonNode e = art("{\"a\": 100.0, \"n\": 5, \"f\": 3613.0, \"s\": {\"usage\": 2}, \"z\": null, \"gone\": 1}");
        JsonNode a = art("{\"a\": 100.000001, \"n\": 6, \"f\": 3613, \"s\": {\"usage\": 1, \"content_chunks\": 1}, \"z\": 0.0}");
        List<String> keys = MetricComparison.compare(e, a).stream().map(MetricComparison.Mismatch::key).toList();
        assertEquals(List.of("a", "n", "f", "s.usage", "s.content_chunks", "z", "gone"), keys);
        assertEquals("int versus float", MetricComparison.compare(e, a).get(2).reason());
    }

    @Test
    void topLevelCountsAreCompared() throws Exception {
        JsonNode e = ArtifactJson.parse("{\"requests\": 2, \"measurement_protocol\": \"capacity-v3\", \"metrics\": {}}");
        JsonNode a = ArtifactJson.parse("{\"requests\": 3, \"measurement_protocol\": \"capacity-v4-reasoning\", \"metrics\": {}}");
        assertEquals(List.of("measurement_protocol", "requests"),
                MetricComparison.compare(e, a).stream().map(MetricComparison.Mismatch::key).toList());
    }
}
