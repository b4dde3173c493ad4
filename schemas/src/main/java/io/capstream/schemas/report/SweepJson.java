package io.capstream.schemas.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.artifact.AvroRecordJson;
import io.capstream.schemas.artifact.PythonFloatFormat;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.avro.Schema;

/**
 * The one mapping of a sweep's capacity curve ({@link SweepCurve}, schema {@code SweepCurve.avsc})
 * to the files of {@code capstream sweep --output-dir DIR}: {@value #JSON_FILE} and {@value #CSV_FILE}.
 *
 * <p><b>JSON</b> ({@link #toJson}): the record's fields by schema name ({@link AvroRecordJson}: ints
 * stay ints, doubles stay floats, points in step order), with one exception: {@code max_load_meeting_slos}
 * is an object {@code {"<axis>": <load>, "run_id": <run id>, "step": <step>}} (the load an int on the
 * {@code concurrency} axis, a float otherwise; {@code run_id} is the record's {@code max_load_run_id},
 * which is therefore not a key of its own; {@code step} is that point's step), or null when no load met
 * the SLOs. Written like an artifact ({@link ArtifactJson#write}: sorted keys, 2-space indent).
 *
 * <p><b>CSV</b> ({@link #toCsv}): RFC 4180 (CRLF line ends; a field with a comma, double quote, CR or LF
 * is quoted, quotes doubled): a header of the {@code SweepPoint} field names in schema order, then one
 * row per point; an empty field for null, {@code true}/{@code false}, integers as integers, doubles as in
 * the JSON ({@link PythonFloatFormat}). The map {@code percentile_ci} (issue 32) is not a column: after the
 * fields come two columns for each percentile field ({@code *_pNN_ms}, schema order), {@code <field>_ci_low} and
 * {@code <field>_ci_high}, the ends of its 95% interval, empty when it has none.
 *
 * <p>Stateless and thread-safe.
 */
public final class SweepJson {
    /** File name of the curve's JSON in the output directory. */
    public static final String JSON_FILE = "sweep.json";
    /** File name of the curve's CSV in the output directory. */
    public static final String CSV_FILE = "sweep.csv";
    /** Key of the max-load object that holds the run id of its step. */
    public static final String RUN_ID_KEY = "run_id";
    /** Key of the max-load object that holds its step number. */
    public static final String STEP_KEY = "step";

    private static final String MAX_LOAD_FIELD = "max_load_meeting_slos";
    private static final String MAX_LOAD_RUN_ID_FIELD = "max_load_run_id";
    private static final String CONCURRENCY = "concurrency";
    /** The SweepPoint map of the percentiles' intervals; in the CSV as two columns per percentile instead. */
    private static final String PERCENTILE_CI_FIELD = "percentile_ci";
    private static final Pattern PERCENTILE_FIELD = Pattern.compile("[a-z0-9_]+_p\\d+_ms");
    private static final String CI_LOW = "_ci_low";
    private static final String CI_HIGH = "_ci_high";

    private SweepJson() {
    }

    /**
     * @param c the curve; not null
     * @return a new JSON object: the curve's fields with {@code max_load_meeting_slos} as an object (see
     *         the class doc) or null, and without {@code max_load_run_id}
     */
    public static ObjectNode toJson(SweepCurve c) {
        ObjectNode o = AvroRecordJson.toObject(c);
        o.remove(MAX_LOAD_RUN_ID_FIELD);
        Double max = c.getMaxLoadMeetingSlos();
        if (max == null) {
            o.putNull(MAX_LOAD_FIELD);
            return o;
        }
        ObjectNode m = o.putObject(MAX_LOAD_FIELD);
        if (CONCURRENCY.equals(c.getAxis())) {
            m.put(c.getAxis(), (int) Math.round(max));
        } else {
            m.put(c.getAxis(), max.doubleValue());
        }
        String runId = c.getMaxLoadRunId();
        if (runId == null) {
            m.putNull(RUN_ID_KEY);
        } else {
            m.put(RUN_ID_KEY, runId);
        }
        Integer step = null;
        for (SweepPoint p : c.getPoints()) {
            if (p.getRunId().equals(runId)) {
                step = p.getStep();
            }
        }
        if (step == null) {
            m.putNull(STEP_KEY);
        } else {
            m.put(STEP_KEY, step.intValue());
        }
        return o;
    }

