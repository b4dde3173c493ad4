package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ContextPlan;
import io.capstream.schemas.load.RateSchedule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long a distributed run's coordinator expects the run itself to take, with a rate schedule (issue 30). */
class DistributedWaitBoundTest {
    private static RunPlan plan(RunConfig c, int n) {
        return new RunPlan(c, 4096, ContextPlan.of(new int[n], null), ApiKey.none());
    }

    @Test
    void aScheduledOpenLoopTakesTheTimeItsScheduleNeedsForThePlannedRequests() {
        RunConfig base = RunConfig.of(TargetConfig.of("http://127.0.0.1:1/v1", "m"));
        // 10 req/s for 10 s, then 20 req/s: 100 arrivals by 10 s, 300 by 20 s
        RunConfig rising = base.withLoad(l -> l.withArrival(ArrivalMode.POISSON)
                .withRateSchedule(RateSchedule.parse("0s:10,10s:10,10.001s:20")));
        assertThat(DistributedRunStep.waitBound(rising, plan(rising, 300)).toMillis())
                .as("300 requests on a schedule reaching 20 req/s").isBetween(19_900L, 20_100L);
        // ending at 0 after 30 s: the schedule offers nothing after its last point, whatever was planned
        RunConfig ending = base.withLoad(l -> l.withArrival(ArrivalMode.POISSON)
                .withRateSchedule(RateSchedule.parse("0s:10,10s:10,30s:0")));
        assertThat(DistributedRunStep.waitBound(ending, plan(ending, 205))).as("a schedule ending at rate 0")
                .isEqualTo(Duration.ofSeconds(30));
        RunConfig constant = base.withLoad(l -> l.withArrival(ArrivalMode.POISSON).withRateRps(4.0));
        assertThat(DistributedRunStep.waitBound(constant, plan(constant, 40))).as("a constant rate")
                .isEqualTo(Duration.ofSeconds(10));
    }
}
