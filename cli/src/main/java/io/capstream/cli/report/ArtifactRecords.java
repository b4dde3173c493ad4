package io.capstream.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.artifact.AvroRecordJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.report.ReportArtifact;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;

/**
 * The typed records of a report artifact read from a file ({@code capstream report FILE},
 * {@code capstream compare}): the inverse of {@link ReportArtifact#toArtifact}, driven by the Avro
 * schema like it. Every field is read from the artifact key of the same name ({@code provenance}'s
 * fields from {@code capstream}, the {@link ReportArtifact#CAPSTREAM_FIELDS} from {@code capstream.<name>});
 * a missing or mistyped value gives the field's default, else null when the field is nullable, else the
 * type's zero (0, false, "", empty list or map, a record of zeros), so that older and foreign artifacts
 * still give a record. {@code artifact_json} is the artifact's text. Stateless and thread-safe.
 */
public final class ArtifactRecords {
    private ArtifactRecords() {
    }

    /**
     * @param artifact a report artifact tree; not null
     * @return the typed report (the summary table's input)
     */
    public static BenchmarkReport report(JsonNode artifact) {
        Schema schema = BenchmarkReport.getClassSchema();
        GenericData.Record r = new GenericData.Record(schema);
        JsonNode capstream = artifact.path(ReportArtifact.CAPSTREAM_KEY);
        for (Schema.Field f : schema.getFields()) {
            JsonNode n;
            if (ReportArtifact.PROVENANCE_FIELD.equals(f.name())) {
                n = capstream;
            } else if (ReportArtifact.CAPSTREAM_FIELDS.contains(f.name())) {
                n = capstream.get(f.name());
            } else {
                n = artifact.get(f.name());
            }
            r.put(f.pos(), field(f, n));
        }
        String text = ArtifactJson.write(artifact);
        r.put("artifact_json", text);
        r.put("artifact_chunks", 0);
        r.put("artifact_bytes", (long) text.length());
        r.put("artifact_sha256", null);
        return (BenchmarkReport) SpecificData.get().deepCopy(schema, (Object) r);
    }

    /**
     * @param artifact a report artifact tree; not null
     * @return the generator's self-check ({@code capstream.client}), or null when the artifact has none
     */
    public static ClientCheck clientCheck(JsonNode artifact) {
        JsonNode c = artifact.path(ReportArtifact.CAPSTREAM_KEY).get("client");
        if (c == null || !c.isObject()) {
            return null;
        }
        Schema schema = ClientCheck.getClassSchema();
        return (ClientCheck) SpecificData.get().deepCopy(schema, value(schema, c));
    }

    /**
     * @param artifact a report artifact tree; not null
     * @return its {@code failures} entries, read like {@link #report}'s; empty when it has none
     */
    @SuppressWarnings("unchecked")
    public static List<io.capstream.schemas.avro.FailureEntry> failures(JsonNode artifact) {
        Schema.Field f = BenchmarkReport.getClassSchema().getField("failures");
        Object v = field(f, artifact.get(f.name()));
        return v == null ? List.of()
                : (List<io.capstream.schemas.avro.FailureEntry>) SpecificData.get().deepCopy(f.schema(), v);
    }

    private static Object field(Schema.Field f, JsonNode n) {
        if (n != null && n.isContainerNode() && AvroRecordJson.isJsonValue(f)) {
            return n.toString(); // JSON text shown as its value in the artifact (RunSettings.extra_body)
        }
        Object v = value(f.schema(), n);
        if (v == null && n == null && f.hasDefaultValue()) {
            return GenericData.get().getDefaultValue(f);
        }
        return v == null && !nullable(f.schema()) ? zero(f.schema()) : v;
    }

    private static boolean nullable(Schema s) {
        return s.getType() == Schema.Type.NULL
                || s.getType() == Schema.Type.UNION && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL);
    }

    /** @return the value of {@code n} as {@code s}, or null when it is missing, null or of another type */
    private static Object value(Schema s, JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        switch (s.getType()) {
            case UNION:
                for (Schema branch : s.getTypes()) {
                    Object v = branch.getType() == Schema.Type.NULL ? null : value(branch, n);
                    if (v != null) {
                        return v;
                    }
                }
                return null;
            case RECORD:
                if (!n.isObject()) {
                    return null;
                }
                GenericData.Record r = new GenericData.Record(s);
                for (Schema.Field f : s.getFields()) {
                    r.put(f.pos(), field(f, n.get(f.name())));
                }
                return r;
            case ARRAY:
                if (!n.isArray()) {
                    return null;
                }
                List<Object> list = new ArrayList<>();
                for (JsonNode e : n) {
                    Object v = value(s.getElementType(), e);
                    list.add(v == null && !nullable(s.getElementType()) ? zero(s.getElementType()) : v);
                }
                return list;
            case MAP:
                if (!n.isObject()) {
                    return null;
                }
                Map<String, Object> map = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Object v = value(s.getValueType(), e.getValue());
                    map.put(e.getKey(), v == null && !nullable(s.getValueType()) ? zero(s.getValueType()) : v);
                }
                return map;
            case ENUM:
                return n.isTextual() && s.getEnumSymbols().contains(n.textValue())
                        ? new GenericData.EnumSymbol(s, n.textValue()) : null;
            case STRING:
                return n.isValueNode() ? n.asText() : null;
            case INT:
                return n.isNumber() ? n.intValue() : null;
            case LONG:
                return n.isNumber() ? n.longValue() : null;
            case DOUBLE:
                return n.isNumber() ? n.doubleValue() : null;
            case FLOAT:
                return n.isNumber() ? n.floatValue() : null;
            case BOOLEAN:
                return n.isBoolean() ? n.booleanValue() : null;
            default:
                return null;
        }
    }

    /** @return the zero value of a non-nullable schema */
    private static Object zero(Schema s) {
        return switch (s.getType()) {
            case INT -> 0;
            case LONG -> 0L;
            case DOUBLE -> 0.0;
            case FLOAT -> 0.0f;
            case BOOLEAN -> false;
            case STRING -> "";
            case ARRAY -> new ArrayList<>();
            case MAP -> new TreeMap<String, Object>();
            case ENUM -> new GenericData.EnumSymbol(s, s.getEnumDefault() != null ? s.getEnumDefault()
                    : s.getEnumSymbols().get(0));
            case RECORD -> value(s, ArtifactJson.nodes().objectNode());
            case UNION -> zero(s.getTypes().get(0));
            default -> null;
        };
    }
}
