package io.capstream.aggregator.window;

/**
 * The per-request quantities whose p50/p95/p99 a window summary carries (spec §7 row fields).
 */
public enum Quantity {
    /** Time to first content token, ms. */
    TTFT("ttft", "ms", false),
    /** Time to first output (reasoning or content), ms. */
    TTFO("ttfo", "ms", false),
    /** End to end, ms. */
    E2E("e2e", "ms", false),
    /** Mean inter-token latency per request, ms. */
    ITL("itl", "ms", false),
    /** Decode rate per request, tokens/s. */
    DECODE("decode", "tok_s", true),
    /** Effective prefill rate per request, tokens/s. */
    PREFILL("prefill", "tok_s", true);

    private final String prefix;
    private final String unit;
    private final boolean higherIsBetter;

    Quantity(String prefix, String unit, boolean higherIsBetter) {
        this.prefix = prefix;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    /** @return the metric-name prefix, e.g. {@code ttft} */
    public String prefix() {
        return prefix;
    }

    /** @return the unit suffix: {@code ms} or {@code tok_s} */
    public String unit() {
        return unit;
    }

    /** @return true for rates (tokens/s), where larger values are better */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
