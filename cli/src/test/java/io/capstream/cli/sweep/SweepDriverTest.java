package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.aggregator.slo.SloParser;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.WorkloadOptions;
import io.capstream.cli.runner.RunRequest;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.SweepStep;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A step's configuration, its progress line and what the search reads from its report. */
class SweepDriverTest {
    private static final List<String> SLOS = List.of("ttft_p95_ms<=300", "error_rate<=0.01");

    private static SweepSettings grid(LoadAxis axis, Double... loads) {
        return new SweepSettings("sweep-1", axis, List.of(loads), null, new SweepOutput(Path.of("out")),
                SloParser.parseAll(SLOS));
    }

    private static SweepDriver driver(SweepSettings s) {
        return new SweepDriver(s, RunRequest.builder("sweep", new WorkloadOptions(), new SimOptions()).build(),
                System.out, System.err, k -> null);
    }

    private static RunConfig base() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"))
                .withWarmup(new WarmupConfig(5, 3))
                .withLoad(l -> l.withRequests(32).withMaxInFlight(50))
                .withRequest(r -> r.withCtxTokens(256).withMaxTokens(32).withSharedPrefixTokens(0))
                .withIdentity(i -> i.withSeed(7))
                .withReport(x -> x.withSlos(SLOS));
    }

    @Test
    void aConcurrencyStepIsAClosedLoopWithItsRunIdAndSweepStepAndNoWarmUpAfterStepOne() {
        SweepDriver d = driver(grid(LoadAxis.CONCURRENCY, 1.0, 2.0, 4.0));
        RunConfig first = d.stepConfig(base(), 1, 1, false);
        RunConfig third = d.stepConfig(base(), 3, 4, false);
        assertEquals(new LoadShape(32, 4, 0, ArrivalMode.CLOSED, null, 50, null, null), third.load());
        assertEquals("sweep-1-s3", third.identity().runId());
        assertEquals(new WarmupConfig(5, 3), first.warmup(), "the client warms up before step 1 only");
        assertEquals(WarmupConfig.NONE, third.warmup());
        assertEquals(SLOS, third.report().slos());
        assertEquals(SweepStep.newBuilder().setSweepId("sweep-1").setStep(3).setAxis("concurrency").setValue(4)
                .setMode("grid").setRepeat(false).setStepsPlanned(3).build(), third.report().sweep());
        assertEquals(base().request(), third.request(), "the same workload at every step (no salt in this base)");
        assertEquals(7, third.identity().seed());
    }

    @Test
    void eachStepHasAPromptSaltOfItsOwnWhenTheBaseIsSaltedAndNoneOtherwise() {
        // issue 26.1: every step re-sent the same prompts, so the prefix-cache hit went from 27 % at step 1 to
        // 99.9 % at later steps and TTFT fell as the load rose
        SweepDriver d = driver(grid(LoadAxis.CONCURRENCY, 1.0, 2.0, 4.0));
        RunConfig salted = base().withRequest(base().request().withPromptSalt("# run 000000000000\n"));
        java.util.Set<String> salts = new java.util.HashSet<>();
        for (int step = 1; step <= 3; step++) {
            String salt = d.stepConfig(salted, step, step, false).request().promptSalt();
            assertThat(salt).as("step " + step + ": " + salt).isNotNull();
            assertThat(salt).as("step " + step + ": " + salt).matches("# run [0-9a-f]{12}\n");
            salts.add(salt);
        }
        salts.add(salted.request().promptSalt());
        assertEquals(4, salts.size(), "every step its own salt, none the base's: " + salts);
        assertNull(d.stepConfig(base(), 2, 2, false).request().promptSalt(), "--prompt-salt off: the same prompts");
    }

    @Test
    void aConcurrencyAboveTheRequestsIsSaidToBeBoundedByThem() {
        // issue 27.6: a search capped by --requests 10 answered "concurrency 64" at an achieved 8.86
        RunConfig ten = base().withLoad(new LoadShape(10, 20, 0, ArrivalMode.CLOSED, null, null, null, null));
        assertEquals("concurrency 16, 32 exceed --requests 10: those steps cannot have more than 10 requests in flight"
                + " (raise --requests)", SweepDriver.requestsBound(grid(LoadAxis.CONCURRENCY, 1.0, 8.0, 16.0, 32.0), ten));
        assertNull(SweepDriver.requestsBound(grid(LoadAxis.CONCURRENCY, 1.0, 8.0), ten));
        assertNull(SweepDriver.requestsBound(grid(LoadAxis.RATE, 16.0, 32.0), ten), "a rate is not bounded so");
    }

    @Test
    void aRateStepIsAPoissonOpenLoopUnlessConstantWasGiven() {
        SweepSettings search = new SweepSettings("s", LoadAxis.RATE, null,
                new SloSearch.Settings(LoadAxis.RATE, 1, 1000, 12), new SweepOutput(Path.of("out")),
                SloParser.parseAll(SLOS));
        RunConfig c = driver(search).stepConfig(base(), 7, 2.5, true);
        assertEquals(new LoadShape(32, 20, 0, ArrivalMode.POISSON, 2.5, 50, null, null), c.load());
        assertEquals(SweepStep.newBuilder().setSweepId("s").setStep(7).setAxis("rate").setValue(2.5)
                .setMode("search").setRepeat(true).setStepsPlanned(null).build(), c.report().sweep());
        RunConfig constant = base().withLoad(new LoadShape(32, 20, 0, ArrivalMode.CONSTANT, 1.0, null, null, null));
        assertEquals(ArrivalMode.CONSTANT, LoadAxis.RATE.apply(constant, 4).load().arrival());
        assertEquals(4.0, LoadAxis.RATE.apply(constant, 4).load().rateRps());
    }

    private static BenchmarkReport report(SloReport slo) {
        return BenchmarkReport.newBuilder().setRunId("sweep-1-s3").setBaseUrl("http://127.0.0.1:8000/v1")
                .setModel("m").setRequests(32).setCompleted(31).setFailed(1).setFailures(List.of()).setConcurrency(4)
                .setMaxTokens(32).setRequestTimings(List.of()).setWallClockMs(10_000.0)
                .setMetrics(Metrics.newBuilder().setTtftP95Ms(212.44).build())
                .setProvenance(Provenance.newBuilder().setKind(ReportKind.LIVE).build()).setArtifactJson("")
                .setSlo(slo).build();
    }

    private static SloAttainment attained(String slo, String metric, double threshold, Double observed, boolean met) {
        return SloAttainment.newBuilder().setSlo(slo).setMetric(metric).setThreshold(threshold).setObserved(observed)
                .setMet(met).build();
    }

    private static SloReport sloReport(boolean metAll, SloAttainment... slos) {
        return SloReport.newBuilder().setSlos(List.of(slos)).setRequests(32).setGoodRequests(30).setGoodput(30 / 32.0)
                .setMetAll(metAll).build();
    }

    @Test
    void theProgressLineShowsTtftP95RequestRateAndTheSlos() {
        SweepSettings g = grid(LoadAxis.CONCURRENCY, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0);
        BenchmarkReport met = report(sloReport(true, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 212.44, true),
                attained("error_rate<=0.01", "error_rate", 0.01, 0.0, true)));
        assertEquals("capstream sweep: step 3/6 concurrency 4: TTFT p95 212.4 ms, 3.10 req/s, SLOs met",
                SweepDriver.progressLine(g, 3, 4, false, met));
        BenchmarkReport missed = report(sloReport(false, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 912.3, false),
                attained("error_rate<=0.01", "error_rate", 0.01, 0.03125, false)));
        assertEquals("capstream sweep: step 3/6 concurrency 4: TTFT p95 212.4 ms, 3.10 req/s, SLOs MISSED:"
                        + " ttft_p95_ms<=300 (observed 912) error_rate<=0.01 (observed 0.03)",
                SweepDriver.progressLine(g, 3, 4, false, missed));
        SweepSettings search = new SweepSettings("s", LoadAxis.RATE, null,
                new SloSearch.Settings(LoadAxis.RATE, 1, 1000, 12), new SweepOutput(Path.of("out")), List.of());
        assertEquals("capstream sweep: step 7 rate 2.5 req/s (repeat): no report",
                SweepDriver.progressLine(search, 7, 2.5, true, null));
        assertEquals("capstream sweep: step 7 rate 2.5 req/s: TTFT p95 212.4 ms, 3.10 req/s",
                SweepDriver.progressLine(search, 7, 2.5, false, report(null)));
    }

    /**
     * Fresh-user pass 2: the documented search on the built-in sim (8 slots) stopped at concurrency 1 on a busy
     * machine because step 2 missed TTFT p95 by 406 ms against 300 (the server's own TTFT p95 was 114 ms), and the
     * sweep said nothing of the client's warning that its report held. Before the fix the line ended at the verdict.
     */
    @Test
    void theProgressLineCarriesTheClientsDistortionWarning() {
        SweepSettings search = new SweepSettings("s", LoadAxis.CONCURRENCY, null,
                new SloSearch.Settings(LoadAxis.CONCURRENCY, 1, 1000, 12), new SweepOutput(Path.of("out")), List.of());
        BenchmarkReport missed = report(sloReport(false, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 406.4, false)));
        missed.setArtifactJson("{\"capstream\": {\"client\": {\"distorted\": true, \"warnings\": [\"event-loop delay"
                + " p99 111.0 ms > 5 ms: chunks may have been timestamped up to that late\", \"this machine's CPUs were"
                + " 100% busy (by anything) and capstream used 8% of them: a target on this machine may have run"
                + " slower\"]}}}");
        assertThat(SweepDriver.progressLine(search, 2, 2, false, missed)).as("the step's line").isEqualTo(
                "capstream sweep: step 2 concurrency 2: TTFT p95 212.4 ms, 3.10 req/s, SLOs MISSED: ttft_p95_ms<=300"
                        + " (observed 406); warning: the client may have distorted these numbers: event-loop delay p99"
                        + " 111.0 ms > 5 ms: chunks may have been timestamped up to that late; this machine's CPUs were"
                        + " 100% busy (by anything) and capstream used 8% of them: a target on this machine may have"
                        + " run slower");
        BenchmarkReport clean = report(sloReport(true, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 212.44, true)));
        clean.setArtifactJson("{\"capstream\": {\"client\": {\"distorted\": false, \"warnings\": []}}}");
        assertThat(SweepDriver.progressLine(search, 2, 2, false, clean)).as("a step whose client kept up")
                .isEqualTo("capstream sweep: step 2 concurrency 2: TTFT p95 212.4 ms, 3.10 req/s, SLOs met");
    }

    @Test
    void theSearchReadsMetAllAndEachSlosObservedValueByItsText() {
        SloReport slo = sloReport(false, attained("error_rate<=0.01", "error_rate", 0.01, null, false),
                attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 412.0, false));
        SloSearch.Observation o = SweepDriver.observation(report(slo), SloParser.parseAll(SLOS));
        assertEquals(new SloSearch.Observation(false, Arrays.asList(412.0, null)), o);
        assertNull(o.observed().get(1));
    }

    @Test
    void aStepBehindItsScheduleOrInterruptedMissesTheSlosEvenWhenItsLatenciesMeetThem() {
        SloReport met = sloReport(true, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 212.44, true));
        BenchmarkReport behind = report(met);
        behind.setLoad(LoadHealth.newBuilder().setArrival("poisson").setOfferedRateRps(64.0).setScheduledRateRps(60.2)
                .setAchievedRateRps(3.5).setBehindSchedule(true).setQueueMaxMs(8123.0).setOfferedConcurrency(2)
                .setAchievedConcurrency(1.96).build());
        assertFalse(SweepDriver.observation(behind, SloParser.parseAll(List.of("ttft_p95_ms<=300"))).met(),
                "the rate was never applied: the search must not take it");
        SweepSettings search = new SweepSettings("s", LoadAxis.RATE, null,
                new SloSearch.Settings(LoadAxis.RATE, 1, 1000, 12), new SweepOutput(Path.of("out")), List.of());
        // issue 26.2: a step held by the client's own cap counted as the endpoint missing its SLOs
        assertEquals("capstream sweep: step 7 rate 64 req/s: TTFT p95 212.4 ms, 3.10 req/s, HELD BY THE CLIENT'S"
                        + " IN-FLIGHT CAP (--max-in-flight 2: achieved 3.50 of the 64.0 req/s asked): not the endpoint's"
                        + " limit, no SLO verdict; raise --max-in-flight to measure this load",
                SweepDriver.progressLine(search, 7, 64, false, behind));
        BenchmarkReport endpointBehind = report(met);
        endpointBehind.setLoad(LoadHealth.newBuilder(behind.getLoad()).setOfferedConcurrency(1000)
                .setAchievedConcurrency(40.0).build());
        assertEquals("capstream sweep: step 7 rate 64 req/s: TTFT p95 212.4 ms, 3.10 req/s, BEHIND its schedule"
                        + " (achieved 3.50 req/s, scheduled 60.2, asked 64.0; client queue up to 8123 ms): counts as"
                        + " missing the SLOs", SweepDriver.progressLine(search, 7, 64, false, endpointBehind));
        assertFalse(SweepDriver.observation(endpointBehind, SloParser.parseAll(List.of("ttft_p95_ms<=300"))).met());
        BenchmarkReport stopped = report(met);
        stopped.setLoad(LoadHealth.newBuilder().setArrival("closed").setInterrupted(true).build());
        assertFalse(SweepDriver.observation(stopped, SloParser.parseAll(List.of("ttft_p95_ms<=300"))).met());
        assertTrue(SweepDriver.observation(report(met), SloParser.parseAll(List.of("ttft_p95_ms<=300"))).met());
    }

    /** Issue 30: --rate auto's curve steps are mode auto with N planned, and none warms up (the synchronous probe did). */
    @Test
    void anAutoRateStepIsModeAutoWithoutWarmUp() {
        SweepDriver d = driver(new SweepSettings("sweep-1", LoadAxis.RATE, null, null, new SweepOutput(Path.of("out")),
                SloParser.parseAll(SLOS), 3));
        RunConfig first = d.stepConfig(base(), 1, 10.62, false);
        assertThat(first.warmup()).as("the synchronous probe had the warm-up").isEqualTo(WarmupConfig.NONE);
        assertThat(first.load().rateRps()).isEqualTo(10.62);
        assertThat(first.load().arrival()).isEqualTo(ArrivalMode.POISSON);
        assertThat(first.report().sweep()).isEqualTo(SweepStep.newBuilder().setSweepId("sweep-1").setStep(1)
                .setAxis("rate").setValue(10.62).setMode("auto").setRepeat(false).setStepsPlanned(3).build());
    }

    @Test
    void aStepAStopRuleEndedMissesTheSlosAndItsProgressLineSaysStopped() {
        SloReport met = sloReport(true, attained("ttft_p95_ms<=300", "ttft_p95_ms", 300, 212.44, true));
        BenchmarkReport stopped = report(met);
        stopped.setStopped(io.capstream.schemas.avro.StopReport.newBuilder().setRule("max_error_rate").setAtMs(2310.0)
                .setDetail("26 of the last 50 requests failed (52%), over the 50% limit").setRequestsEnded(52)
                .setRequestsNotSent(1948).setWorkersStopped(1).build());
        org.assertj.core.api.Assertions.assertThat(SweepDriver.observation(stopped,
                        SloParser.parseAll(List.of("ttft_p95_ms<=300"))).met())
                .as("latencies met, but the step tripped a stop rule: the search must not take it").isFalse();
        SweepSettings g = grid(LoadAxis.CONCURRENCY, 1.0, 2.0, 4.0);
        org.assertj.core.api.Assertions.assertThat(SweepDriver.progressLine(g, 3, 4, false, stopped)).isEqualTo(
                "capstream sweep: step 3/3 concurrency 4: TTFT p95 212.4 ms, 3.10 req/s, STOPPED by max_error_rate at"
                        + " 2.31 s (26 of the last 50 requests failed (52%), over the 50% limit): counts as missing the"
                        + " SLOs");
    }
}
