package io.capstream.aggregator.sweep;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.SweepStepRef;
import java.util.List;

/** Hand-built step reports for the sweep tests. */
final class SweepReports {
    static final String SLO = "ttft_p95_ms<=300";

    private SweepReports() {
    }

    static Distribution dist(double p50, double p95, double p99) {
        return Distribution.newBuilder().setCount(10).setMean(p50).setStddev(1.0).setMin(p50 / 2).setMax(p99 * 2)
                .setP50(p50).setP90(p95).setP95(p95).setP99(p99).build();
    }

    static Distribution empty() {
        return Distribution.newBuilder().setCount(0).build();
    }

    /** A report of a sweep step without statistics, SLOs or load health. */
    static BenchmarkReport.Builder bare(String sweepId, int step, String axis, double value, boolean repeat) {
        return BenchmarkReport.newBuilder().setRunId(sweepId + "-s" + step).setBaseUrl("http://127.0.0.1:8000/v1")
                .setModel("m").setRequests(20).setCompleted(19).setFailed(1).setConcurrency(4).setMaxTokens(64)
                .setMetrics(Metrics.newBuilder().setTtftP50Ms(11.5).setTtftP95Ms(22.5).setE2eP50Ms(101.0)
                        .setE2eP95Ms(202.0).setThroughputTokS(350.25).build())
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE)
                        .setGeneratedAtMs(1_767_225_600_000L + step * 1000L).build())
                .setArtifactJson("{}")
                .setSweep(SweepStepRef.newBuilder().setSweepId(sweepId).setStep(step).setAxis(axis).setValue(value)
                        .setMode("grid").setRepeat(repeat).setStepsPlanned(6).build());
    }

    /** A step with statistics, load health and one SLO whose verdict is {@code met} (null: no SLOs). */
    static BenchmarkReport step(String sweepId, int step, String axis, double value, Boolean met, boolean repeat) {
        BenchmarkReport.Builder b = bare(sweepId, step, axis, value, repeat)
                .setStatistics(RunStatistics.newBuilder().setTtftMs(dist(12.0, 25.0, 30.0)).setTtfoMs(empty())
                        .setE2eMs(dist(110.0, 210.0, 250.0)).setItlMs(dist(5.0, 6.0, 7.0)).setInterChunkMs(dist(4.0, 8.0, 9.5))
                        .setRequestThroughputRps(9.5).setOutputThroughputTokS(350.25).setTotalTokenThroughputTokS(1200.5)
                        .build())
                .setLoad(LoadHealth.newBuilder().setArrival("closed").setAchievedConcurrency(3.75)
                        .setScheduledRateRps(7.5).setAchievedRateRps(7.25).build());
        if (met != null) {
            b.setSlo(SloReport.newBuilder()
                    .setSlos(List.of(SloAttainment.newBuilder().setSlo(SLO).setMetric("ttft_p95_ms").setThreshold(300)
                            .setObserved(25.0).setMet(met).setRequestsMeeting(19).setAttainment(0.95).build()))
                    .setRequests(20).setGoodRequests(19).setGoodput(0.95).setGoodputRps(9.0).setMetAll(met).build());
        }
        return b.build();
    }

    static BenchmarkReport step(String sweepId, int step, double concurrency, Boolean met) {
        return step(sweepId, step, SweepCurves.AXIS_CONCURRENCY, concurrency, met, false);
    }
}
