package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
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
                "--arrival poisson needs --rate > 0 (requests per second) or --rate-schedule",
                "--max-in-flight must be between 1 and 100000, got 0",
                "--duration must be a positive number of seconds, got -1.0",
                "--ramp-up applies to the closed loop (--arrival closed), not to --arrival poisson"), l.problems());
        assertEquals(List.of("--rate needs --arrival constant, poisson or gamma", "--ramp-up must be a duration >= 0, got -1.0 s"),
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

    @Test
    void burstinessIsAPositiveGammaShapeGivenWithGammaOnly() {
        LoadShape gamma = LoadShape.DEFAULTS.withArrival(ArrivalMode.GAMMA).withRateRps(40.0);
        assertThat(gamma.withBurstiness(0.25).problems()).as("gamma at 40 req/s, B = 0.25").isEmpty();
        assertThat(gamma.problems()).as("gamma without --burstiness").containsExactly(
                "--arrival gamma needs --burstiness B > 0 (the gamma shape: 1 = Poisson, smaller is burstier)");
        assertThat(gamma.withBurstiness(-1.0).problems()).as("a negative burstiness").containsExactly(
                "--burstiness must be a number > 0 (the gamma shape: 1 = Poisson, smaller is burstier), got -1.0");
        assertThat(gamma.withBurstiness(0.0).problems()).as("a burstiness of 0").containsExactly(
                "--burstiness must be a number > 0 (the gamma shape: 1 = Poisson, smaller is burstier), got 0.0");
        assertThat(gamma.withBurstiness(Double.NaN).problems()).as("NaN").hasSize(1);
        assertThat(gamma.withArrival(ArrivalMode.POISSON).withBurstiness(0.5).problems()).as("burstiness with poisson")
                .containsExactly("--burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival"
                        + " poisson");
        assertThat(LoadShape.DEFAULTS.withBurstiness(0.5).problems()).as("burstiness with the closed loop")
                .containsExactly("--burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival"
                        + " closed");
    }

    @Test
    void aRateScheduleReplacesTheRateOfAnOpenLoopOnly() {
        RateSchedule r = RateSchedule.parse("0s:2,60s:20");
        for (ArrivalMode m : List.of(ArrivalMode.CONSTANT, ArrivalMode.POISSON)) {
            assertThat(LoadShape.DEFAULTS.withArrival(m).withRateSchedule(r).problems()).as("%s on a schedule", m)
                    .isEmpty();
        }
        assertThat(LoadShape.DEFAULTS.withArrival(ArrivalMode.GAMMA).withBurstiness(0.5).withRateSchedule(r).problems())
                .as("gamma on a schedule").isEmpty();
        assertThat(LoadShape.DEFAULTS.withArrival(ArrivalMode.POISSON).withRateRps(3.0).withRateSchedule(r).problems())
                .as("--rate and --rate-schedule").containsExactly("--rate and --rate-schedule both give the rate: give"
                        + " one (the schedule's rate at 0s is its first)");
        assertThat(LoadShape.DEFAULTS.withRateSchedule(r).problems()).as("the closed loop")
                .containsExactly("--rate-schedule needs an open loop: --arrival constant, poisson or gamma");
        assertThat(LoadShape.DEFAULTS.withArrival(ArrivalMode.TRACE).withRateSchedule(r).problems()).as("a trace")
                .containsExactly("--rate-schedule does not apply to --trace: the trace's timestamps are the arrivals");
    }

    @Test
    void theSteadyStateWindowMustStartWithinTheDuration() {
        LoadShape l = LoadShape.DEFAULTS.withSteadyState(SteadyStateWindow.parse("10:70"));
        assertThat(l.problems()).as("a window without --duration").isEmpty();
        assertThat(l.withDurationS(60.0).problems()).as("a window ending after --duration (clipped)").isEmpty();
        assertThat(l.withDurationS(10.0).problems()).as("a window starting at --duration")
                .containsExactly("--steady-state 10:70 starts at or after the --duration of 10.0 s");
    }
}
