package io.capstream.aggregator.slo;

import io.capstream.aggregator.window.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses SLOs written as {@code <metric><op><threshold>}, spaces allowed around the operator:
 * <ul>
 *   <li>{@code <q>_p<50|95|99>_ms} for q in ttft, ttfo, e2e, itl (milliseconds), e.g.
 *       {@code ttft_p95_ms<=500};</li>
 *   <li>{@code <q>_p<50|95|99>_tok_s} for q in decode, prefill (tokens/s), e.g.
 *       {@code decode_p50_tok_s>=20};</li>
 *   <li>{@code error_rate} (0..1), {@code goodput} (0..1), {@code output_throughput_tok_s}.</li>
 * </ul>
 * The operator is one of {@code <=}, {@code <}, {@code >=}, {@code >}; the threshold a finite
 * non-negative number.
 */
public final class SloParser {
    private static final Pattern SLO = Pattern.compile("^\\s*([A-Za-z0-9_]+)\\s*(<=|>=|<|>)\\s*(\\S+)\\s*$");
    private static final Pattern PERCENTILE = Pattern.compile("^([a-z0-9]+)_p([0-9]+)_(ms|tok_s)$");
    /** Human-readable list of accepted metrics, for error messages and help. */
    public static final String METRICS_HELP = "ttft_pNN_ms, ttfo_pNN_ms, e2e_pNN_ms, itl_pNN_ms, decode_pNN_tok_s,"
            + " prefill_pNN_tok_s (NN = 50, 95 or 99), error_rate, goodput, output_throughput_tok_s";

    private SloParser() {
    }

    /**
     * @param texts SLO strings; not null
     * @return the parsed SLOs, in order
     * @throws SloParseException for the first bad one
     */
    public static List<Slo> parseAll(List<String> texts) {
        List<Slo> out = new ArrayList<>();
        for (String t : texts) {
            out.add(parse(t));
        }
        return List.copyOf(out);
    }

    /**
     * @param text e.g. {@code ttft_p95_ms<=500}; not null
     * @return the SLO
     * @throws SloParseException with a message naming the input and what is expected
     */
    public static Slo parse(String text) {
        if (text == null || text.isBlank()) {
            throw new SloParseException("empty SLO: expected <metric><op><threshold>, e.g. ttft_p95_ms<=500");
        }
        Matcher m = SLO.matcher(text);
        if (!m.matches()) {
            throw new SloParseException("bad SLO '" + text + "': expected <metric><op><threshold> with op one of"
                    + " <=, <, >=, >, e.g. ttft_p95_ms<=500 or error_rate<=0.01");
        }
        String metric = m.group(1).toLowerCase(java.util.Locale.ROOT);
        Comparison comparison = switch (m.group(2)) {
            case "<=" -> Comparison.LE;
            case "<" -> Comparison.LT;
            case ">=" -> Comparison.GE;
            default -> Comparison.GT;
        };
        double threshold;
        try {
            threshold = Double.parseDouble(m.group(3));
        } catch (NumberFormatException e) {
            throw new SloParseException("bad SLO '" + text + "': threshold '" + m.group(3) + "' is not a number");
        }
        if (!Double.isFinite(threshold) || threshold < 0) {
            throw new SloParseException("bad SLO '" + text + "': threshold must be a finite number >= 0");
        }
        String trimmed = text.trim();
        switch (metric) {
            case Slo.ERROR_RATE, Slo.GOODPUT -> {
                if (threshold > 1) {
                    throw new SloParseException("bad SLO '" + text + "': " + metric
                            + " is a fraction between 0 and 1 (e.g. 0.01 for 1%)");
                }
                return new Slo(trimmed, metric, null, 0, comparison, threshold);
            }
            case Slo.OUTPUT_THROUGHPUT -> {
                return new Slo(trimmed, metric, null, 0, comparison, threshold);
            }
            default -> {
                return percentileSlo(text, trimmed, metric, comparison, threshold);
            }
        }
    }

    private static Slo percentileSlo(String text, String trimmed, String metric, Comparison comparison,
                                     double threshold) {
        Matcher p = PERCENTILE.matcher(metric);
        if (!p.matches()) {
            throw new SloParseException("bad SLO '" + text + "': unknown metric '" + metric + "'; expected one of "
                    + METRICS_HELP);
        }
        Quantity quantity = null;
        for (Quantity q : Quantity.values()) {
            if (q.prefix().equals(p.group(1))) {
                quantity = q;
            }
        }
        if (quantity == null) {
            throw new SloParseException("bad SLO '" + text + "': unknown quantity '" + p.group(1)
                    + "'; expected one of " + METRICS_HELP);
        }
        if (!quantity.unit().equals(p.group(3))) {
            throw new SloParseException("bad SLO '" + text + "': " + quantity.prefix() + " is measured in "
                    + quantity.unit() + ", write " + quantity.prefix() + "_p" + p.group(2) + "_" + quantity.unit());
        }
        int percentile = Integer.parseInt(p.group(2));
        if (percentile != 50 && percentile != 95 && percentile != 99) {
            throw new SloParseException("bad SLO '" + text + "': percentile p" + p.group(2)
                    + " is not computed; use p50, p95 or p99");
        }
        return new Slo(trimmed, metric, quantity, percentile, comparison, threshold);
    }
}
