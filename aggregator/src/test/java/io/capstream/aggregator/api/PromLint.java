package io.capstream.aggregator.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules of {@code promtool check metrics} (Prometheus 2.42, client_golang's promlint) applied to
 * Prometheus text-format output, so that tests check them without promtool: every family has a TYPE and
 * a non-empty HELP; counters and only counters end in {@code _total}; {@code quantile} only on
 * summaries, {@code le} and {@code _bucket} only on histograms, {@code _count} / {@code _sum} only on
 * both; no abbreviated units ({@code _ms}, {@code _s}, ...), base units (seconds, not milliseconds), no
 * type name, colon or camelCase in names or label names. Output: one {@code "<family> <problem>"} per
 * problem, as promtool prints them.
 */
final class PromLint {
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? .*");
    private static final Pattern LABEL_NAME = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\",?");
    private static final List<String> ABBREVIATIONS = List.of("s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb",
            "pb", "m", "h", "d");
    private static final Map<String, String> UNITS = Map.of("amperes", "amperes", "bytes", "bytes", "celsius", "celsius",
            "grams", "grams", "joules", "joules", "kelvin", "kelvin", "meters", "meters", "metres", "metres",
            "seconds", "seconds", "volts", "volts");
    private static final List<String> PREFIXES = List.of("pico", "nano", "micro", "milli", "centi", "deci", "deca",
            "hecto", "kilo", "kibi", "mega", "mibi", "giga", "gibi", "tera", "tebi", "peta", "pebi");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    private PromLint() {
    }

    /** One family: its HELP (null when absent), TYPE (null when absent) and the label names of its samples. */
    private static final class Family {
        String help;
        String type;
        final List<String> sampleNames = new ArrayList<>();
        final List<String> labels = new ArrayList<>();
    }

    /** @return the problems promtool would report, in family order */
    static List<String> problems(String exposition) {
        Map<String, Family> families = parse(exposition);
        List<String> out = new ArrayList<>();
        families.forEach((name, f) -> check(name, f).forEach(p -> out.add(name + " " + p)));
        return out;
    }

    private static Map<String, Family> parse(String text) {
        Map<String, Family> families = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ", 4);
                Family f = families.computeIfAbsent(parts[2], k -> new Family());
                String rest = parts.length > 3 ? parts[3] : "";
                if (line.startsWith("# HELP ")) {
                    f.help = rest;
                } else {
                    f.type = rest;
                }
            } else if (!line.isBlank() && !line.startsWith("#")) {
                Matcher m = SAMPLE.matcher(line);
                if (m.matches()) {
                    Family f = families.computeIfAbsent(familyOf(m.group(1), families), k -> new Family());
                    f.sampleNames.add(m.group(1));
                    if (m.group(2) != null) {
                        Matcher l = LABEL_NAME.matcher(m.group(2));
                        while (l.find()) {
                            f.labels.add(l.group(1));
                        }
                    }
                }
            }
        }
        return families;
    }

    private static String familyOf(String sample, Map<String, Family> families) {
        if (families.containsKey(sample)) {
            return sample;
        }
        for (String suffix : List.of("_sum", "_count", "_bucket")) {
            String base = sample.endsWith(suffix) ? sample.substring(0, sample.length() - suffix.length()) : null;
            if (base != null && families.containsKey(base)) {
                return base;
            }
        }
        return sample;
    }

    private static List<String> check(String name, Family f) {
        List<String> p = new ArrayList<>();
        String type = f.type == null ? "untyped" : f.type;
        String n = name.toLowerCase(java.util.Locale.ROOT);
        if (f.type == null) {
            p.add("no TYPE");
        }
        if (f.help == null || f.help.isBlank()) {
            p.add("no help text");
        }
        if (name.contains(":")) {
            p.add("metric names should not contain ':'");
        }
        if (!name.equals(n) || f.labels.stream().anyMatch(l -> !l.equals(l.toLowerCase(java.util.Locale.ROOT)))) {
            p.add("metric names and label names should be written in 'snake_case' not 'camelCase'");
        }
        boolean counter = type.equals("counter");
        if (counter && !n.endsWith("_total")) {
            p.add("counter metrics should have \"_total\" suffix");
        } else if (!counter && !type.equals("untyped") && n.endsWith("_total")) {
            p.add("non-counter metrics should not have \"_total\" suffix");
        }
        if (!type.equals("untyped")) {
            if (!type.equals("histogram") && (f.labels.contains("le") || n.endsWith("_bucket"))) {
                p.add("non-histogram metrics should not have \"le\" label or \"_bucket\" suffix");
            }
            if (!type.equals("summary") && f.labels.contains("quantile")) {
                p.add("non-summary metrics should not have \"quantile\" label");
            }
            if (!type.equals("histogram") && !type.equals("summary") && (n.endsWith("_count") || n.endsWith("_sum"))) {
                p.add("non-histogram and non-summary metrics should not have \"_count\" or \"_sum\" suffix");
            }
        }
        for (String t : TYPES) {
            if (n.contains("_" + t + "_") || n.endsWith("_" + t)) {
                p.add("metric name should not include type '" + t + "'");
            }
        }
        for (String a : ABBREVIATIONS) {
            if (n.contains("_" + a + "_") || n.endsWith("_" + a)) {
                p.add("metric names should not contain abbreviated units");
                break;
            }
        }
        for (String part : n.split("_")) {
            String unit = UNITS.get(part);
            for (String prefix : PREFIXES) {
                if (unit == null && part.startsWith(prefix) && UNITS.containsKey(part.substring(prefix.length()))) {
                    p.add("use base unit \"" + UNITS.get(part.substring(prefix.length())) + "\" instead of \"" + part + "\"");
                }
            }
        }
        return p;
    }
}
