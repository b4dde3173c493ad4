package io.capstream.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloParser;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The SLO search against fake steps: growth, interpolated narrowing, confirmation, and its bounds. */
class SloSearchTest {
    private static final List<Slo> TTFT_300 = List.of(SloParser.parse("ttft_p95_ms<=300"));

    /**
     * The sim scenario (8 batch slots, 32 requests per step): TTFT p95 100-200 ms at up to 8
     * slots, well above 300 ms from 9 on (a request queues for a slot).
     */
    private static double simP95(double c) {
        return c <= 8 ? 100 + 12.5 * c : 400 + 60 * (c - 8);
    }

    /** A fake step runner: the observed value of the one SLO from {@code p95(load, repeat)}; met when <= 300. */
    private static final class Fake implements SloSearch.Trial {
        final List<String> steps = new ArrayList<>();
        final BiFunction<Double, Boolean, Double> p95;

        Fake(BiFunction<Double, Boolean, Double> p95) {
            this.p95 = p95;
        }

        @Override
        public Optional<SloSearch.Observation> run(int step, double load, boolean repeat) {
            assertEquals(steps.size() + 1, step);
            steps.add(LoadAxis.RATE.format(load) + (repeat ? "r" : ""));
            Double v = p95.apply(load, repeat);
            return Optional.of(new SloSearch.Observation(v == null ? load <= 8 : v <= 300, Arrays.asList(v)));
        }
    }

    private static SloSearch search(LoadAxis axis, double max, int maxSteps) {
        return new SloSearch(new SloSearch.Settings(axis, 1, max, maxSteps), TTFT_300);
    }

    @Test
    void theSimScenarioFindsEightInSevenStepsWithTheConfirmation() throws Exception {
        Fake fake = new Fake((c, r) -> simP95(c));
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(fake);
        // 16 misses at 880 ms (margin 2.93), 8 passes at 200 ms (0.67): the crossing is at 9.18 -> 9, which misses
        assertEquals(List.of("1", "2", "4", "8", "16", "9", "8r"), fake.steps);
        assertEquals(8.0, o.best());
        assertTrue(o.confirmed());
        assertFalse(o.aborted());
        assertEquals(7, o.probes().size());
        assertTrue(o.probes().get(6).repeat());
    }

    /**
     * What the sim really shows (SweepIT): TTFT p95 about 60 ms up to 8 slots and a cliff to about 620 ms
     * beyond, while the share of requests meeting 300 ms falls gradually (8 of 9 slots' requests, ...).
     */
    @Test
    void onTheSimsCliffTheAttainmentFindsEightInSevenSteps() throws Exception {
        List<String> steps = new ArrayList<>();
        SloSearch.Trial sim = (step, c, repeat) -> {
            steps.add(LoadAxis.CONCURRENCY.format(c) + (repeat ? "r" : ""));
            double p95 = c <= 8 ? 60 : 620;
            double attainment = c <= 8 ? 1.0 : c == 9 ? 0.906 : c == 11 ? 0.719 : 0.25;
            return Optional.of(new SloSearch.Observation(p95 <= 300, List.of(p95), List.of(attainment)));
        };
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(sim);
        // margins 0.95 / 1.0 = 0.95 at 8 and 0.95 / 0.25 = 3.8 at 16: the crossing at 8.14 is clamped to 9
        assertEquals(List.of("1", "2", "4", "8", "16", "9", "8r"), steps);
        assertEquals(8.0, o.best());
        assertTrue(o.confirmed());
        // with the observed p95 alone (0.2 at 8, 2.07 at 16) the crossing is at 11.4, then 9.3: one step more
        steps.clear();
        SloSearch.Trial observedOnly = (step, c, repeat) -> {
            steps.add(LoadAxis.CONCURRENCY.format(c) + (repeat ? "r" : ""));
            double p95 = c <= 8 ? 60 : 620;
            return Optional.of(new SloSearch.Observation(p95 <= 300, List.of(p95)));
        };
        assertEquals(8.0, search(LoadAxis.CONCURRENCY, 1024, 12).run(observedOnly).best());
        assertEquals(List.of("1", "2", "4", "8", "16", "11", "9", "8r"), steps);
    }