    /**
     * @param c the curve; not null
     * @return the text of {@value #JSON_FILE} ({@link ArtifactJson#write} of {@link #toJson}, trailing newline)
     * @throws IllegalArgumentException when a value is NaN or infinite
     */
    public static String json(SweepCurve c) {
        return ArtifactJson.write(toJson(c));
    }

    /**
     * @param c the curve; not null
     * @return the text of {@value #CSV_FILE}: the header line and one line per point, each ending in CRLF
     * @throws IllegalArgumentException when a value is NaN or infinite
     */
    public static String toCsv(SweepCurve c) {
        StringBuilder sb = new StringBuilder(256 + 512 * c.getPoints().size());
        List<Schema.Field> fields = csvFields();
        List<String> percentiles = percentileColumns();
        for (Schema.Field f : fields) {
            if (f.pos() > 0) {
                sb.append(',');
            }
            appendField(sb, f.name());
        }
        for (String p : percentiles) {
            sb.append(',').append(p).append(CI_LOW).append(',').append(p).append(CI_HIGH);
        }
        sb.append("\r\n");
        for (SweepPoint p : c.getPoints()) {
            for (Schema.Field f : fields) {
                if (f.pos() > 0) {
                    sb.append(',');
                }
                appendValue(sb, p.get(f.pos()));
            }
            Map<String, List<Double>> ci = p.getPercentileCi();
            for (String name : percentiles) {
                List<Double> interval = ci == null ? null : ci.get(name);
                boolean has = interval != null && interval.size() == 2;
                sb.append(',');
                appendValue(sb, has ? interval.get(0) : null);
                sb.append(',');
                appendValue(sb, has ? interval.get(1) : null);
            }
            sb.append("\r\n");
        }
        return sb.toString();
    }

    /** @return the SweepPoint fields that are CSV columns as they are: all but {@value #PERCENTILE_CI_FIELD} */
    private static List<Schema.Field> csvFields() {
        return SweepPoint.getClassSchema().getFields().stream()
                .filter(f -> !f.name().equals(PERCENTILE_CI_FIELD)).toList();
    }

    /** @return the names of the percentile fields ({@code *_pNN_ms}) in schema order, each with two interval columns */
    static List<String> percentileColumns() {
        return SweepPoint.getClassSchema().getFields().stream().map(Schema.Field::name)
                .filter(n -> PERCENTILE_FIELD.matcher(n).matches()).toList();
    }

    /**
     * Writes {@value #JSON_FILE} and {@value #CSV_FILE} into {@code dir}, each atomically
     * ({@link ArtifactJson#writeAtomically(Path, String)}).
     *
     * @param dir an existing directory; not null
     * @param c   the curve; not null
     * @throws IOException when a file cannot be written
     * @throws IllegalArgumentException when a value is NaN or infinite (nothing is written)
     */
    public static void writeFiles(Path dir, SweepCurve c) throws IOException {
        String json = json(c);
        String csv = toCsv(c);
        ArtifactJson.writeAtomically(dir.resolve(JSON_FILE), json);
        ArtifactJson.writeAtomically(dir.resolve(CSV_FILE), csv);
    }

    private static void appendValue(StringBuilder sb, Object v) {
        if (v == null) {
            return;
        }
        if (v instanceof Double d) {
            PythonFloatFormat.appendRepr(sb, d);
        } else if (v instanceof Float f) {
            PythonFloatFormat.appendRepr(sb, f.doubleValue());
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            appendField(sb, v.toString());
        }
    }

    /** RFC 4180 field: quoted when it holds a comma, double quote, CR or LF; quotes doubled. */
    private static void appendField(StringBuilder sb, String s) {
        boolean quote = false;
        for (int i = 0; i < s.length() && !quote; i++) {
            char ch = s.charAt(i);
            quote = ch == ',' || ch == '"' || ch == '\r' || ch == '\n';
        }
        if (!quote) {
            sb.append(s);
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"') {
                sb.append('"');
            }
            sb.append(ch);
        }
        sb.append('"');
    }
}
