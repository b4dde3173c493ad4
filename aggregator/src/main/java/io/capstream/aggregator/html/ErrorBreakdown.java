package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Failures of a run counted by error type (from the report's {@code failures[]}), most frequent first,
 * ties by name.
 *
 * @param counts error type to number of failures, in that order
 */
public record ErrorBreakdown(Map<String, Integer> counts) {
    /** Copies the counts, keeping their order. */
    public ErrorBreakdown {
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    /**
     * @param failures the report's {@code failures} array; null or missing gives no counts
     * @return the breakdown (a failure without error_type counts as "unknown")
     */
    public static ErrorBreakdown of(JsonNode failures) {
        Map<String, Integer> byType = new TreeMap<>();
        if (failures != null) {
            for (JsonNode f : failures) {
                JsonNode t = f.path("error_type");
                byType.merge(t.isTextual() ? t.textValue() : "unknown", 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(byType.entrySet());
        entries.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        Map<String, Integer> ordered = new LinkedHashMap<>();
        entries.forEach(e -> ordered.put(e.getKey(), e.getValue()));
        return new ErrorBreakdown(ordered);
    }

    /**
     * @param id chart id
     * @return a BARS chart with categorical x (0..n-1, see {@link #types()}), y = failures
     */
    public Chart chart(String id) {
        double[] x = new double[counts.size()];
        double[] y = new double[counts.size()];
        int i = 0;
        for (int c : counts.values()) {
            x[i] = i;
            y[i++] = c;
        }
        return new Chart(id, "Failures by error type", "error type", "failures", Chart.Kind.BARS, x,
                List.of(new Chart.Series("failures", y)));
    }

    /** @return the error types in chart order */
    public List<String> types() {
        return List.copyOf(counts.keySet());
    }
}