    @Test
    void attainmentMarginsAreTheRequiredShareOverTheShareMeetingTheThreshold() {
        assertEquals(0.95 / 0.5, SloSearch.attainmentMargin(SloParser.parse("ttft_p95_ms<=300"), 0.5));
        assertEquals(0.5 / 0.25, SloSearch.attainmentMargin(SloParser.parse("decode_p50_tok_s>=20"), 0.25));
        assertEquals(0.99, SloSearch.attainmentMargin(SloParser.parse("e2e_p99_ms<2000"), 1.0), 1e-12);
        assertEquals(SloSearch.MAX_ATTAINMENT_MARGIN, SloSearch.attainmentMargin(SloParser.parse("ttft_p95_ms<=300"), 0.0));
        assertNull(SloSearch.attainmentMargin(SloParser.parse("error_rate<=0.01"), 0.5), "run-level SLOs have none");
        assertNull(SloSearch.attainmentMargin(SloParser.parse("ttft_p95_ms<=300"), null));
        SloSearch two = new SloSearch(new SloSearch.Settings(LoadAxis.CONCURRENCY, 1, 8, 12),
                List.of(SloParser.parse("ttft_p95_ms<=300"), SloParser.parse("error_rate<=0.01")));
        // the percentile SLO by its attainment (0.95 / 0.5), the error rate by its value (0.02 / 0.01)
        assertEquals(2.0, two.worstMargin(new SloSearch.Observation(false, List.of(900.0, 0.02),
                Arrays.asList(0.5, null))));
    }

    @Test
    void aFailedRepeatMovesTheBracketDownAndTheSearchGoesOn() throws Exception {
        // 8 passes once, then misses its repeat at 320 ms: bracket [4, 8], crossing at 7.53 -> clamped to 7
        Fake fake = new Fake((c, r) -> c == 8 && r ? 320.0 : simP95(c));
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(fake);
        assertEquals(List.of("1", "2", "4", "8", "16", "9", "8r", "7", "7r"), fake.steps);
        assertEquals(7.0, o.best());
        assertTrue(o.confirmed());
    }

    @Test
    void aFirstStepThatMissesMeansNoLoadMeetsTheSlos() throws Exception {
        Fake fake = new Fake((c, r) -> 500.0);
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(fake);
        assertEquals(List.of("1"), fake.steps);
        assertNull(o.best());
        assertFalse(o.aborted());
    }

    @Test
    void aRepeatOfTheOnlyPassingLoadThatMissesLeavesNoLoad() throws Exception {
        Fake fake = new Fake((c, r) -> c == 1 && !r ? 200.0 : 500.0);
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(fake);
        assertEquals(List.of("1", "2", "1r"), fake.steps);
        assertNull(o.best());
    }

    @Test
    void withoutObservedValuesTheProbeIsTheMidpoint() throws Exception {
        Fake fake = new Fake((c, r) -> null); // met when <= 8, no observed value
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run(fake);
        assertEquals(List.of("1", "2", "4", "8", "16", "12", "10", "9", "8r"), fake.steps);
        assertEquals(8.0, o.best());
        assertTrue(o.confirmed());
    }

    @Test
    void growthStopsAtSearchMaxAndTheMaxIsConfirmed() throws Exception {
        Fake fake = new Fake((c, r) -> 100.0);
        SloSearch.Outcome o = new SloSearch(new SloSearch.Settings(LoadAxis.CONCURRENCY, 1, 6, 12), TTFT_300).run(fake);
        assertEquals(List.of("1", "2", "4", "6", "6r"), fake.steps);
        assertEquals(6.0, o.best());
        assertTrue(o.confirmed());
    }

