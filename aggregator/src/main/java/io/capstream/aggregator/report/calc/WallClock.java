package io.capstream.aggregator.report.calc;

/**
 * Whether a run's wall clock can divide capstream's per-second figures (statistics, goodput, load):
 * known, finite and not zero. Otherwise those figures are null, so that a bad wall clock never puts
 * NaN or Infinity under the artifact's {@code capstream} key (the anvil {@code metrics} keep the
 * reference's behaviour, spec §8.2).
 */
final class WallClock {
    private WallClock() {
    }

    /**
     * @param value a wall clock in any unit (s or ns), or null
     * @return true when it is not null, finite and not 0
     */
    static boolean usable(Double value) {
        return value != null && Double.isFinite(value) && value != 0.0;
    }
}
