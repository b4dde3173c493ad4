package io.capstream.aggregator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Merges the JSON arrays of objects that several aggregator instances answer to one range query into
 * the one answer a lone instance would give: de-duplicated by an identity (the first occurrence wins:
 * the local answer comes first) and sorted as {@link StreamsQueryService} sorts. Each element is copied
 * as its original text, so a merged answer is formatted like a local one.
 *
 * @param identity what makes two elements the same record; not null
 * @param order    the answer's order; not null
 */
record JsonArrayMerge(Function<JsonNode, String> identity, Comparator<JsonNode> order) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code /api/runs}: by run id; newest start first, then run id descending. */
    static final JsonArrayMerge RUNS = new JsonArrayMerge(n -> text(n, "run_id"),
            Comparator.comparing((JsonNode n) -> text(n, "started_at")).thenComparing(n -> text(n, "run_id")).reversed());
    /** {@code /api/summaries}: by window and key; window start, target, model, context bucket. */
    static final JsonArrayMerge SUMMARIES = new JsonArrayMerge(
            n -> join(n, "window_start_ms", "target", "model", "context_bucket"),
            Comparator.comparingLong((JsonNode n) -> n.path("window_start_ms").asLong())
                    .thenComparing(n -> text(n, "target")).thenComparing(n -> text(n, "model"))
                    .thenComparing(n -> text(n, "context_bucket")));
    /**
     * {@code /api/alerts}: by SLO, burn-rate rule (two rules of one series may fire in the same window at the same
     * moment: each is an alert of its own), window and detection; window start, detection time, rule.
     */
    static final JsonArrayMerge ALERTS = new JsonArrayMerge(
            n -> join(n, "target", "model", "context_bucket", "slo", "rule", "window_start_ms", "detected_at_ms", "state"),
            Comparator.comparingLong((JsonNode n) -> n.path("window_start_ms").asLong())
                    .thenComparingLong(n -> n.path("detected_at_ms").asLong()).thenComparing(n -> text(n, "rule")));
    /** {@code /api/changes}: by series, metric and change; change start, detection time. */
    static final JsonArrayMerge CHANGES = new JsonArrayMerge(
            n -> join(n, "target", "model", "context_bucket", "metric", "change_window_start_ms", "detected_window_end_ms"),
            Comparator.comparingLong((JsonNode n) -> n.path("change_window_start_ms").asLong())
                    .thenComparingLong(n -> n.path("detected_at_ms").asLong()));
    /** {@code /api/alerts?active=true}: one per target|model|bucket|slo|burn-rate rule, in that order. */
    static final JsonArrayMerge ACTIVE_BREACHES = new JsonArrayMerge(
            n -> join(n, "target", "model", "context_bucket", "slo", "rule"),
            Comparator.comparing((JsonNode n) -> join(n, "target", "model", "context_bucket", "slo", "rule")));

    /** Validates. */
    JsonArrayMerge {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(order, "order");
    }

    /**
     * @param arrays JSON arrays of objects, the local answer first; not null
     * @return one JSON array of the distinct elements in order; {@code arrays.get(0)} unchanged when it is the only one
     * @throws IllegalArgumentException when one of them is not a JSON array of objects
     */
    String merge(List<String> arrays) {
        if (arrays.size() == 1) {
            return arrays.get(0);
        }
        Map<String, Element> distinct = new LinkedHashMap<>();
        for (String array : arrays) {
            for (Element e : elements(array)) {
                distinct.putIfAbsent(identity.apply(e.node()), e);
            }
        }
        List<Element> sorted = new ArrayList<>(distinct.values());
        sorted.sort(Comparator.comparing(Element::node, order));
        return sorted.stream().map(Element::text).collect(Collectors.joining(",", "[", "]"));
    }

    /** One element of an array: its tree (to compare) and its text (to copy). */
    private record Element(JsonNode node, String text) {
    }

    private static List<Element> elements(String array) {
        List<Element> out = new ArrayList<>();
        try (JsonParser p = JSON.createParser(array)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("expected a JSON array, got: " + abbreviate(array));
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                int start = (int) p.currentTokenLocation().getCharOffset();
                JsonNode node = JSON.readTree(p);
                int end = (int) p.currentLocation().getCharOffset();
                out.add(new Element(node, array.substring(start, end)));
            }
            if (t != JsonToken.END_ARRAY) {
                throw new IllegalArgumentException("expected a JSON array of objects, got: " + abbreviate(array));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isNull() || v.isMissingNode() ? "" : v.asText();
    }

    private static String join(JsonNode n, String... fields) {
        StringBuilder b = new StringBuilder();
        for (String f : fields) {
            b.append(text(n, f)).append('\u0000');
        }
        return b.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
