package io.capstream.cli.options;

import io.capstream.loadgen.run.CancelShape;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The cancellation options of {@code capstream run}, {@code generate} and {@code sweep} (issue 30, like AIPerf's
 * {@code --request-cancellation-rate}/{@code -delay}): which share of the requests the client abandons, and when.
 * Resolved into a {@link CancelShape} by {@link #toShape()}; the rules of the values are
 * {@link CancelShape#problems()}'s (checked by {@link io.capstream.loadgen.run.RunValidator} before any load).
 */
public class CancelOptions {
    @Option(names = "--cancel-rate", paramLabel = "P",
            description = "Share of requests, 0..1, whose stream the client closes after --cancel-after (drawn per"
                    + " request from --seed, so a rerun cancels the same ones). A cancelled request is counted as"
                    + " cancelled (report capstream.cancelled), neither completed nor failed, and is left out of the"
                    + " latency percentiles; a request that ends before its cancel time completes normally; a"
                    + " cancelled conversation turn ends its conversation. Default: none.")
    Double rate;

    @Option(names = "--cancel-after", paramLabel = "DURATION[,STDDEV]",
            description = "When the client closes a cancelled request's stream, after its start (t0), e.g. 100ms,"
                    + " 2s or 2s,500ms (normal, seeded by --seed, at least 0). Needed with --cancel-rate.")
    String after;

    /**
     * @return the cancellation group of the run ({@link CancelShape#NONE} when no option was given)
     * @throws IllegalArgumentException when {@code --cancel-after} is not DURATION[,STDDEV] (usage error)
     */
    public CancelShape toShape() {
        if (rate == null && after == null) {
            return CancelShape.NONE;
        }
        Double mean = null;
        Double sd = null;
        if (after != null) {
            String[] p = after.split(",", -1);
            if (p.length > 2) {
                throw new IllegalArgumentException("--cancel-after must be DURATION or DURATION,STDDEV (e.g. 100ms or"
                        + " 2s,500ms), got '" + after + "'");
            }
            mean = seconds(p[0]);
            sd = p.length == 2 ? seconds(p[1]) : null;
        }
        return new CancelShape(rate, mean, sd);
    }

    private static double seconds(String text) {
        try {
            return DurationConverter.parse(text).toNanos() / 1e9;
        } catch (TypeConversionException e) {
            throw new IllegalArgumentException("--cancel-after: " + e.getMessage());
        }
    }
}
