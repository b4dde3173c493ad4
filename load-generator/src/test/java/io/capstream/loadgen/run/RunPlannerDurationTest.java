package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import org.junit.jupiter.api.Test;

/**
 * How {@code --duration} and {@code --requests} combine (the documented behaviour, see
 * {@link RunPlanner}): an open loop plans exactly the arrivals before the duration, whatever
 * {@code --requests} says; a closed loop keeps {@code --requests} as the upper bound.
 */
class RunPlannerDurationTest {
    private static RunConfig base() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"));
    }

    @Test
    void openLoopDurationPlansEveryArrivalBeforeItBeyondRequests() {
        RunConfig c = base()
                .withLoad(l -> l.withArrival(ArrivalMode.POISSON).withRateRps(20.0).withDurationS(5.0));
        assertEquals(RunConfig.DEFAULT_REQUESTS, c.load().requests());
        int n = RunPlanner.plannedRequests(c);
        assertEquals(ArrivalSchedule.countWithin(ArrivalMode.POISSON, 20.0, 0, 5_000_000_000L, RunConfig.MAX_REQUESTS), n);
        assertTrue(n > RunConfig.DEFAULT_REQUESTS, "about 100 arrivals in 5 s at 20/s: " + n);
        RunConfig constant = base()
                .withLoad(l -> l.withArrival(ArrivalMode.CONSTANT).withRateRps(20.0).withDurationS(5.0).withRequests(10));
        assertEquals(100, RunPlanner.plannedRequests(constant));
    }

    @Test
    void closedLoopDurationKeepsRequestsAsTheUpperBound() {
        RunConfig c = base().withLoad(l -> l.withDurationS(5.0));
        assertEquals(RunConfig.DEFAULT_REQUESTS, RunPlanner.plannedRequests(c));
        assertEquals(7, RunPlanner.plannedRequests(base().withLoad(l -> l.withDurationS(5.0).withRequests(7))));
    }

    @Test
    void aRateScheduleEndingAtZeroPlansTheArrivalsItOffersWithinRequests() {
        // 10 s at 10 req/s then down to 0 at 30 s: it offers arrivals u = 0..200
        RunConfig c = base().withLoad(l -> l.withArrival(ArrivalMode.POISSON).withRequests(100_000)
                .withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:10,10s:10,30s:0")));
        int n = RunPlanner.plannedRequests(c);
        assertEquals(ArrivalSchedule.countWithin(c.load().arrivalProcess(), 0, Long.MAX_VALUE, 100_000), n);
        assertTrue(n > 150 && n < 250, "about 200 arrivals offered by the schedule: " + n);
        assertEquals(60, RunPlanner.plannedRequests(c.withLoad(l -> l.withRequests(60))), "--requests bounds it");
        assertEquals(100, RunPlanner.plannedRequests(c.withLoad(l -> l.withArrival(ArrivalMode.CONSTANT)
                .withDurationS(10.0))), "--duration bounds it: the arrivals strictly before 10 s");
        // a schedule that never ends at 0 is bounded by --requests as a constant rate is
        assertEquals(60, RunPlanner.plannedRequests(base().withLoad(l -> l.withArrival(ArrivalMode.GAMMA)
                .withBurstiness(0.5).withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:1,5s:50")))));
    }

    @Test
    void conversationsOnAScheduleEndingAtZeroAreBoundedByRequestsInTurns() {
        RunConfig c = base().withLoad(l -> l.withArrival(ArrivalMode.POISSON).withRequests(50)
                        .withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:10,10s:10,30s:0")))
                .withConversation(v -> v.withTurns(new io.capstream.loadgen.workload.LengthDistribution(4, 0)));
        assertEquals(50, RunPlanner.plannedRequests(c), "--requests 50 counts turns (about 200 conversations offered)");
        assertEquals(40, RunPlanner.plannedRequests(c.withLoad(l -> l.withRequests(1000).withArrival(ArrivalMode.CONSTANT)
                .withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:1,9.5s:1,10s:0")))),
                "10 conversations of 4 turns offered (u = 0..9), fewer turns than --requests");
    }
}
