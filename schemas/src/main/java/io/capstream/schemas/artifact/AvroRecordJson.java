package io.capstream.schemas.artifact;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Maps an Avro record to a JSON object of the artifact, driven by the record's schema: one member
 * per schema field, in schema order, named as the field (capstream's Avro field names are the
 * artifact's JSON keys). Nulls, booleans, ints, longs, floats, doubles, strings, enums, arrays,
 * maps and nested records are mapped; a new field therefore appears in the JSON without code here.
 * A string field with the schema property {@value #JSON_VALUE} {@code true} holds JSON text (e.g.
 * {@code RunSettings.extra_body}): it is written as the JSON value it holds, not as a string (text
 * that is not JSON stays a string). A field with the schema property {@value #OMIT_NULL} {@code true} is left out
 * while it is null (settings added later, e.g. {@code RunSettings.turns_mean}, so that the objects of runs that do
 * not use them stay as they were).
 */
public final class AvroRecordJson {
    /** Schema property of a string field holding JSON text that the JSON shows as that value. */
    public static final String JSON_VALUE = "json_value";

    /** Schema property of a field that the JSON leaves out while it is null. */
    public static final String OMIT_NULL = "omit_null";

    private AvroRecordJson() {
    }

    /**
     * @param record the record; not null
     * @return a new JSON object with one member per field of {@code record}'s schema
     * @throws IllegalArgumentException when a field holds a value of a type not listed above (bytes, fixed)
     */
    public static ObjectNode toObject(GenericRecord record) {
        ObjectNode o = ArtifactJson.nodes().objectNode();
        for (Schema.Field f : record.getSchema().getFields()) {
            Object v = record.get(f.pos());
            if (v == null && Boolean.TRUE.equals(f.getObjectProp(OMIT_NULL))) {
                continue;
            }
            if (v instanceof CharSequence text && isJsonValue(f)) {
                o.set(f.name(), jsonValue(text.toString()));
            } else {
                put(o, f.name(), v);
            }
        }
        return o;
    }

    /**
     * @param field a record field; not null
     * @return whether it holds JSON text shown as its value (the property {@value #JSON_VALUE} is {@code true})
     */
    public static boolean isJsonValue(Schema.Field field) {
        return Boolean.TRUE.equals(field.getObjectProp(JSON_VALUE));
    }

    private static com.fasterxml.jackson.databind.JsonNode jsonValue(String text) {
        try {
            return ArtifactJson.mapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return ArtifactJson.nodes().textNode(text);
        }
    }

    private static void put(ObjectNode o, String name, Object v) {
        if (v == null) {
            o.putNull(name);
        } else if (v instanceof Boolean b) {
            o.put(name, b);
        } else if (v instanceof Integer i) {
            o.put(name, i);
        } else if (v instanceof Long l) {
            o.put(name, l);
        } else if (v instanceof Float fl) {
            o.put(name, fl.doubleValue());
        } else if (v instanceof Double d) {
            o.put(name, d);
        } else if (v instanceof CharSequence || v instanceof Enum<?>) {
            o.put(name, v.toString());
        } else if (v instanceof GenericRecord r) {
            o.set(name, toObject(r));
        } else if (v instanceof Collection<?> c) {
            ArrayNode a = o.putArray(name);
            for (Object e : c) {
                add(a, e);
            }
        } else if (v instanceof Map<?, ?> m) {
            ObjectNode inner = o.putObject(name);
            m.forEach((k, e) -> put(inner, k.toString(), e));
        } else {
            throw new IllegalArgumentException("field " + name + ": no JSON mapping for " + v.getClass().getName());
        }
    }

    private static void add(ArrayNode a, Object e) {
        ObjectNode holder = ArtifactJson.nodes().objectNode();
        put(holder, "v", e);
        a.add(holder.get("v"));
    }
}
