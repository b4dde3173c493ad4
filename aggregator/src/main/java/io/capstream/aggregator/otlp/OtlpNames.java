package io.capstream.aggregator.otlp;

import io.capstream.aggregator.window.LatencyMeasure;
import java.util.Locale;

/**
 * Which GenAI metric names the OTLP export uses while the OpenTelemetry GenAI conventions move from v1.41's
 * {@code gen_ai.client.operation.*} and {@code gen_ai.client.token.usage} to the current
 * {@code gen_ai.client.inference.*} names. capstream's own names ({@code capstream.*}, e.g. TTFT's
 * {@link LatencyMeasure#otelName()}) are exported under every choice.
 */
public enum OtlpNames {
    /** Only the current {@code gen_ai.client.inference.*} names. */
    CURRENT,
    /** Only the v1.41 names, for dashboards (and AIPerf) that read them. */
    LEGACY,
    /** Both, each measurement twice (the default during the transition). */
    BOTH;

    /** @return whether the current names are exported */
    public boolean current() {
        return this != LEGACY;
    }

    /** @return whether the v1.41 names are exported */
    public boolean legacy() {
        return this != CURRENT;
    }

    /**
     * @param text {@code current}, {@code legacy} or {@code both}, any case
     * @return the choice
     * @throws IllegalArgumentException naming the allowed values when {@code text} is none of them (or null)
     */
    public static OtlpNames parse(String text) {
        if (text != null) {
            for (OtlpNames n : values()) {
                if (n.name().equalsIgnoreCase(text.strip())) {
                    return n;
                }
            }
        }
        throw new IllegalArgumentException("must be current, legacy or both, got '" + text + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
