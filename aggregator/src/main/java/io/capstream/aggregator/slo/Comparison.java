package io.capstream.aggregator.slo;

/** Comparison operator of an SLO: the SLO is met when {@code observed <op> threshold} holds. */
public enum Comparison {
    /** observed &le; threshold. */
    LE("<="),
    /** observed &lt; threshold. */
    LT("<"),
    /** observed &ge; threshold. */
    GE(">="),
    /** observed &gt; threshold. */
    GT(">");

    private final String symbol;

    Comparison(String symbol) {
        this.symbol = symbol;
    }

    /** @return the operator as written: {@code <=}, {@code <}, {@code >=} or {@code >} */
    public String symbol() {
        return symbol;
    }

    /**
     * @param observed  observed value
     * @param threshold threshold
     * @return whether {@code observed <op> threshold} holds (false for NaN)
     */
    public boolean holds(double observed, double threshold) {
        return switch (this) {
            case LE -> observed <= threshold;
            case LT -> observed < threshold;
            case GE -> observed >= threshold;
            case GT -> observed > threshold;
        };
    }
}
