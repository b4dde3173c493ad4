package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.schemas.load.SteadyStateWindow;
import org.junit.jupiter.api.Test;

/** A sweep step keeps the arrival shape of its base run (issue 30): gamma's burstiness, the steady-state window. */
class LoadAxisArrivalsTest {
    private static final RunConfig BASE = RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"));

    @Test
    void aRateStepOfAGammaSweepKeepsItsBurstinessAndWindow() {
        RunConfig base = BASE.withLoad(l -> l.withArrival(ArrivalMode.GAMMA).withBurstiness(0.5)
                .withSteadyState(SteadyStateWindow.parse("5:25")));
        RunConfig step = LoadAxis.RATE.apply(base, 8);
        assertThat(step.load().arrival()).as("arrival of the step").isEqualTo(ArrivalMode.GAMMA);
        assertThat(step.load().rateRps()).as("rate of the step").isEqualTo(8.0);
        assertThat(step.load().burstiness()).as("burstiness of the step").isEqualTo(0.5);
        assertThat(step.load().steadyState()).as("steady-state window of the step").isEqualTo(base.load().steadyState());
        assertThat(step.load().problems()).as("the step's load is valid").isEmpty();
    }

    @Test
    void aConcurrencyStepKeepsTheWindowAndABurstinessForTheRulesToRefuse() {
        RunConfig base = BASE.withLoad(l -> l.withBurstiness(0.5).withSteadyState(SteadyStateWindow.parse("5:25")));
        RunConfig step = LoadAxis.CONCURRENCY.apply(base, 4);
        assertThat(step.load().steadyState()).as("steady-state window").isEqualTo(base.load().steadyState());
        assertThat(step.load().problems()).as("a closed-loop step with --burstiness").containsExactly(
                "--burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival closed");
    }

    @Test
    void aStepIsOneLoadWithoutTheRateSchedule() {
        // sweep refuses --rate-schedule itself ("sweep does not take --rate-schedule"), so no step adds the load
        // rules' "--rate-schedule needs an open loop" beside it
        RunConfig base = BASE.withLoad(l -> l.withArrival(ArrivalMode.POISSON)
                .withRateSchedule(io.capstream.schemas.load.RateSchedule.parse("0s:1,10s:5")));
        assertThat(LoadAxis.RATE.apply(base, 8).load().rateSchedule()).as("a rate step's schedule").isNull();
        assertThat(LoadAxis.CONCURRENCY.apply(base, 8).load().problems()).as("a concurrency step's problems")
                .isEmpty();
    }
}
