package io.capstream.aggregator.slo;

import io.capstream.schemas.text.DurationLabel;
import java.time.Duration;
import java.util.Objects;

/**
 * One multi-window burn-rate rule (Google SRE workbook, "Alerting on SLOs", multiwindow multi-burn-rate alerts): it
 * fires while the burn rate over BOTH the long and the short window is at least {@code factor}, and resolves as soon
 * as either drops below (the short window makes it resolve quickly once the problem is gone).
 *
 * @param severity    {@code page} or {@code ticket} (any label without spaces or {@code |}); not null
 * @param factor      burn rate at which it fires (&gt; 0), e.g. 14.4 (2% of a 30-day budget in one hour)
 * @param longWindow  the long window (&gt; 0), e.g. 1 h
 * @param shortWindow the short window (&gt; 0, at most the long one), e.g. 5 min
 */
public record BurnRateRule(String severity, double factor, Duration longWindow, Duration shortWindow) {
    /** Validates. */
    public BurnRateRule {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(longWindow, "longWindow");
        Objects.requireNonNull(shortWindow, "shortWindow");
        if (severity.isBlank() || severity.contains("|") || severity.contains(" ")) {
            throw new IllegalArgumentException("severity must be a word such as page or ticket, got '" + severity + "'");
        }
        if (!(factor > 0) || !Double.isFinite(factor)) {
            throw new IllegalArgumentException("burn-rate factor must be > 0, got " + factor);
        }
        if (longWindow.isNegative() || longWindow.isZero() || shortWindow.isNegative() || shortWindow.isZero()
                || shortWindow.compareTo(longWindow) > 0) {
            throw new IllegalArgumentException("need 0 < short window <= long window, got long "
                    + DurationLabel.of(longWindow) + " and short " + DurationLabel.of(shortWindow));
        }
    }

    /** @return e.g. {@code page-1h-5m}: severity, long window, short window */
    public String name() {
        return severity + "-" + DurationLabel.of(longWindow) + "-" + DurationLabel.of(shortWindow);
    }
}
