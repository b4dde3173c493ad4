package io.capstream.cli.sweep;

import io.capstream.loadgen.run.RunConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the steps of a grid sweep from {@code --concurrency} or {@code --rate}: a list
 * {@code 1,2,4,8} (in the order given) or a range {@code START:END:xFACTOR} (geometric:
 * START, START·F, START·F², ... up to END) or {@code START:END:+STEP} (arithmetic). A single value is
 * one step. Concurrency values are whole numbers from 1 to {@value RunConfig#MAX_REQUESTS} (the
 * values of a geometric concurrency range are rounded to whole slots, repeats dropped); rates are
 * req/s &gt; 0, kept to 6 decimals. Pure.
 */
public final class AxisValues {
    /** Most steps of one grid. */
    public static final int MAX_STEPS = 64;
    private static final Pattern RANGE = Pattern.compile("^([^:]+):([^:]+):([x+])([^:]+)$");

    /**
     * The values, or what is wrong with the text.
     *
     * @param values   the steps' loads, in order; empty when there are problems
     * @param problems one usage-error line per problem, each starting with the option's name; empty when valid
     */
    public record Parsed(List<Double> values, List<String> problems) {
        /** Copies both lists. */
        public Parsed {
            values = List.copyOf(values);
            problems = List.copyOf(problems);
        }
    }

    private AxisValues() {
    }

    /**
     * @param axis the axis the values are for; not null
     * @param text the option's value, e.g. {@code 1,2,4,8}, {@code 1:32:x2}, {@code 2:10:+2}; null = empty
     * @return the values, or one problem line per bad value (non-positive, not a whole number of slots,
     *         too large, a descending range, a range factor or step that does not grow, more than
     *         {@value #MAX_STEPS} steps)
     */
    public static Parsed parse(LoadAxis axis, String text) {
        String opt = axis.option();
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return failed(opt + ": no value given; expected a list such as 1,2,4,8 or a range such as 1:32:x2");
        }
        if (t.contains(":")) {
            return range(axis, t);
        }
        List<Double> values = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String part : t.split(",", -1)) {
            Double v = value(axis, part.trim(), problems);
            if (v != null) {
                values.add(v);
            }
        }
        if (problems.isEmpty() && values.size() > MAX_STEPS) {
            problems.add(opt + ": " + values.size() + " steps, at most " + MAX_STEPS);
        }
        return problems.isEmpty() ? new Parsed(values, List.of()) : new Parsed(List.of(), problems);
    }

    private static Parsed range(LoadAxis axis, String t) {
        String opt = axis.option();
        Matcher m = RANGE.matcher(t);
        if (!m.matches()) {
            return failed(opt + ": bad range '" + t + "'; expected START:END:xFACTOR (geometric, e.g. 2:64:x2) or"
                    + " START:END:+STEP (arithmetic, e.g. 2:10:+2)");
        }
        List<String> problems = new ArrayList<>();
        Double start = value(axis, m.group(1).trim(), problems);
        Double end = value(axis, m.group(2).trim(), problems);
        boolean geometric = m.group(3).equals("x");
        Double by = number(m.group(4).trim());
        if (by == null) {
            problems.add(opt + ": range " + (geometric ? "factor x" : "step +") + m.group(4).trim() + " is not a number");
        } else if (geometric && by <= 1) {
            problems.add(opt + ": range factor x" + m.group(4).trim() + " must be > 1");
        } else if (!geometric && by <= 0) {
            problems.add(opt + ": range step +" + m.group(4).trim() + " must be > 0");
        }
        if (start != null && end != null && start > end) {
            problems.add(opt + ": range " + t + " descends; START must not exceed END");
        }
        if (!problems.isEmpty()) {
            return new Parsed(List.of(), problems);
        }
        double count = geometric ? Math.floor(Math.log(end / start) / Math.log(by) + 1e-9) + 1
                : Math.floor((end - start) / by + 1e-9) + 1;
        if (count > MAX_STEPS) {
            return failed(opt + ": range " + t + " gives " + (count > 1e9 ? "over a billion" : (long) count)
                    + " steps, at most " + MAX_STEPS);
        }
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < (int) count; i++) {
            double v = geometric ? start * Math.pow(by, i) : start + i * by;
            v = axis.integral() ? Math.round(v) : Math.round(v * 1e6) / 1e6;
            if (values.isEmpty() || values.get(values.size() - 1) != v) {
                values.add(v);
            }
        }
        return new Parsed(values, List.of());
    }

    /** @return the value, or null with its problem added */
    private static Double value(LoadAxis axis, String part, List<String> problems) {
        String opt = axis.option();
        Double v = number(part);
        if (v == null) {
            problems.add(opt + ": '" + part + "' is not a number");
            return null;
        }
        if (v <= 0) {
            problems.add(opt + ": " + part + " is not positive; every load must be > 0");
            return null;
        }
        if (axis.integral()) {
            if (v != Math.rint(v)) {
                problems.add(opt + ": " + part + " is not a whole number of slots");
                return null;
            }
            if (v > RunConfig.MAX_REQUESTS) {
                problems.add(opt + ": " + part + " exceeds " + RunConfig.MAX_REQUESTS + " slots");
                return null;
            }
        }
        return axis.integral() ? v : Math.round(v * 1e6) / 1e6;
    }

    /** @return the finite number {@code s} stands for, or null */
    private static Double number(String s) {
        try {
            double d = Double.parseDouble(s);
            return Double.isFinite(d) && !s.endsWith("d") && !s.endsWith("D") && !s.endsWith("f") && !s.endsWith("F")
                    ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Parsed failed(String problem) {
        return new Parsed(List.of(), List.of(problem));
    }
}
