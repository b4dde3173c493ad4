package io.capstream.aggregator.slo;

import io.capstream.aggregator.window.Quantity;
import io.capstream.aggregator.window.RequestCriterion;
import io.capstream.aggregator.window.RequestSample;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.util.List;
import java.util.Objects;

/**
 * One service-level objective, e.g. {@code ttft_p95_ms<=500} or {@code error_rate<=0.01}; made by
 * {@link SloParser}. Two kinds:
 * <ul>
 *   <li>percentile SLOs ({@code quantity != null}): the window's p50/p95/p99 of a per-request
 *       quantity (ms or tokens/s) against the threshold; the same threshold applied to each
 *       request decides whether that request counts towards goodput;</li>
 *   <li>window SLOs ({@code quantity == null}): {@code error_rate} (0..1),
 *       {@code output_throughput_tok_s} (tokens/s) or {@code goodput} (0..1).</li>
 * </ul>
 *
 * @param text       the SLO as given (trimmed); not null
 * @param metric     metric name, e.g. ttft_p95_ms; not null
 * @param quantity   per-request quantity of a percentile SLO; null for window SLOs
 * @param percentile 50, 95 or 99 for percentile SLOs; 0 for window SLOs
 * @param comparison operator; not null
 * @param threshold  threshold in the metric's unit (finite)
 */
public record Slo(String text, String metric, Quantity quantity, int percentile, Comparison comparison,
                  double threshold) implements RequestCriterion {
    /** Window metric: failed / requests. */
    public static final String ERROR_RATE = "error_rate";
    /** Window metric: share of requests meeting every per-request SLO. */
    public static final String GOODPUT = "goodput";
    /** Window metric: output tokens / window length, tokens/s. */
    public static final String OUTPUT_THROUGHPUT = "output_throughput_tok_s";

    /** Validates. */
    public Slo {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(comparison, "comparison");
    }

    /** @return true when the SLO also applies to each request (percentile SLOs) */
    @Override
    public boolean perRequest() {
        return quantity != null;
    }

    /**
     * Whether one completed request meets this per-request SLO. A request without a value for
     * the quantity (e.g. no ITL when usage tokens are missing, spec §7) is not held against it.
     *
     * @param sample the request's row values; not null
     * @return true when met, or when this is not a per-request SLO
     */
    @Override
    public boolean metBy(RequestSample sample) {
        if (quantity == null) {
            return true;
        }
        Double v = sample.value(quantity);
        return v == null || comparison.holds(v, threshold);
    }

    /**
     * The value this SLO observes in a window summary.
     *
     * @param summary the closed window's summary; not null
     * @return the observed value, or null when the window has no sample for it
     */
    public Double observe(WindowSummary summary) {
        if (quantity == null) {
            return switch (metric) {
                case ERROR_RATE -> summary.getRequests() == 0 ? null : summary.getErrorRate();
                case GOODPUT -> summary.getGoodput();
                case OUTPUT_THROUGHPUT -> summary.getOutputThroughputTokS();
                default -> null;
            };
        }
        Quantiles q = quantiles(summary);
        if (q == null || q.getCount() == 0) {
            return null;
        }
        return switch (percentile) {
            case 50 -> q.getP50();
            case 95 -> q.getP95();
            default -> q.getP99();
        };
    }

    /**
     * How a closed window fares against this SLO: the judgement of the SLO alerts ({@code SloAlertProcessor}) and the
     * {@code capstream_window_probe_success} gauge alike.
     *
     * @param summary the closed window's summary; not null
     * @return true when met, false when missed, null when the window has no value for it (e.g. no completed request
     *         for a percentile SLO): such a window is neither
     */
    public Boolean judge(WindowSummary summary) {
        Double observed = observe(summary);
        return observed == null ? null : metBy(observed);
    }

    /**
     * @param slos    the SLOs; not null, may be empty
     * @param summary a closed window's summary; not null
     * @return true when the window misses at least one of them ({@link #judge} false); false with no SLOs
     */
    public static boolean anyMissedBy(List<Slo> slos, WindowSummary summary) {
        return slos.stream().anyMatch(slo -> Boolean.FALSE.equals(slo.judge(summary)));
    }

    /**
     * @param summary the closed window's summary; not null
     * @return the window's quantiles of this percentile SLO's quantity; null for window SLOs or when the window has
     *         none
     */
    public Quantiles quantiles(WindowSummary summary) {
        if (quantity == null) {
            return null;
        }
        return switch (quantity) {
            case TTFT -> summary.getTtftMs();
            case TTFO -> summary.getTtfoMs();
            case E2E -> summary.getE2eMs();
            case ITL -> summary.getItlMs();
            case DECODE -> summary.getDecodeTokS();
            case PREFILL -> summary.getPrefillTokS();
        };
    }

    /**
     * @param q the window's quantiles of this SLO's quantity; not null
     * @return the 95% interval [low, high] of this SLO's percentile, or null when the window has none
     */
    public java.util.List<Double> interval(Quantiles q) {
        return switch (percentile) {
            case 50 -> q.getP50Ci();
            case 95 -> q.getP95Ci();
            default -> q.getP99Ci();
        };
    }

    /**
     * @param observed observed value (not null)
     * @return whether the SLO is met by this value
     */
    public boolean metBy(double observed) {
        return comparison.holds(observed, threshold);
    }
}
