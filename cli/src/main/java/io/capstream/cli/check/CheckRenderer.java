package io.capstream.cli.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.text.SecretMask;
import java.util.Locale;

/**
 * Prints a {@link CheckReport}: a table (one row per finding: key, verdict, value, detail) and the verdict line, or
 * the {@code --json} object (one top-level key per finding, each {@code {"verdict", "value", "detail"}}, plus
 * {@code measurable}, {@code reason}, {@code target}). Every text goes through the target's secret mask.
 */
public final class CheckRenderer {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final SecretMask mask;

    /** @param mask the secrets to mask; not null */
    public CheckRenderer(SecretMask mask) {
        this.mask = mask;
    }

    /** @param r the report @return the table and verdict, lines ending in a newline */
    public String table(CheckReport r) {
        StringBuilder b = new StringBuilder();
        b.append("capstream check: ").append(r.baseUrl()).append(" model ").append(r.model()).append(" (")
                .append(r.endpoint()).append(")\n");
        int keyW = "finding".length();
        int valW = "value".length();
        for (Finding f : r.findings()) {
            keyW = Math.max(keyW, f.key().length());
            valW = Math.min(32, Math.max(valW, f.value().length()));
        }
        String fmt = "%-" + keyW + "s  %-7s  %-" + valW + "s  %s%n";
        b.append(String.format(Locale.ROOT, fmt, "finding", "verdict", "value", "detail"));
        for (Finding f : r.findings()) {
            b.append(String.format(Locale.ROOT, fmt, f.key(), f.verdict().label(), f.value(), f.detail()));
        }
        b.append(r.verdictLine()).append('\n');
        return mask.apply(b.toString());
    }

    /** @param r the report @return the JSON object, indented, ending in a newline */
    public String json(CheckReport r) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("target").put("base_url", r.baseUrl()).put("model", r.model()).put("endpoint", r.endpoint());
        root.put("measurable", r.measurable());
        root.put("reason", r.reason());
        root.put("verdict", r.verdictLine());
        for (Finding f : r.findings()) {
            root.putObject(f.key()).put("verdict", f.verdict().label()).put("value", f.value())
                    .put("detail", f.detail());
        }
        try {
            return mask.apply(JSON.writeValueAsString(root)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
