package io.capstream.cli.rerun;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunPlanner;
import io.capstream.loadgen.run.RunStartedMapping;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code capstream rerun} of an open loop with the arrival shapes of issue 30: the same gamma burstiness, rate
 * schedule and steady-state window, so the same arrival offsets.
 */
class RerunArrivalsTest {
    private static RunStarted recorded(RunConfig c) {
        int n = RunPlanner.plannedRequests(c);
        RunPlan plan = new RunPlan(c, 4096, ContextPlan.of(new int[n], null), ApiKey.none());
        return RunStartedMapping.toRunStarted(plan).setStartedAt("2026-12-05T00:00:00Z").setStartedAtEpochMs(0)
                .build();
    }

    private static List<Long> offsets(RunConfig c, int n) {
        ArrivalSchedule s = new ArrivalSchedule(c.load().arrivalProcess(), c.identity().seed());
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(s.next());
        }
        return out;
    }

    @Test
    void theRerunSendsTheOriginalsScheduleAndBurstiness() {
        RunConfig original = RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"))
                .withLoad(l -> l.withArrival(ArrivalMode.GAMMA).withBurstiness(0.25).withDurationS(20.0)
                        .withRateSchedule(RateSchedule.parse("0s:2,5s:20,15s:20,20s:2"))
                        .withSteadyState(SteadyStateWindow.parse("5:15")))
                .withIdentity(i -> i.withSeed(17));
        RunStarted rs = recorded(original);
        assertThat(rs.getRateSchedule()).as("recorded schedule").isEqualTo("0s:2,5s:20,15s:20,20s:2");
        assertThat(rs.getBurstiness()).as("recorded burstiness").isEqualTo(0.25);
        RunConfig command = RunConfig.of(TargetConfig.of("http://127.0.0.1:2/v1", "m2"));
        RunConfig rerun = RerunWorkload.apply(command, rs, "run-0", "run-1");
        assertThat(rerun.load().arrival()).as("arrival").isEqualTo(ArrivalMode.GAMMA);
        assertThat(rerun.load().burstiness()).as("burstiness").isEqualTo(0.25);
        assertThat(rerun.load().rateSchedule()).as("rate schedule").isEqualTo(original.load().rateSchedule());
        assertThat(rerun.load().rateRps()).as("no constant rate beside the schedule").isNull();
        assertThat(rerun.load().steadyState()).as("steady-state window").isEqualTo(original.load().steadyState());
        assertThat(rerun.load().problems()).as("the rerun's load is valid").isEmpty();
        int n = RunPlanner.plannedRequests(original);
        assertThat(RunPlanner.plannedRequests(rerun)).as("planned requests").isEqualTo(n).isEqualTo(rs.getRequests());
        assertThat(offsets(rerun, n)).as("the rerun's arrival offsets").isEqualTo(offsets(original, n));
    }
}
