package io.capstream.cli.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;

/**
 * The JSON of {@code capstream compare --json}: the runs, the interval's level, one object per metric under
 * {@code metrics} keyed by its report name ({@link NoiseVerdicts.Row#key()}, e.g. {@code ttft_p50_ms}):
 * {@code a}, {@code b}, {@code difference} (B - A), {@code relative} ((B - A) / A), {@code interval} ([low, high]
 * of B - A, or null), {@code verdict} ({@code regression}, {@code improvement}, {@code within noise}, or null) and,
 * without a verdict, {@code reason}; then the differing workload settings. Missing numbers are null. Stateless.
 */
public final class CompareJson {
    private CompareJson() {
    }

    /**
     * @param c       the comparison; not null
     * @param v       its verdicts ({@link NoiseVerdicts#of}); not null
     * @param sourceA where A came from (file or run id); may be null
     * @param sourceB where B came from; may be null
     * @return the document
     */
    public static ObjectNode render(RunComparison c, NoiseVerdicts v, String sourceA, String sourceB) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ObjectNode runs = root.putObject("runs");
        runs.putObject("a").put("run_id", c.runA()).put("source", sourceA);
        runs.putObject("b").put("run_id", c.runB()).put("source", sourceB);
        root.put("level", NoiseVerdicts.LEVEL);
        ObjectNode metrics = root.putObject("metrics");
        for (NoiseVerdicts.Row r : v.rows()) {
            ObjectNode m = metrics.putObject(r.key());
            m.put("a", r.change().a());
            m.put("b", r.change().b());
            m.put("difference", r.change().absolute());
            m.put("relative", r.change().relative());
            if (r.low() == null) {
                m.putNull("interval");
            } else {
                m.putArray("interval").add(r.low()).add(r.high());
            }
            m.put("verdict", r.verdict() == null ? null : r.verdict().label());
            if (r.reason() != null) {
                m.put("reason", r.reason());
            }
        }
        ArrayNode workload = root.putArray("workload_differences");
        for (WorkloadDifference w : c.workload()) {
            workload.addObject().put("key", w.key()).put("a", w.a()).put("b", w.b());
        }
        return root;
    }
}
