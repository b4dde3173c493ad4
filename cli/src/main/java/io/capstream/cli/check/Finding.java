package io.capstream.cli.check;

/**
 * One thing {@code capstream check} found about the endpoint: a top-level key of {@code --json} and a row of the
 * table.
 *
 * @param key     the JSON key, snake case (e.g. {@code usage_chunk}); not null
 * @param verdict how it bears on measuring the endpoint; not null
 * @param value   what was seen, short (e.g. {@code reasoning_content}, {@code 4096}, {@code yes}); not null
 * @param detail  one line saying what was sent and seen; not null
 */
public record Finding(String key, Verdict verdict, String value, String detail) {
    /** How a finding bears on measuring the endpoint. */
    public enum Verdict {
        /** As the protocol expects. */
        OK,
        /** Measurable, but a number may mislead or an option is needed (the detail says which). */
        WARN,
        /** The endpoint cannot be measured by the protocol. */
        FAIL,
        /** Information only. */
        INFO,
        /** Not observed (the probe could not tell). */
        UNKNOWN;

        /** @return the lower-case label printed and stored */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** @return a finding with these parts */
    public static Finding of(String key, Verdict verdict, String value, String detail) {
        return new Finding(key, verdict, value, detail);
    }
}
