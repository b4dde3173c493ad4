package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestTiming;

/**
 * One service-level objective as a run's report evaluates it ({@link SloEvaluator}). The report
 * depends on this contract only: the grammar and its parser live in {@code io.capstream.aggregator.slo}
 * (which depends on the windows, which depend on the report's row code), and reach the report through
 * a {@link RunSloParser} given to {@link ReportCalculator#compute(RunData, RunSloParser)}.
 */
public interface RunSlo {
    /** Run-level metric: failed / requests, 0..1. */
    String ERROR_RATE = "error_rate";
    /** Run-level metric: share of requests meeting every percentile SLO, 0..1. */
    String GOODPUT = "goodput";
    /** Run-level metric: output tokens / wall clock, tokens/s. */
    String OUTPUT_THROUGHPUT = "output_throughput_tok_s";

    /** @return the SLO as given (trimmed), e.g. {@code ttft_p95_ms<=300}; not null */
    String text();

    /** @return the metric name, e.g. {@code ttft_p95_ms}, {@code error_rate}; not null */
    String metric();

    /** @return the threshold in the metric's unit (ms, tokens/s or a 0..1 fraction) */
    double threshold();

    /** @return true for a percentile SLO over a per-request quantity, false for a run-level one */
    boolean perRequest();

    /** @return the percentile (50, 95 or 99) of a percentile SLO; 0 for run-level SLOs */
    int percentile();

    /**
     * @param row a report row; not null
     * @return the row's value of this percentile SLO's quantity (ms or tokens/s), or null when the
     *     row has none or the SLO is run-level
     */
    Double rowValue(RequestTiming row);

    /**
     * @param observed a value in the metric's unit
     * @return whether {@code observed <op> threshold} holds (false for NaN)
     */
    boolean metBy(double observed);
}
