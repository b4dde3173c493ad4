package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.arrival.ArrivalMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load-shape group: defaults, burst, the in-flight cap and every problem listed. */
class LoadShapeTest {
    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"));
    }

    @Test
    void theDefaultsAreTheReferencesLoadShape() {
        LoadShape l = LoadShape.DEFAULTS;
        assertEquals(new LoadShape(60, 20, 0, ArrivalMode.CLOSED, null, null, null, null), l);
        assertEquals(List.of(), l.problems());
        // issue 26.2: the open-loop cap defaulted to --concurrency (20) and held a 32 req/s sweep step to 15.6 req/s
        assertEquals(LoadShape.DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT, l.effectiveMaxInFlight());
        assertEquals(5000, LoadShape.DEFAULTS.withConcurrency(5000).effectiveMaxInFlight(), "a larger --concurrency");
    }

    @Test
    void burstReplacesRequestsAndConcurrency() {
        LoadShape l = LoadShape.DEFAULTS.withBurst(7).withRequests(100).withConcurrency(3);
        assertEquals(7, l.effectiveRequests());
        assertEquals(7, l.effectiveConcurrency());
        assertEquals(LoadShape.DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT, l.effectiveMaxInFlight());
        assertEquals(5, LoadShape.DEFAULTS.withMaxInFlight(5).effectiveMaxInFlight());
    }

    @Test
    void everyProblemOfTheGroupIsListed() {
        LoadShape l = LoadShape.DEFAULTS.withRequests(0).withConcurrency(100_001).withBurst(-1).withArrival(ArrivalMode.POISSON).withMaxInFlight(0).withDurationS(-1.0).withRampUpS(2.0);
        assertEquals(List.of("--requests must be between 1 and 100000, got 0",
                "--concurrency must be between 1 and 100000, got 100001",
                "--burst must be between 0 and 100000, got -1",
                "--arrival poisson needs --rate > 0 (requests per second)",
                "--max-in-flight must be between 1 and 100000, got 0",
                "--duration must be a positive number of seconds, got -1.0",
                "--ramp-up applies to the closed loop (--arrival closed), not to --arrival poisson"), l.problems());
        assertEquals(List.of("--rate needs --arrival constant or poisson", "--ramp-up must be a duration >= 0, got -1.0 s"),
                LoadShape.DEFAULTS.withRateRps(5.0).withRampUpS(-1.0).problems());
    }

    @Test
    void withDurationChangesOnlyTheTimeBound() {
        LoadShape l = LoadShape.DEFAULTS.withArrival(ArrivalMode.CONSTANT).withRateRps(2.0);
        assertEquals(new LoadShape(60, 20, 0, ArrivalMode.CONSTANT, 2.0, null, 30.0, null), l.withDurationS(30.0));
    }

    @Test
    void anInfiniteOrNanRateIsNamedAsSuch() {
        // fresh-user finding: --rate Infinity said "needs --rate > 0"
        assertEquals(List.of("--rate must be a finite number of requests per second, got Infinity"),
                LoadShape.DEFAULTS.withArrival(ArrivalMode.CONSTANT).withRateRps(Double.POSITIVE_INFINITY).problems());
        assertEquals(List.of("--rate must be a finite number of requests per second, got NaN"),
                LoadShape.DEFAULTS.withArrival(ArrivalMode.POISSON).withRateRps(Double.NaN).problems());
    }
}
