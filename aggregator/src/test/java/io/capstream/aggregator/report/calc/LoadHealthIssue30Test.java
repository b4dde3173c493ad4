package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.LoadStage;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.SteadyState;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Issue 30's load views: inter-arrival CV, per-stage offered vs achieved rate, steady state. */
class LoadHealthIssue30Test {
    private static final long MS = 1_000_000L;

    private static RunStarted open(String arrival, Double burstiness, String schedule) {
        return started(11, 4096).setArrival(arrival).setRateRps(10.0).setBurstiness(burstiness)
                .setRateSchedule(schedule).build();
    }

    private static RunStarted closed(int slots, String steadyState) {
        return started(11, 4096).setArrival("closed").setConcurrency(slots).setSteadyState(steadyState).build();
    }

    /** A completed request started at startMs, TTFT ttftMs, E2E e2eMs, 10 output tokens. */
    private static RequestCompleted at(int index, double startMs, long ttftMs, long e2eMs) {
        long start = Math.round(startMs * MS);
        return ok(index, ttftMs, e2eMs, 100, 10).setScheduledStartNs(start).setStartNs(start).setClientQueueNs(0)
                .build();
    }

    @Test
    void constantStartsHaveCvZeroAndPoissonStartsAboutOne() {
        List<RequestCompleted> constant = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            constant.add(at(k, 100.0 * k, 10, 50));
        }
        LoadHealth c = LoadHealthCalculator.compute(open("constant", null, null), constant, List.of(),
                finished(5_000 * MS));
        assertThat(c.getInterarrivalCv()).as("evenly spaced starts").isEqualTo(0.0);
        assertThat(c.getConfiguredInterarrivalCv()).as("constant arrivals").isEqualTo(0.0);

