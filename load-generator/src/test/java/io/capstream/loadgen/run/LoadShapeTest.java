package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.arrival.ArrivalMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load-shape group: defaults, burst, the in-flight cap and every problem listed. */
class LoadShapeTest {
    private static RunConfig.Builder b() {
        return RunConfig.builder("http://127.0.0.1:8000/v1", "m");
    }

    @Test
    void theBuilderFillsTheLoadShapeWithTheReferenceDefaults() {
        LoadShape l = b().build().load();
        assertEquals(new LoadShape(60, 20, 0, ArrivalMode.CLOSED, null, null, null, null), l);
        assertEquals(List.of(), l.problems());
        // issue 26.2: the open-loop cap defaulted to --concurrency (20) and held a 32 req/s sweep step to 15.6 req/s
        assertEquals(LoadShape.DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT, l.effectiveMaxInFlight());
        assertEquals(5000, b().concurrency(5000).build().load().effectiveMaxInFlight(), "a larger --concurrency");
    }

    @Test
    void burstReplacesRequestsAndConcurrency() {
        LoadShape l = b().burst(7).requests(100).concurrency(3).build().load();
        assertEquals(7, l.effectiveRequests());
        assertEquals(7, l.effectiveConcurrency());
        assertEquals(LoadShape.DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT, l.effectiveMaxInFlight());
        assertEquals(5, b().maxInFlight(5).build().load().effectiveMaxInFlight());
    }

    @Test
    void everyProblemOfTheGroupIsListed() {
        LoadShape l = b().requests(0).concurrency(100_001).burst(-1).arrival(ArrivalMode.POISSON).maxInFlight(0)
                .durationS(-1.0).rampUpS(2.0).build().load();
        assertEquals(List.of("--requests must be between 1 and 100000, got 0",
                "--concurrency must be between 1 and 100000, got 100001",
                "--burst must be between 0 and 100000, got -1",
                "--arrival poisson needs --rate > 0 (requests per second)",
                "--max-in-flight must be between 1 and 100000, got 0",
                "--duration must be a positive number of seconds, got -1.0",
                "--ramp-up applies to the closed loop (--arrival closed), not to --arrival poisson"), l.problems());
        assertEquals(List.of("--rate needs --arrival constant or poisson", "--ramp-up must be a duration >= 0, got -1.0 s"),
                b().rateRps(5.0).rampUpS(-1.0).build().load().problems());
    }

    @Test
    void withDurationChangesOnlyTheTimeBound() {
        LoadShape l = b().arrival(ArrivalMode.CONSTANT).rateRps(2.0).build().load();
        assertEquals(new LoadShape(60, 20, 0, ArrivalMode.CONSTANT, 2.0, null, 30.0, null), l.withDurationS(30.0));
    }

    @Test
    void anInfiniteOrNanRateIsNamedAsSuch() {
        // fresh-user finding: --rate Infinity said "needs --rate > 0"
        assertEquals(List.of("--rate must be a finite number of requests per second, got Infinity"),
                b().arrival(ArrivalMode.CONSTANT).rateRps(Double.POSITIVE_INFINITY).build().load().problems());
        assertEquals(List.of("--rate must be a finite number of requests per second, got NaN"),
                b().arrival(ArrivalMode.POISSON).rateRps(Double.NaN).build().load().problems());
    }
}
