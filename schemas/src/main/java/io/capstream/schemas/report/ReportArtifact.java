package io.capstream.schemas.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.AvroRecordJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Metrics;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * The one mapping between the typed {@link BenchmarkReport} and the {@code anvil-serving.benchmark/v1}
 * artifact JSON (spec §9.2), driven by the Avro schema: every field of {@code BenchmarkReport} and of
 * its nested records is the artifact key of the same name with the same value ({@link AvroRecordJson}:
 * ints stay ints, doubles stay floats, maps become objects), so a new schema field appears in the
 * artifact without code here. The only exceptions, listed here and nowhere else:
 *
 * <ul>
 *   <li>{@link #RECORD_ONLY} fields (how the record carries the artifact) are not artifact keys;</li>
 *   <li>{@code provenance} is written under the key {@value #CAPSTREAM_KEY}, together with capstream's
 *       other additions given by the caller (§9.2: everything capstream adds is under that key);</li>
 *   <li>the {@link #CAPSTREAM_FIELDS} ({@code run}, {@code statistics}, {@code slo}, {@code load}, {@code sweep},
 *       {@code timeline}, {@code workers}, {@code clock_offset_spread_ms}, {@code server_metrics}, {@code sessions})
 *       are written under
 *       {@value #CAPSTREAM_KEY} too, as nested values of the same names after the caller's additions,
 *       and left out when null; the top level has no such keys (so {@code capstream.timeline} is the
 *       columnar per-request timeline, the statistics' {@code inter_chunk_histogram} is
 *       {@code capstream.statistics.inter_chunk_histogram}, {@code capstream.workers} is an object keyed
 *       by worker id (an Avro map becomes an object; {@code ArtifactJson.write} sorts its keys like every
 *       other object's) and {@code capstream.clock_offset_spread_ms} a number);</li>
 *   <li>{@code serve_flags} is left out when null, and its {@code reasoning_effort} when the run's flags
 *       had no such key (the reference writes the key only when the flag exists, even with a null value);</li>
 *   <li>{@code failures[]}: {@code error_message} and {@code error_message_truncated} are left out when
 *       null (pre-2026-08-01 entries have only {@code request_index} and {@code error_type}, §6).</li>
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class ReportArtifact {
    /** The one top-level artifact key holding capstream's additions (provenance first). */
    public static final String CAPSTREAM_KEY = "capstream";
    /** The artifact key of the {@code provenance} field. */
    public static final String PROVENANCE_FIELD = "provenance";
    /**
     * Fields of the record written as nested values under {@value #CAPSTREAM_KEY} (same names, in
     * this order, left out when null) instead of top-level keys.
     */
    public static final List<String> CAPSTREAM_FIELDS = List.of("run", "statistics", "slo", "load", "sweep",
            "timeline", "workers", "clock_offset_spread_ms", "server_metrics", "sessions", "cancelled", "stopped");
    /** Fields of the record that are not artifact keys. */
    public static final Set<String> RECORD_ONLY = Set.of("artifact_json", "artifact_chunks", "artifact_bytes",
            "artifact_sha256");
    /** Fields left out of the artifact when their value is null. */
    public static final Set<String> OMITTED_WHEN_NULL = Set.of("serve_flags");
    /** Fields of {@code failures[]} entries left out when null. */
    public static final Set<String> FAILURE_OMITTED_WHEN_NULL = Set.of("error_message", "error_message_truncated");
    private static final String SERVE_FLAGS = "serve_flags";
    private static final String REASONING_EFFORT = "reasoning_effort";
    private static final String FAILURES = "failures";

    private ReportArtifact() {
    }

    /**
     * Maps a report to its artifact tree (write it with {@code ArtifactJson.write}).
     *
     * @param report the typed report, not null; its {@link #RECORD_ONLY} fields are ignored
     * @param reasoningEffortKey whether {@code serve_flags} has the {@code reasoning_effort} key
     *     (RunStarted.serve_flags_has_reasoning_effort); ignored when {@code serve_flags} is null
     * @param capstreamExtras capstream's additions besides provenance (merged after the provenance
     *     fields under {@value #CAPSTREAM_KEY}); null = none
     * @return a new tree with one key per artifact field
     * @throws IllegalArgumentException when a field holds a value with no JSON mapping (bytes, fixed)
     */
    public static ObjectNode toArtifact(BenchmarkReport report, boolean reasoningEffortKey, ObjectNode capstreamExtras) {
        ObjectNode root = AvroRecordJson.toObject(report);
        root.remove(RECORD_ONLY);
        for (String key : OMITTED_WHEN_NULL) {
            if (root.path(key).isNull()) {
                root.remove(key);
            }
        }
        JsonNode flags = root.get(SERVE_FLAGS);
        if (flags instanceof ObjectNode f && !reasoningEffortKey) {
            f.remove(REASONING_EFFORT);
        }
        for (JsonNode failure : root.path(FAILURES)) {
            for (String key : FAILURE_OMITTED_WHEN_NULL) {
                if (failure.path(key).isNull()) {
                    ((ObjectNode) failure).remove(key);
                }
            }
        }
        ObjectNode capstream = (ObjectNode) root.remove(PROVENANCE_FIELD);
        if (capstreamExtras != null) {
            capstream.setAll(capstreamExtras);
        }
        for (String field : CAPSTREAM_FIELDS) {
            JsonNode value = root.remove(field);
            if (value != null && !value.isNull()) {
                capstream.set(field, value);
            }
        }
        root.set(CAPSTREAM_KEY, capstream);
        return root;
    }

    /**
     * The top-level artifact key of a record field: the field name, except {@code provenance} and the
     * {@link #CAPSTREAM_FIELDS} (all under {@value #CAPSTREAM_KEY}); null for {@link #RECORD_ONLY} fields.
     *
     * @param field a {@code BenchmarkReport} field name, not null
     * @return the top-level artifact key, or null when the field is not in the artifact
     */
    public static String artifactKey(String field) {
        if (RECORD_ONLY.contains(field)) {
            return null;
        }
        return PROVENANCE_FIELD.equals(field) || CAPSTREAM_FIELDS.contains(field) ? CAPSTREAM_KEY : field;
    }

    /**
     * Reads an artifact's {@code metrics} object into the typed record by the schema's field names,
     * whatever the artifact generation (spec §10.1): a missing or null key gives null; double fields
     * take numbers only (anything else is null); int and long fields take the number's integral part;
     * map fields take objects only.
     *
     * @param metrics the artifact's {@code metrics} object; null or not an object = every field null
     * @return the typed metrics, never null
     * @throws IllegalArgumentException when the schema has a field type not listed above
     */
    public static Metrics metricsFromArtifact(JsonNode metrics) {
        Metrics out = new Metrics();
        JsonNode m = metrics == null ? null : metrics.isObject() ? metrics : null;
        for (Schema.Field f : Metrics.getClassSchema().getFields()) {
            out.put(f.pos(), value(m == null ? null : m.get(f.name()), f.schema(), f.name()));
        }
        return out;
    }

    private static Object value(JsonNode n, Schema s, String name) {
        if (s.getType() == Schema.Type.UNION) {
            if (n == null || n.isNull()) {
                return null;
            }
            return value(n, nonNull(s, name), name);
        }
        return switch (s.getType()) {
            case DOUBLE -> n != null && n.isNumber() ? n.doubleValue() : null;
            case INT -> n == null ? null : n.intValue();
            case LONG -> n == null ? null : n.longValue();
            case STRING -> n == null ? null : n.asText();
            case BOOLEAN -> n == null ? null : n.asBoolean();
            case MAP -> {
                if (n == null || !n.isObject()) {
                    yield null;
                }
                Map<String, Object> out = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    out.put(e.getKey(), value(e.getValue(), s.getValueType(), name));
                }
                yield out;
            }
            default -> throw new IllegalArgumentException("field " + name + ": no artifact mapping for " + s.getType());
        };
    }

    private static Schema nonNull(Schema union, String name) {
        for (Schema b : union.getTypes()) {
            if (b.getType() != Schema.Type.NULL) {
                return b;
            }
        }
        throw new IllegalArgumentException("field " + name + ": union without a non-null branch");
    }
}
