package io.capstream.loadgen.continuous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.WarmupConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each continuous run's config: only its identity, its duration (steady) and its warm-up change. */
class ContinuousConfigTest {
    private static RunConfig b() {
        return RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"))
                .withWarmup(WarmupConfig.DEFAULTS);
    }

    @Test
    void probeRunsDeriveTheirIdsAndOnlyTheFirstWarmsUp() {
        ContinuousConfig c = ContinuousConfig.of(b().withIdentity(i -> i.withRunIdSuffix("x")), Duration.ofSeconds(10));
        assertEquals(ContinuousConfig.Mode.PROBE, c.mode());
        RunConfig first = c.runConfig(0);
        assertEquals("x-c0", first.identity().runIdSuffix());
        assertNull(first.identity().runId());
        assertEquals(WarmupConfig.DEFAULTS, first.warmup());
        RunConfig second = c.runConfig(1);
        assertEquals("x-c1", second.identity().runIdSuffix());
        assertEquals(WarmupConfig.NONE, second.warmup());
        assertEquals(c.base().target(), second.target());
        assertEquals(c.base().load(), second.load());
        assertEquals(c.base().request(), second.request());
        assertEquals("c2", ContinuousConfig.of(b(), Duration.ofSeconds(10)).runConfig(2).identity().runIdSuffix());
        assertEquals("r-3", ContinuousConfig.of(b().withIdentity(i -> i.withRunId("r")), Duration.ofSeconds(10)).runConfig(3).identity().runId());
    }

    @Test
    void steadyRunsLastOneIntervalEach() {
        ContinuousConfig c = ContinuousConfig.of(b().withLoad(l -> l.withArrival(ArrivalMode.CONSTANT).withRateRps(2.0)),
                Duration.ofMillis(1500));
        assertEquals(ContinuousConfig.Mode.STEADY, c.mode());
        assertEquals(1.5, c.runConfig(0).load().durationS());
        assertNull(c.base().load().durationS());
        assertEquals(2.0, c.runConfig(0).load().rateRps());
    }
}