        SplittableRandom rnd = new SplittableRandom(7);
        List<RequestCompleted> poisson = new ArrayList<>();
        double t = 0;
        for (int k = 0; k < 4000; k++) {
            t += -Math.log(1 - rnd.nextDouble()) * 100;
            poisson.add(at(k, t, 10, 50));
        }
        LoadHealth p = LoadHealthCalculator.compute(open("poisson", null, null), poisson, List.of(),
                finished((long) (t * MS)));
        assertThat(p.getInterarrivalCv()).as("exponential gaps").isCloseTo(1.0, within(0.06));
        assertThat(p.getConfiguredInterarrivalCv()).as("poisson").isEqualTo(1.0);
    }

    @Test
    void cvByHandAndGammaConfiguredCv() {
        // gaps 100, 300 ms: mean 200, population stddev 100, CV 0.5 (failed requests count as well)
        List<RequestCompleted> ok = List.of(at(0, 0, 10, 50), at(1, 100, 10, 50));
        List<RequestFailed> failed = List.of(failed(2, "x").setStartNs(400 * MS).setScheduledStartNs(400 * MS)
                .setClientQueueNs(0).setElapsedNs(5 * MS).build());
        LoadHealth h = LoadHealthCalculator.compute(open("gamma", 0.25, null), ok, failed, finished(1_000 * MS));
        assertThat(h.getInterarrivalCv()).as("gaps 100 and 300 ms").isCloseTo(0.5, within(1e-12));
        assertThat(h.getConfiguredInterarrivalCv()).as("gamma, burstiness 0.25: 1/sqrt(0.25)").isEqualTo(2.0);
        LoadHealth two = LoadHealthCalculator.compute(open("poisson", null, null), ok, List.of(), finished(MS));
        assertThat(two.getInterarrivalCv()).as("fewer than 3 requests").isNull();
        LoadHealth closed = LoadHealthCalculator.compute(closed(1, null), ok, failed, finished(1_000 * MS));
        assertThat(closed.getConfiguredInterarrivalCv()).as("closed loops have no configured CV").isNull();
    }

    @Test
    void stagesCompareTheSchedulesRateWithTheStartsInEachSegment() {
        // 0-10 s at 2 req/s (20 starts), then a ramp to 6 req/s at 20 s of which only 30 starts arrived (offered
        // (2+6)/2 = 4 req/s, 40), then 6 req/s from 20 s to the last start at 25 s (31 starts).
        List<RequestCompleted> rs = new ArrayList<>();
        int i = 0;
        for (int k = 0; k < 20; k++) {
            rs.add(at(i++, 500.0 * k, 10, 50));
        }
        for (int k = 0; k < 30; k++) {
            rs.add(at(i++, 10_000 + 10_000.0 / 30 * k, 10, 50));
        }
        for (int k = 0; k <= 30; k++) {
            rs.add(at(i++, 20_000 + 5_000.0 / 30 * k, 10, 50));
        }
        LoadHealth h = LoadHealthCalculator.compute(open("poisson", null, "0s:2,10s:2,20s:6"), rs, List.of(),
                finished(25_100 * MS));
        List<LoadStage> st = h.getStages();
        assertThat(st).as("three segments: 0-10, 10-20, 20-end").hasSize(3);
        assertThat(st.get(0).getOfferedRateRps()).as("0-10 s offered").isCloseTo(2.0, within(1e-9));
        assertThat(st.get(0).getAchievedRateRps()).as("0-10 s achieved").isCloseTo(2.0, within(1e-9));
        assertThat(st.get(1).getOfferedRateRps()).as("10-20 s offered (linear ramp)").isCloseTo(4.0, within(1e-9));
        assertThat(st.get(1).getRequests()).as("10-20 s starts").isEqualTo(30);
        assertThat(st.get(1).getAchievedRateRps()).as("10-20 s achieved").isCloseTo(3.0, within(1e-9));
        assertThat(st.get(2).getStartS()).isEqualTo(20.0);
        assertThat(st.get(2).getEndS()).as("the last segment ends at the last start").isCloseTo(25.0, within(1e-9));
        assertThat(st.get(2).getOfferedRateRps()).isCloseTo(6.0, within(1e-9));
        assertThat(st.get(2).getRequests()).as("20-25 s starts, the last included").isEqualTo(31);
        assertThat(LoadHealthCalculator.compute(open("poisson", null, null), rs, List.of(), finished(MS)).getStages())
                .as("no schedule, no stages").isNull();
    }

    /**
     * A closed loop of 4 slots, requests of 1 s, 10 per slot, whose last request on slot 0 takes 20 s: the drain
     * (10 s to 29 s, one slot busy) pulls the whole run's throughput down to 40 / 29 s, while the endpoint served
     * 4 req/s while the slots were full.
     */
    @Test
    void aClosedLoopsDrainIsTrimmedSoSteadyStateThroughputIsHigher() {
        List<RequestCompleted> rs = new ArrayList<>();
        int i = 0;
        for (int slot = 0; slot < 4; slot++) {
            for (int k = 0; k < 10; k++) {
                long e2e = slot == 0 && k == 9 ? 20_000 : 1_000;
                rs.add(at(i++, 1_000.0 * k + slot, 100 + slot, e2e));
            }
        }
        long wall = 29_000 * MS;
        LoadHealth h = LoadHealthCalculator.compute(closed(4, null), rs, List.of(), finished(wall));
        SteadyState s = h.getSteadyState();
        double wholeRun = rs.size() / (wall / 1e9);
        assertThat(s).as("closed loop: steady state").isNotNull();
        assertThat(s.getRule()).isEqualTo(SteadyStateCalculator.RULE_AUTO);
        assertThat(s.getStartS()).as("every slot busy at the 4th start, 3 ms").isCloseTo(0.003, within(1e-9));
        assertThat(s.getEndS()).as("the last start, 9.003 s").isCloseTo(9.003, within(1e-9));
        assertThat(s.getRequests()).as("ends in [0.003, 9.003] s: 1.000+s .. 9.000+s on each slot s").isEqualTo(36);
        assertThat(s.getRequestThroughputRps()).as("steady state vs whole run %.3f req/s", wholeRun)
                .isGreaterThan(wholeRun * 2).isCloseTo(36 / 9.0, within(1e-9));
        assertThat(s.getOutputThroughputTokS()).isCloseTo(360 / 9.0, within(1e-9));
        assertThat(s.getAchievedConcurrency()).as("4 slots busy the whole window").isCloseTo(4.0, within(1e-9));
        assertThat(s.getTtftP50Ms()).as("37 TTFTs: 9 x 100, 9 x 101, 9 x 102, 10 x 103 ms; rank 19").isEqualTo(102.0);
        assertThat(s.getTtftP95Ms()).isEqualTo(103.0);
        assertThat(h.getAchievedConcurrency()).as("whole run, for contrast").isCloseTo(59.0 / 29, within(1e-9));
    }

    @Test
    void aGivenWindowAppliesToOpenLoopsAndNoSteadyStateWithoutOne() {
        List<RequestCompleted> rs = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            rs.add(at(k, 500.0 * k, 10 + k, 400));
        }
        SteadyState s = LoadHealthCalculator.compute(started(20, 4096).setArrival("poisson").setRateRps(2.0)
                .setSteadyState("2:6").build(), rs, List.of(), finished(10_000 * MS)).getSteadyState();
        assertThat(s.getRule()).isEqualTo(SteadyStateCalculator.RULE_GIVEN);
        assertThat(s.getRequests()).as("ends 2.4, 2.9 ... 5.9 s").isEqualTo(8);
        assertThat(s.getRequestThroughputRps()).isEqualTo(2.0);
        assertThat(s.getAchievedConcurrency()).as("0.4 s of every 0.5 s busy").isCloseTo(0.8, within(1e-9));
        assertThat(LoadHealthCalculator.compute(open("poisson", null, null), rs, List.of(), finished(MS))
                .getSteadyState()).as("open loop, no --steady-state").isNull();
        List<RequestCompleted> allAtOnce = List.of(at(0, 0, 10, 100), at(1, 0, 10, 200), at(2, 0, 10, 300));
        assertThat(LoadHealthCalculator.compute(closed(3, null), allAtOnce, List.of(), finished(MS))
                .getSteadyState()).as("every request started at once: no steady phase").isNull();
    }
}
