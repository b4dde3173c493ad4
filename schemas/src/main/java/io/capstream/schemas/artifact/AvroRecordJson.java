package io.capstream.schemas.artifact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
        Schema schema = record.getSchema();
        Fields fields = FIELDS.computeIfAbsent(schema, Fields::of);
        ObjectNode o = new ObjectNode(ArtifactJson.nodes(), new LinkedHashMap<>(fields.capacity));
        for (int i = 0; i < fields.names.length; i++) {
            Object v = record.get(fields.positions[i]);
            if (v == null && fields.omitNull[i]) {
                continue;
            }
            if (v instanceof CharSequence text && fields.jsonValue[i]) {
                o.set(fields.names[i], jsonValue(text.toString()));
            } else {
                o.set(fields.names[i], node(fields.names[i], v));
            }
        }
        return o;
    }

    /**
     * A record schema's fields and their properties, read once per schema: {@link Schema.Field#getObjectProp} converts
     * the property's JSON on every call, and a report has a row record per request.
     */
    private static final class Fields {
        final String[] names;
        final int[] positions;
        final boolean[] omitNull;
        final boolean[] jsonValue;
        /** Initial capacity of a map holding one entry per field without rehashing. */
        final int capacity;

        private Fields(List<Schema.Field> fields) {
            int n = fields.size();
            names = new String[n];
            positions = new int[n];
            omitNull = new boolean[n];
            jsonValue = new boolean[n];
            for (int i = 0; i < n; i++) {
                Schema.Field f = fields.get(i);
                names[i] = f.name();
                positions[i] = f.pos();
                omitNull[i] = Boolean.TRUE.equals(f.getObjectProp(OMIT_NULL));
                jsonValue[i] = isJsonValue(f);
            }
            capacity = (int) (n / 0.75f) + 1;
        }

        static Fields of(Schema schema) {
            return new Fields(schema.getFields());
        }
    }

    /** Per record schema (a handful: the report's record types), read once. */
    private static final Map<Schema, Fields> FIELDS = new ConcurrentHashMap<>();

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

    /**
     * @param name the field's (or map key's) name, for the error message
     * @param v    the value; null gives a JSON null
     * @return the JSON node of {@code v}
     */
    private static JsonNode node(String name, Object v) {
        JsonNodeFactory nodes = ArtifactJson.nodes();
        if (v == null) {
            return nodes.nullNode();
        } else if (v instanceof Boolean b) {
            return nodes.booleanNode(b);
        } else if (v instanceof Integer i) {
            return nodes.numberNode(i.intValue());
        } else if (v instanceof Long l) {
            return nodes.numberNode(l.longValue());
        } else if (v instanceof Float fl) {
            return nodes.numberNode(fl.doubleValue());
        } else if (v instanceof Double d) {
            return nodes.numberNode(d.doubleValue());
        } else if (v instanceof CharSequence || v instanceof Enum<?>) {
            return nodes.textNode(v.toString());
        } else if (v instanceof GenericRecord r) {
            return toObject(r);
        } else if (v instanceof Collection<?> c) {
            ArrayNode a = nodes.arrayNode(c.size());
            for (Object e : c) {
                a.add(node(name, e));
            }
            return a;
        } else if (v instanceof Map<?, ?> m) {
            ObjectNode inner = nodes.objectNode();
            m.forEach((k, e) -> inner.set(k.toString(), node(k.toString(), e)));
            return inner;
        } else {
            throw new IllegalArgumentException("field " + name + ": no JSON mapping for " + v.getClass().getName());
        }
    }
}
