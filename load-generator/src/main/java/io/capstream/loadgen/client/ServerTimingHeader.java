package io.capstream.loadgen.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the W3C {@code Server-Timing} response header ({@code name;dur=12.5;desc="...", other;dur=3}): each entry's
 * name to its {@code dur}, ms. Entries without a numeric {@code dur} are left out; a later entry of the same name
 * replaces an earlier one. Stateless.
 */
public final class ServerTimingHeader {
    private ServerTimingHeader() {
    }

    /**
     * @param values the header's values (a response may carry it several times); null or empty for none
     * @return entry name to duration, ms, in order; null when no entry has a usable {@code dur}
     */
    public static Map<String, Double> parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            return null;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (String value : values) {
            for (String entry : value.split(",")) {
                String[] params = entry.split(";");
                String name = params[0].strip();
                if (name.isEmpty()) {
                    continue;
                }
                for (int i = 1; i < params.length; i++) {
                    String p = params[i].strip();
                    int eq = p.indexOf('=');
                    if (eq > 0 && p.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("dur")) {
                        Double dur = number(p.substring(eq + 1).strip());
                        if (dur != null) {
                            out.put(name, dur);
                        }
                    }
                }
            }
        }
        return out.isEmpty() ? null : out;
    }

    private static Double number(String s) {
        String v = s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
        try {
            double d = Double.parseDouble(v);
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