    @Test
    void maxStepsEndsTheSearchWithAnUnconfirmedLoad() throws Exception {
        Fake fake = new Fake((c, r) -> simP95(c));
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 5).run(fake);
        assertEquals(List.of("1", "2", "4", "8", "16"), fake.steps);
        assertEquals(8.0, o.best());
        assertFalse(o.confirmed());
    }

    @Test
    void aStepWithoutAResultAbortsTheSearch() throws Exception {
        List<Double> loads = new ArrayList<>();
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run((step, load, repeat) -> {
            loads.add(load);
            return step == 3 ? Optional.empty()
                    : Optional.of(new SloSearch.Observation(true, List.of(100.0)));
        });
        assertEquals(List.of(1.0, 2.0, 4.0), loads);
        assertEquals(2.0, o.best());
        assertTrue(o.aborted());
        assertEquals(2, o.probes().size());
    }

    @Test
    void aRateSearchStopsWithinTenPercent() throws Exception {
        // meets the SLO up to 25 req/s (300 ms), then jumps
        Fake fake = new Fake((rate, r) -> rate <= 25 ? 100 + 8 * rate : 500 + 8 * rate);
        SloSearch.Outcome o = search(LoadAxis.RATE, 1000, 12).run(fake);
        // 18.182 interpolated (passes, but leaves more than half of [16, 32]), then the midpoints 25.091 (misses),
        // 21.636 and 23.364 (pass): 23.364 is within 10% of 25.091, and its repeat confirms it
        assertEquals(List.of("1", "2", "4", "8", "16", "32", "18.182", "25.091", "21.636", "23.364", "23.364r"),
                fake.steps);
        assertEquals(23.364, o.best());
        assertTrue(o.confirmed());
        assertTrue(o.probes().size() <= 12);
    }

    @Test
    void marginsAreObservedOverThresholdForUpperBoundsAndTheInverseForLowerBounds() {
        assertEquals(0.5, SloSearch.margin(SloParser.parse("ttft_p95_ms<=300"), 150.0));
        assertEquals(2.0, SloSearch.margin(SloParser.parse("e2e_p99_ms<1000"), 2000.0));
        assertEquals(2.0, SloSearch.margin(SloParser.parse("decode_p50_tok_s>=20"), 10.0));
        assertEquals(0.5, SloSearch.margin(SloParser.parse("output_throughput_tok_s>100"), 200.0));
        assertNull(SloSearch.margin(SloParser.parse("error_rate<=0"), 0.0), "no margin against a zero threshold");
        assertNull(SloSearch.margin(SloParser.parse("ttft_p95_ms<=300"), null));
        SloSearch two = new SloSearch(new SloSearch.Settings(LoadAxis.CONCURRENCY, 1, 8, 12),
                List.of(SloParser.parse("ttft_p95_ms<=300"), SloParser.parse("decode_p50_tok_s>=20")));
        assertEquals(1.5, two.worstMargin(new SloSearch.Observation(true, List.of(150.0, 40.0 / 3))));
        assertNull(two.worstMargin(new SloSearch.Observation(true, Arrays.asList(150.0, null))));
    }

    @Test
    void probesAreClampedInsideTheBracket() {
        SloSearch c = search(LoadAxis.CONCURRENCY, 1024, 12);
        assertEquals(15.0, c.probe(8, 16, 0.5, 0.6), "the crossing at 48 is clamped to hi - 1");
        assertEquals(9.0, c.probe(8, 16, 0.99, 5.0), "the crossing at 8.02 is clamped to lo + 1");
        assertEquals(12.0, c.probe(8, 16, null, 2.0), "midpoint without a margin");
        assertEquals(12.0, c.probe(8, 16, 0.8, 0.7), "midpoint when the margin does not grow");
        SloSearch r = search(LoadAxis.RATE, 1000, 12);
        assertEquals(15.0, r.probe(10, 20, null, null));
        assertEquals(11.0, r.probe(10, 20, 0.99, 5.0), "at least 10% of the bracket above lo");
        assertEquals(19.0, r.probe(10, 20, 0.1, 0.2), "at most 10% of the bracket below hi");
        assertTrue(c.resolved(8, 9));
        assertFalse(c.resolved(8, 10));
        assertTrue(r.resolved(20, 22));
        assertFalse(r.resolved(20, 22.5));
    }

    @Test
    void aStepThatTrippedAStopRuleIsAMissEvenWhenItsLatenciesMeetTheSlos() throws Exception {
        // issue 30: from concurrency 4 on the fake endpoint fails fast and the step's stop rule ends it: its TTFT p95
        // (of the few requests that completed) meets the SLO, but the step must count as missing it
        List<String> steps = new ArrayList<>();
        SloSearch.Outcome o = search(LoadAxis.CONCURRENCY, 1024, 12).run((step, load, repeat) -> {
            steps.add(LoadAxis.CONCURRENCY.format(load) + (repeat ? "r" : ""));
            io.capstream.schemas.avro.SloReport slo = io.capstream.schemas.avro.SloReport.newBuilder()
                    .setSlos(List.of(io.capstream.schemas.avro.SloAttainment.newBuilder().setSlo("ttft_p95_ms<=300")
                            .setMetric("ttft_p95_ms").setThreshold(300).setObserved(150.0).setMet(true).build()))
                    .setRequests(32).setGoodRequests(32).setGoodput(1.0).setMetAll(true).build();
            io.capstream.schemas.avro.BenchmarkReport r = io.capstream.schemas.avro.BenchmarkReport.newBuilder()
                    .setRunId("s-" + step).setBaseUrl("http://127.0.0.1:8000/v1").setModel("m").setRequests(32)
                    .setCompleted(32).setFailed(0).setFailures(List.of()).setConcurrency((int) load).setMaxTokens(32)
                    .setRequestTimings(List.of()).setMetrics(io.capstream.schemas.avro.Metrics.newBuilder().build())
                    .setProvenance(io.capstream.schemas.avro.Provenance.newBuilder()
                            .setKind(io.capstream.schemas.avro.ReportKind.LIVE).build())
                    .setArtifactJson("").setSlo(slo).build();
            if (load >= 4) {
                r.setStopped(io.capstream.schemas.avro.StopReport.newBuilder().setRule("max_error_rate").setAtMs(900.0)
                        .setDetail("30 of the last 50 requests failed (60%), over the 50% limit").setRequestsEnded(50)
                        .setRequestsNotSent(0).build());
            }
            return Optional.of(SweepDriver.observation(r, TTFT_300));
        });
        org.assertj.core.api.Assertions.assertThat(o.best()).as("steps %s", steps).isLessThan(4.0);
        for (SloSearch.Probe p : o.probes()) {
            org.assertj.core.api.Assertions.assertThat(p.observation().met()).as("step %d at %s", p.step(), p.load())
                    .isEqualTo(p.load() < 4);
        }
    }
}
