package io.capstream.cli.options;

import io.capstream.loadgen.stop.StopRules;
import picocli.CommandLine.Option;

/**
 * The stop-rule options of {@code capstream run}, {@code generate} and {@code sweep} (issue 30): rules checked live
 * that end a run early (no new request starts, those in flight end) and are recorded in its report
 * ({@code capstream.stopped}). Resolved into {@link StopRules} by {@link #toRules()}; the rules of the values are
 * {@link StopRules#problems()}'s.
 */
public class StopOptions {
    @Option(names = "--max-error-rate", paramLabel = "R[/WINDOW]",
            description = "Stop the run when more than R (a share, 0..1) of the last WINDOW ended requests failed,"
                    + " e.g. 0.2 or 0.2/50 (checked once WINDOW requests ended; cancelled requests do not count)."
                    + " WINDOW: requests, default " + StopRules.DEFAULT_ERROR_WINDOW + ".")
    String maxErrorRate;

    @Option(names = "--max-consecutive-errors", paramLabel = "N",
            description = "Stop the run after N requests in a row failed (cancelled requests neither count nor break"
                    + " the row).")
    Integer maxConsecutiveErrors;

    @Option(names = "--stop-on-saturation",
            description = "Stop the run when the endpoint no longer keeps up: over the last 50 requests the client's"
                    + " queue grows (start rate below 80%% of the offered rate, queue above 0.5 s), or TTFT rises by"
                    + " more than 250 ms per second to over twice the first 50 requests' median, or (with"
                    + " --server-metrics) the endpoint's waiting requests grow by 10 or more over 5 scrapes.")
    boolean stopOnSaturation;

    /**
     * @return the stop rules ({@link StopRules#NONE} when no option was given)
     * @throws IllegalArgumentException when {@code --max-error-rate} is not R or R/WINDOW with numbers (usage error)
     */
    public StopRules toRules() {
        Double rate = null;
        Integer window = null;
        if (maxErrorRate != null) {
            String[] p = maxErrorRate.split("/", -1);
            try {
                if (p.length > 2) {
                    throw new NumberFormatException();
                }
                rate = Double.parseDouble(p[0].strip());
                window = p.length == 2 ? Integer.valueOf(p[1].strip()) : null;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--max-error-rate must be R or R/WINDOW (a share 0..1, requests),"
                        + " e.g. 0.2/50, got '" + maxErrorRate + "'");
            }
        }
        if (rate == null && maxConsecutiveErrors == null && !stopOnSaturation) {
            return StopRules.NONE;
        }
        return new StopRules(rate, window, maxConsecutiveErrors, stopOnSaturation);
    }
}
