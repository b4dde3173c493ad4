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
    private static RunConfig.Builder base() {
        return RunConfig.builder("http://127.0.0.1:1/v1", "m");
    }

    @Test
    void openLoopDurationPlansEveryArrivalBeforeItBeyondRequests() {
        RunConfig c = base().arrival(ArrivalMode.POISSON).rateRps(20.0).durationS(5.0).build();
        assertEquals(RunConfig.DEFAULT_REQUESTS, c.requests());
        int n = RunPlanner.plannedRequests(c);
        assertEquals(ArrivalSchedule.countWithin(ArrivalMode.POISSON, 20.0, 0, 5_000_000_000L, RunConfig.MAX_REQUESTS), n);
        assertTrue(n > RunConfig.DEFAULT_REQUESTS, "about 100 arrivals in 5 s at 20/s: " + n);
        RunConfig constant = base().arrival(ArrivalMode.CONSTANT).rateRps(20.0).durationS(5.0).requests(10).build();
        assertEquals(100, RunPlanner.plannedRequests(constant));
    }

    @Test
    void closedLoopDurationKeepsRequestsAsTheUpperBound() {
        RunConfig c = base().durationS(5.0).build();
        assertEquals(RunConfig.DEFAULT_REQUESTS, RunPlanner.plannedRequests(c));
        assertEquals(7, RunPlanner.plannedRequests(base().durationS(5.0).requests(7).build()));
    }
}
