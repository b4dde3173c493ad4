package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A run's per-request timeline ({@code capstream.timeline} of a report): columnar arrays, one entry per
 * request in request-index order. Times in ms relative to the run's start T0.
 *
 * @param requestIndex the requests' indices
 * @param startMs      actual start, ms
 * @param firstTokenMs first content token (start + TTFT), ms; NaN for failures and requests without content
 * @param endMs        end (start + E2E; failures: start + elapsed), ms
 * @param errorType    the failure's error type; null entries for successes
 */
public record Timeline(int[] requestIndex, double[] startMs, double[] firstTokenMs, double[] endMs,
                       String[] errorType) {
    /** Checks the arrays are equally long. */
    public Timeline {
        int n = requestIndex.length;
        if (startMs.length != n || firstTokenMs.length != n || endMs.length != n || errorType.length != n) {
            throw new IllegalArgumentException("timeline arrays differ in length");
        }
    }

    /** @return the number of requests */
    public int size() {
        return requestIndex.length;
    }

    /**
     * @param i position
     * @return whether request {@code i} failed (has an error type)
     */
    public boolean failed(int i) {
        return errorType[i] != null;
    }

    /** @return the latest end, ms; 0 for an empty timeline */
    public double lastEndMs() {
        double max = 0;
        for (double e : endMs) {
            if (Double.isFinite(e)) {
                max = Math.max(max, e);
            }
        }
        return max;
    }

    /**
     * Reads {@code capstream.timeline}.
     *
     * @param node the timeline object; null, missing or JSON null gives null
     * @return the timeline, or null when absent or without requests
     * @throws IllegalArgumentException when its arrays are missing or differ in length
     */
    public static Timeline parse(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        JsonNode idx = node.path("request_index");
        int n = idx.size();
        if (n == 0) {
            return null;
        }
        int[] index = new int[n];
        double[] start = new double[n];
        double[] first = new double[n];
        double[] end = new double[n];
        String[] error = new String[n];
        JsonNode s = array(node, "start_ms", n);
        JsonNode f = array(node, "first_token_ms", n);
        JsonNode e = array(node, "end_ms", n);
        JsonNode t = node.path("error_type");
        for (int i = 0; i < n; i++) {
            index[i] = idx.get(i).asInt();
            start[i] = number(s.get(i));
            first[i] = number(f.get(i));
            end[i] = number(e.get(i));
            JsonNode et = t.path(i);
            error[i] = et.isTextual() ? et.textValue() : null;
        }
        return new Timeline(index, start, first, end, error);
    }

    private static JsonNode array(JsonNode node, String key, int n) {
        JsonNode a = node.path(key);
        if (!a.isArray() || a.size() != n) {
            throw new IllegalArgumentException("capstream.timeline." + key + " is not an array of " + n + " values");
        }
        return a;
    }

    private static double number(JsonNode v) {
        return v != null && v.isNumber() ? v.doubleValue() : Double.NaN;
    }
}
