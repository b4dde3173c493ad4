package io.capstream.cli.options;

import io.capstream.aggregator.slo.BurnRatePolicy;
import io.capstream.aggregator.slo.BurnRateRule;
import io.capstream.aggregator.slo.SloDecision;
import io.capstream.aggregator.slo.SloTopologyConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code aggregate}'s options for how SLO alerts decide (issue 32): interval or point decisions, and burn-rate alerts
 * on the error budget. {@link #apply} checks them and reports each bad one as a one-line problem.
 */
public final class SloAlertOptions {
    @Option(names = "--slo-decision", paramLabel = "interval|point",
            description = "How a window decides an SLO's state. interval: it breaches only when the 95%% interval of the"
                    + " window's value (of the percentile, or of error_rate/goodput) lies wholly above/below the"
                    + " threshold, and recovers only when it lies wholly on the right side; otherwise the state holds"
                    + " (a p95 interval needs at least 72 requests in a window, a p99 one 368). point: the window's point"
                    + " value decides once the window has --slo-min-samples values. Default: interval.")
    String decision = "interval";

    @Option(names = "--slo-min-samples", paramLabel = "N",
            description = "Fewest values a window needs to change an SLO's state under --slo-decision point (and for"
                    + " output_throughput_tok_s, which has no interval). Default: " + SloDecision.DEFAULT_MIN_SAMPLES + ".")
    long minSamples = SloDecision.DEFAULT_MIN_SAMPLES;

    @Option(names = "--slo-target", paramLabel = "FRACTION",
            description = "Turns the SLOs into an error budget with burn-rate alerts: this share of the requests must"
                    + " complete and meet every per-request SLO, e.g. 0.99 (budget 1%%). Alerts fire on capstream.alerts"
                    + " at the SRE workbook's rules (page 14.4x over 1h and 5m, page 6x over 6h and 30m, ticket 1x over"
                    + " 3d and 6h) or those of --burn-rate-rule. Default: no burn-rate alerts.")
    Double target;

    @Option(names = "--burn-rate-rule", paramLabel = "SEVERITY:FACTOR:LONG:SHORT",
            description = "A burn-rate rule, repeatable, replacing the defaults: fires while the burn rate over both the"
                    + " LONG and the SHORT window is at least FACTOR, e.g. page:14.4:1h:5m. Needs --slo-target.")
    List<String> rules = new ArrayList<>();

    /**
     * @param base     the SLO settings to extend; not null
     * @param problems where one line per bad option goes; not null
     * @return the settings with the decision and burn-rate policy (unchanged parts when an option is bad)
     */
    public SloTopologyConfig apply(SloTopologyConfig base, List<String> problems) {
        SloTopologyConfig out = base;
        try {
            out = out.withDecision(SloDecision.parse(decision, minSamples));
        } catch (IllegalArgumentException e) {
            problems.add((minSamples < 1 ? "--slo-min-samples: " : "--slo-decision: ") + e.getMessage());
        }
        if (target == null) {
            if (!rules.isEmpty()) {
                problems.add("--burn-rate-rule needs --slo-target (the share of good requests, e.g. 0.99)");
            }
            return out;
        }
        if (base.slos().isEmpty()) {
            problems.add("--slo-target needs at least one --slo (the budget counts the requests that fail or miss a"
                    + " per-request SLO)");
            return out;
        }
        try {
            List<BurnRateRule> parsed = rules.isEmpty() ? BurnRatePolicy.workbookRules() : parseRules(rules);
            out = out.withBurnRate(new BurnRatePolicy(target, parsed));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return out;
    }

    private static List<BurnRateRule> parseRules(List<String> texts) {
        List<BurnRateRule> out = new ArrayList<>();
        for (String t : texts) {
            String[] p = t.split(":");
            if (p.length != 4) {
                throw new IllegalArgumentException("--burn-rate-rule '" + t + "': expected SEVERITY:FACTOR:LONG:SHORT,"
                        + " e.g. page:14.4:1h:5m");
            }
            try {
                double factor = Double.parseDouble(p[1]);
                Duration longWindow = DurationConverter.parse(p[2]);
                Duration shortWindow = DurationConverter.parse(p[3]);
                out.add(new BurnRateRule(p[0].trim(), factor, longWindow, shortWindow));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("--burn-rate-rule '" + t + "': " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * @param config the applied settings; not null
     * @return one banner line saying how SLO alerts decide, e.g.
     *         {@code SLO alerts: interval decisions; burn-rate alerts on a 99% target: page-1h-5m at 14.4x, ...}
     */
    public static String banner(SloTopologyConfig config) {
        SloDecision d = config.decision();
        StringBuilder b = new StringBuilder("SLO alerts: ").append(d.mode().label()).append(" decisions");
        if (d.mode() == SloDecision.Mode.POINT) {
            b.append(" (windows with at least ").append(d.minSamples()).append(" values)");
        }
        BurnRatePolicy p = config.burnRate();
        if (p == null) {
            return b.append("; no burn-rate alerts (--slo-target)").toString();
        }
        b.append("; burn-rate alerts on a ").append(java.math.BigDecimal.valueOf(p.target() * 100).stripTrailingZeros()
                .toPlainString()).append("% target:");
        for (int i = 0; i < p.rules().size(); i++) {
            BurnRateRule r = p.rules().get(i);
            b.append(i == 0 ? " " : ", ").append(r.name()).append(" at ")
                    .append(java.math.BigDecimal.valueOf(r.factor()).stripTrailingZeros().toPlainString()).append("x");
        }
        return b.toString();
    }
}
