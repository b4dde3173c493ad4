package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rows of a labelled table (label, value, unit) made from a JSON object of a report, e.g.
 * {@code capstream.load} or {@code capstream.client}: each key gets a readable label and its unit,
 * from a dictionary of known keys or else from the key itself ({@code queue_p99_ms} reads "queue p99",
 * ms); booleans read yes/no, arrays of values are joined, nested objects are flattened
 * ({@code "serve flags: thinking mode"}). Keys without a value (null, "", [] or {}) are left out.
 * Stateless.
 */
final class FieldRows {
    /** Header of a labelled table. */
    static final List<String> HEADER = List.of("", "value", "unit");
    /** Key suffixes and their units, longest first. */
    private static final Map<String, String> SUFFIX_UNITS = suffixUnits();

    private FieldRows() {
    }

    /**
     * A known key's label and unit.
     *
     * @param label the label shown; not null
     * @param unit  the unit shown, "" for none; not null
     */
    record Label(String label, String unit) {
    }

    /**
     * The rows of one object.
     *
     * @param node   a JSON object; anything else gives no rows
     * @param labels known keys' labels and units (dotted paths for nested keys, e.g. {@code serve_flags.no_thinking});
     *               keys not in it are labelled from the key; not null
     * @param skip   keys (dotted paths) left out; not null
     * @return rows of [label, value, unit], in the object's key order
     */
    static List<List<String>> of(JsonNode node, Map<String, Label> labels, Set<String> skip) {
        List<List<String>> rows = new ArrayList<>();
        if (node == null || !node.isObject()) {
            return rows;
        }
        // known keys first, in the dictionary's order, then the others in the object's order
        List<String> keys = new ArrayList<>();
        for (String k : labels.keySet()) {
            if (!k.contains(".") && node.has(k)) {
                keys.add(k);
            }
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!keys.contains(k)) {
                keys.add(k);
            }
        });
        for (String k : keys) {
            add(k, "", node.get(k), labels, skip, rows);
        }
        return rows;
    }

    /**
     * Adds one value's rows to {@code rows}: a scalar or array as one row, an object (not in {@code labels}) as
     * one row per key, labelled "object label: key label".
     *
     * @param path        dotted path of the value ("" for a root object, whose keys are then the paths)
     * @param labelPrefix text before the label, e.g. {@code "timing methodology: "}; not null
     * @param v           the value; null adds nothing
     * @param labels      known keys; not null
     * @param skip        keys (dotted paths) left out; not null
     * @param rows        the rows so far; not null
     */
    static void add(String path, String labelPrefix, JsonNode v, Map<String, Label> labels, Set<String> skip,
                    List<List<String>> rows) {
        if (v == null || skip.contains(path)) {
            return;
        }
        String key = path.substring(path.lastIndexOf('.') + 1);
        if (v.isObject() && !labels.containsKey(path)) {
            String prefix = path.isEmpty() ? labelPrefix : labelPrefix + label(path, key, labels).label() + ": ";
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                add(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), prefix, e.getValue(), labels, skip, rows);
            }
            return;
        }
        String value = value(v);
        if (value.isEmpty()) {
            return;
        }
        Label l = label(path, key, labels);
        rows.add(List.of(labelPrefix + l.label(), value, l.unit()));
    }

    /**
     * @param v a JSON value
     * @return its text: yes/no for booleans, numbers as {@link Fmt#value}, arrays of values joined with ", ",
     *     objects as {@code k=v} pairs; "" for null, "", [] and {}
     */
    static String value(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "";
        }
        if (v.isBoolean()) {
            return v.booleanValue() ? "yes" : "no";
        }
        if (v.isArray()) {
            List<String> parts = new ArrayList<>();
            for (JsonNode e : v) {
                String s = value(e);
                if (!s.isEmpty()) {
                    parts.add(s);
                }
            }
            return String.join(", ", parts);
        }
        if (v.isObject()) {
            List<String> parts = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String s = value(e.getValue());
                if (!s.isEmpty()) {
                    parts.add(e.getKey() + "=" + s);
                }
            }
            return String.join(", ", parts);
        }
        return Fmt.value(v).trim();
    }

    /**
     * @param path   the key's dotted path
     * @param key    the key itself
     * @param labels known keys
     * @return the known label, else one made from the key: its unit suffix removed and '_' read as ' '
     */
    static Label label(String path, String key, Map<String, Label> labels) {
        Label known = labels.get(path);
        if (known != null) {
            return known;
        }
        for (Map.Entry<String, String> e : SUFFIX_UNITS.entrySet()) {
            if (key.endsWith(e.getKey()) && key.length() > e.getKey().length()) {
                return new Label(words(key.substring(0, key.length() - e.getKey().length())), e.getValue());
            }
        }
        return new Label(words(key), "");
    }

    private static String words(String key) {
        return key.replace('_', ' ').trim().toLowerCase(Locale.ROOT);
    }

    private static Map<String, String> suffixUnits() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("_us_per_request", "µs per request");
        m.put("_tok_s", "tokens/s");
        m.put("_rps", "req/s");
        m.put("_ms", "ms");
        m.put("_us", "µs");
        m.put("_s", "s");
        m.put("_tokens", "tokens");
        m.put("_bytes", "bytes");
        return m;
    }
}
