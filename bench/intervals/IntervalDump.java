/*
 * capstream's own intervals for value files, for bench/intervals/check.py to compare with its independent
 * computation. Run by check.py (through run.sh):  java -cp ... bench/intervals/IntervalDump.java FILE...
 * Each FILE holds one value per line (Python repr, so doubles are exact). Prints one JSON object per file and line:
 * {"file", "n", "report": {p50, p50_ci, ..., p99_ci, ci_unavailable}  (Distributions.of, the run report's path),
 *  "window": {p50, p50_ci, p95_ci, p99_ci, ci_unavailable, alpha}}   (SketchQuantiles.of on a DDSketch, alpha 0.01).
 */
import com.datadoghq.sketch.ddsketch.DDSketch;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.aggregator.report.calc.Distributions;
import io.capstream.aggregator.window.SketchQuantiles;
import io.capstream.aggregator.window.Sketches;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.Quantiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

public class IntervalDump {
    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        double alpha = Sketches.DEFAULT_RELATIVE_ACCURACY;
        for (String file : args) {
            double[] values = Files.readAllLines(Path.of(file)).stream().filter(l -> !l.isBlank())
                    .mapToDouble(Double::parseDouble).toArray();
            Distribution d = Distributions.of(values);
            DDSketch sketch = Sketches.create(alpha);
            for (double v : values) {
                sketch.accept(v);
            }
            Quantiles q = SketchQuantiles.of(sketch, alpha);
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("p50", d.getP50());
            report.put("p50_ci", d.getP50Ci());
            report.put("p90", d.getP90());
            report.put("p90_ci", d.getP90Ci());
            report.put("p95", d.getP95());
            report.put("p95_ci", d.getP95Ci());
            report.put("p99", d.getP99());
            report.put("p99_ci", d.getP99Ci());
            report.put("ci_unavailable", d.getCiUnavailable());
            Map<String, Object> window = new LinkedHashMap<>();
            window.put("alpha", alpha);
            window.put("p50_ci", q.getP50Ci());
            window.put("p95_ci", q.getP95Ci());
            window.put("p99_ci", q.getP99Ci());
            window.put("ci_unavailable", q.getCiUnavailable());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("file", file);
            out.put("n", values.length);
            out.put("report", report);
            out.put("window", window);
            System.out.println(json.writeValueAsString(out));
        }
    }
}
