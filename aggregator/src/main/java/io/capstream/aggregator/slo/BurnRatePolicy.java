package io.capstream.aggregator.slo;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Burn-rate alerting on an error budget (issue 32): with {@code target} 0.99, 1% of the requests may miss a
 * per-request SLO or fail (the error budget); the burn rate over a span of windows is
 * {@code (bad requests / requests) / (1 - target)}, read from the window summaries as
 * {@code (requests - goodput_requests) / requests}. One budget per target, model and context bucket covers every
 * per-request SLO together (a request is good when it completed and met all of them), which is what the summaries
 * count.
 *
 * @param target the share of requests that must be good, in (0, 1), e.g. 0.99
 * @param rules  the rules, at least one; see {@link #workbookRules()}
 */
public record BurnRatePolicy(double target, List<BurnRateRule> rules) {
    /** Validates and copies. */
    public BurnRatePolicy {
        if (!(target > 0 && target < 1)) {
            throw new IllegalArgumentException("--slo-target must be between 0 and 1 (exclusive), e.g. 0.99; got "
                    + target);
        }
        Objects.requireNonNull(rules, "rules");
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("need at least one burn-rate rule");
        }
        rules = List.copyOf(rules);
    }

    /**
     * The SRE workbook's defaults for a 30-day budget: page at 14.4&times; over 1 h and 5 min (2% of the budget in an
     * hour), page at 6&times; over 6 h and 30 min (5% in six hours), ticket at 1&times; over 3 d and 6 h (10% in
     * three days).
     *
     * @return the three rules
     */
    public static List<BurnRateRule> workbookRules() {
        return List.of(new BurnRateRule("page", 14.4, Duration.ofHours(1), Duration.ofMinutes(5)),
                new BurnRateRule("page", 6, Duration.ofHours(6), Duration.ofMinutes(30)),
                new BurnRateRule("ticket", 1, Duration.ofDays(3), Duration.ofHours(6)));
    }

    /**
     * @param target the share of requests that must be good, in (0, 1)
     * @return the policy with {@link #workbookRules()}
     */
    public static BurnRatePolicy workbook(double target) {
        return new BurnRatePolicy(target, workbookRules());
    }

    /** @return the error budget, {@code 1 - target} */
    public double budget() {
        return 1 - target;
    }

    /** @return the longest long window of the rules (how much history the evaluation keeps) */
    public Duration longest() {
        return rules.stream().map(BurnRateRule::longWindow).max(Comparator.naturalOrder()).orElseThrow();
    }
}
