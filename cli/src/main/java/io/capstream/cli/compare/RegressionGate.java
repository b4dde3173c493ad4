package io.capstream.cli.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --fail-on-regression METRIC[:THRESHOLD]} of {@code compare} (issue 32): the metrics whose regression fails
 * a CI step. A metric fails when its verdict is a regression ({@link NoiseVerdicts.Row#regressedBeyond}) and, with
 * a threshold, when the whole 95% interval of B - A lies more than THRESHOLD (a relative change of A, {@code 10%}
 * or {@code 10}) on the worse side: a change that is surely larger than the tolerated one.
 *
 * @param rules the parsed rules, in the order given
 */
public record RegressionGate(List<Rule> rules) {
    /** The exit code of {@code compare} when a gated metric regressed. */
    public static final int EXIT_REGRESSION = 3;

    /**
     * One {@code METRIC[:THRESHOLD]}.
     *
     * @param key       the metric's report name, e.g. {@code ttft_p95_ms}
     * @param threshold the tolerated relative change, a fraction &ge; 0 (0: any regression fails)
     */
    public record Rule(String key, double threshold) {
    }

    /**
     * Copies the rules.
     */
    public RegressionGate {
        rules = List.copyOf(rules);
    }

    /**
     * Parses the option's values.
     *
     * @param specs    the values, e.g. {@code ttft_p95_ms:10%}; not null
     * @param problems receives one line per bad value (unknown metric, bad threshold)
     * @return the gate (the good rules)
     */
    public static RegressionGate parse(List<String> specs, List<String> problems) {
        List<Rule> rules = new ArrayList<>();
        List<String> known = NoiseVerdicts.verdictKeys();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            String key = (colon < 0 ? spec : spec.substring(0, colon)).trim();
            double threshold = 0;
            if (!known.contains(key)) {
                problems.add("--fail-on-regression: unknown metric '" + key + "' (metrics with a verdict: "
                        + String.join(", ", known) + ")");
                continue;
            }
            if (colon >= 0) {
                String t = spec.substring(colon + 1).trim();
                // the % is required: a bare number (500) reads as ms as easily as as a share of A
                try {
                    threshold = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100
                            : Double.NaN;
                } catch (NumberFormatException e) {
                    threshold = Double.NaN;
                }
                if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                    problems.add("--fail-on-regression " + spec + ": THRESHOLD must be a relative change >= 0 such as"
                            + " 10%");
                    continue;
                }
            }
            rules.add(new Rule(key, threshold));
        }
        return new RegressionGate(rules);
    }

    /**
     * @param v the comparison's verdicts; not null
     * @return one line per gated metric that regressed beyond its threshold (empty: the gate passes)
     */
    public List<String> failures(NoiseVerdicts v) {
        List<String> out = new ArrayList<>();
        var byKey = v.byKey();
        for (Rule r : rules) {
            NoiseVerdicts.Row row = byKey.get(r.key());
            if (row != null && row.regressedBeyond(r.threshold())) {
                out.add(String.format(Locale.ROOT, "%s regressed: %s -> %s, 95%% interval of B-A [%s, %s]%s",
                        r.key(), num(row.change().a()), num(row.change().b()), num(row.low()), num(row.high()),
                        r.threshold() > 0 ? String.format(Locale.ROOT, ", wholly beyond %s%% of A",
                                num(r.threshold() * 100)) : ""));
            }
        }
        return out;
    }

    /**
     * @param v the comparison's verdicts; not null
     * @return one line per gated metric that has no verdict (it cannot fail the gate), with the reason
     */
    public List<String> unjudged(NoiseVerdicts v) {
        List<String> out = new ArrayList<>();
        var byKey = v.byKey();
        for (Rule r : rules) {
            NoiseVerdicts.Row row = byKey.get(r.key());
            if (row == null) {
                out.add(r.key() + ": in neither report, not checked");
            } else if (!row.hasVerdict()) {
                out.add(r.key() + ": " + row.reason() + ", not checked");
            }
        }
        return out;
    }

    private static String num(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.1f", d);
    }
}
