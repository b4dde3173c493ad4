package io.capstream.loadgen.continuous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.WarmupConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each continuous run's config: only its identity, its duration (steady) and its warm-up change. */
class ContinuousConfigTest {
    private static RunConfig.Builder b() {
        return RunConfig.builder("http://127.0.0.1:8000/v1", "m").warmup(WarmupConfig.DEFAULTS);
    }

    @Test
    void probeRunsDeriveTheirIdsAndOnlyTheFirstWarmsUp() {
        ContinuousConfig c = ContinuousConfig.of(b().runIdSuffix("x").build(), Duration.ofSeconds(10));
        assertEquals(ContinuousConfig.Mode.PROBE, c.mode());
        RunConfig first = c.runConfig(0);
        assertEquals("x-c0", first.runIdSuffix());
        assertNull(first.runId());
        assertEquals(WarmupConfig.DEFAULTS, first.warmup());
        RunConfig second = c.runConfig(1);
        assertEquals("x-c1", second.runIdSuffix());
        assertEquals(WarmupConfig.NONE, second.warmup());
        assertEquals(c.base().target(), second.target());
        assertEquals(c.base().load(), second.load());
        assertEquals(c.base().request(), second.request());
        assertEquals("c2", ContinuousConfig.of(b().build(), Duration.ofSeconds(10)).runConfig(2).runIdSuffix());
        assertEquals("r-3", ContinuousConfig.of(b().runId("r").build(), Duration.ofSeconds(10)).runConfig(3).runId());
    }

    @Test
    void steadyRunsLastOneIntervalEach() {
        ContinuousConfig c = ContinuousConfig.of(b().arrival(ArrivalMode.CONSTANT).rateRps(2.0).build(),
                Duration.ofMillis(1500));
        assertEquals(ContinuousConfig.Mode.STEADY, c.mode());
        assertEquals(1.5, c.runConfig(0).durationS());
        assertNull(c.base().durationS());
        assertEquals(2.0, c.runConfig(0).rateRps());
    }
}
