package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.BenchmarkReport;

/**
 * Computes one run's {@code anvil-serving.benchmark/v1} report from its events with the reference's
 * exact formulas (spec §6-§9). Pure function: no clock, no I/O, no state.
 */
public final class ReportCalculator {
    private ReportCalculator() {
    }

    /**
     * Computes the report.
     *
     * @param data the run's events (duplicates removed by the caller, any order), not null
     * @return the typed report with {@code artifact_json} set to the exact artifact text (§9.1)
     */
    public static BenchmarkReport compute(RunData data) {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }
}
