package io.capstream.loadgen.run;

import io.capstream.schemas.avro.SweepStep;
import java.util.List;

/**
 * The report-context group of a {@link RunConfig}: what the run's report is evaluated against and where
 * the run sits in a sweep. Both go into {@code RunStarted} ({@code slos}, {@code sweep}), so that a
 * replay of the events gives the same report and the same sweep curve.
 *
 * @param slos  SLO texts as given to {@code --slo}, e.g. {@code ttft_p95_ms<=300}; never null (null
 *              becomes empty). Their grammar is checked by the command that parses them (the
 *              aggregator's {@code SloParser}); the generator only carries them.
 * @param sweep the run's sweep step, or null for a single run
 * @param rerunOf the run id whose workload this run re-sends ({@code capstream rerun}), or null
 */
public record ReportContext(List<String> slos, SweepStep sweep, String rerunOf) {
    /** No SLOs, not part of a sweep, not a rerun. */
    public static final ReportContext NONE = new ReportContext(List.of(), null, null);

    /**
     * @param slos  SLO texts (null = empty)
     * @param sweep the sweep step, or null
     */
    public ReportContext(List<String> slos, SweepStep sweep) {
        this(slos, sweep, null);
    }

    /** Copies the SLO list (null = empty). */
    public ReportContext {
        slos = slos == null ? List.of() : List.copyOf(slos);
    }

    /** @param v SLO texts (null = none) @return a copy with them */
    public ReportContext withSlos(List<String> v) {
        return new ReportContext(v, sweep, rerunOf);
    }

    /**
     * @param step the sweep step, or null for none
     * @return a copy in this sweep step
     */
    public ReportContext withSweep(SweepStep step) {
        return new ReportContext(slos, step, rerunOf);
    }

    /**
     * @param runId the run id whose workload this run re-sends, or null
     * @return a copy with this {@code rerunOf}
     */
    public ReportContext withRerunOf(String runId) {
        return new ReportContext(slos, sweep, runId);
    }
}
