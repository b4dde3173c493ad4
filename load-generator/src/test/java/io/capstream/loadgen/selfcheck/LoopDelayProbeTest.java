package io.capstream.loadgen.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LoopDelayProbeTest {
    private static final long MS = 1_000_000L;
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setBlockedThreadCheckInterval(60_000));
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    @Test
    void aOneMsFireIsRecordedExactlyAsJHiccupDoes() {
        Histogram ours = new Histogram(60_000_000_000L, 3);
        Histogram jhiccup = new Histogram(60_000_000_000L, 3);
        for (long d : new long[] {40_000L, 900_000L, 3_500_000L, 25 * MS}) {
            LoopDelayProbe.record(ours, d, 1);
            jhiccup.recordValueWithExpectedInterval(d, MS);
        }
        assertEquals(jhiccup, ours);
    }

    @Test
    void aFireCountsOncePerMsOfItsPeriodAndItsStallIsFilledInAtOneMsSteps() {
        Histogram h = new Histogram(60_000_000_000L, 3);
        LoopDelayProbe.record(h, 200_000L, 10); // an idle loop, on time: 10 ms of time at 0.2 ms
        assertEquals(10, h.getTotalCount());
        assertEquals(10, h.getCountAtValue(200_000L));
        LoopDelayProbe.record(h, 4 * MS, 10); // 4 ms late: 10 ms at 4 ms, then the stall's 3, 2 and 1 ms once each
        assertEquals(10 + 10 + 3, h.getTotalCount());
        assertEquals(10, h.getCountAtValue(4 * MS));
        assertEquals(1, h.getCountAtValue(3 * MS));
        assertEquals(1, h.getCountAtValue(MS));
        // shares of time: 10 of 23 ms at 0.2 ms, so the p50 is the stall's
        assertTrue(h.getValueAtPercentile(50) >= MS, "p50 " + h.getValueAtPercentile(50));
    }

    @Test
    void theOneMsPeriodIsForABusyLoopTheTenMsPeriodForAnIdleOne() {
        assertEquals(1, LoopDelayProbe.nextPeriodMs(200_000L, MS, true), "20% on CPU");
        assertEquals(1, LoopDelayProbe.nextPeriodMs(100_000L, MS, true), "10% on CPU");
        assertEquals(10, LoopDelayProbe.nextPeriodMs(30_000L, MS, true), "a wake-up's 30 us in 1 ms: idle");
        assertEquals(10, LoopDelayProbe.nextPeriodMs(500_000L, 10 * MS, true), "5% on CPU");
        assertEquals(1, LoopDelayProbe.nextPeriodMs(-1, 10 * MS, false), "CPU time unknown: 1 ms");
    }

    /**
     * The probe's decisions driven with given clocks (no timer, no wall-clock timing): an idle loop (30 us of CPU
     * per wake-up) is fired at most once per 5 ms, a loop half on CPU at least once per 4 ms, and in both the
     * histogram's count is the probed time in ms.
     */
    @Test
    void anIdleLoopIsProbedEveryTenMsAndABusyOneEveryMs() {
        Simulated idle = Simulated.run(300, 0.0, 30_000L);
        assertTrue(idle.fires.fires <= idle.elapsedMs() / 5, idle.fires.fires + " fires in " + idle.elapsedMs() + " ms");
        assertEquals(idle.probedMs, idle.fires.histogram.getTotalCount(), "counts are the probed ms: " + idle);
        assertEquals(LoopDelayProbe.IDLE_PERIOD_MS, idle.fires.periodMs, "idle period at the end: " + idle);

        Simulated busy = Simulated.run(300, 0.5, 0L);
        assertTrue(busy.fires.fires >= busy.elapsedMs() / 4, busy.fires.fires + " fires in " + busy.elapsedMs() + " ms");
        assertEquals(busy.probedMs, busy.fires.histogram.getTotalCount(), "counts are the probed ms: " + busy);
        assertEquals(LoopDelayProbe.BUSY_PERIOD_MS, busy.fires.periodMs, "busy period at the end: " + busy);
    }

    @Test
    void aLoopThatTurnsBusyIsProbedEveryMsFromTheNextFire() {
        LoopDelayProbe.Fires f = new LoopDelayProbe.Fires();
        long now = 0;
        long cpu = 0;
        long period = f.arm(now, cpu);
        for (int i = 0; i < 5; i++) { // idle: 10 ms periods after the first fire
            now += period * MS + 100_000L;
            cpu += 30_000L;
            period = f.fired(now, cpu);
        }
        assertEquals(10, period, "idle");
        now += period * MS + 100_000L;
        cpu += 5 * MS; // half of the last 10 ms on CPU
        assertEquals(1, f.fired(now, cpu), "busy: the next fire is 1 ms away");
    }

    @Test
    void aLateFireOfAnIdleLoopWeighsItsPeriodAndItsStall() {
        LoopDelayProbe.Fires f = new LoopDelayProbe.Fires();
        long period = f.arm(0, 0);
        long now = period * MS;
        period = f.fired(now, 10_000L); // on time, idle: 10 ms next
        assertEquals(10, period);
        now += period * MS + 4 * MS; // 4 ms late
        f.fired(now, 20_000L);
        Histogram h = f.histogram;
        assertEquals(1 + 10 + 3, h.getTotalCount(), "1 ms, then 10 ms at 4 ms and the stall's 3, 2 and 1 ms");
        assertEquals(10, h.getCountAtValue(4 * MS), "the late fire's period");
    }

    /** A real event loop: the probe fires and counts (no assertion on how often: that is the simulated test's). */
    @Test
    void theProbeRunsOnARealEventLoop() throws Exception {
        Context ctx = ((VertxInternal) vertx).createEventLoopContext();
        LoopDelayProbe probe = new LoopDelayProbe(vertx, List.of(ctx));
        probe.start().await(10, TimeUnit.SECONDS);
        assertEquals(1, probe.threads().size(), "the loop's thread is known after start");
        await(50);
        Histogram h = probe.stop().await(10, TimeUnit.SECONDS);
        assertTrue(probe.fires() >= 1, "fires: " + probe.fires());
        assertTrue(h.getTotalCount() >= probe.fires(), h.getTotalCount() + " counts for " + probe.fires() + " fires");
    }

    /**
     * A loop driven for {@code ms} of simulated time: each fire comes 0.1 ms after it is due, and between fires the
     * thread is on CPU for {@code cpuShare} of the wall time plus {@code cpuPerWakeNs}.
     */
    private record Simulated(LoopDelayProbe.Fires fires, long endNs, long probedMs) {
        static Simulated run(long ms, double cpuShare, long cpuPerWakeNs) {
            LoopDelayProbe.Fires f = new LoopDelayProbe.Fires();
            long now = 0;
            long cpu = 0;
            long probed = 0;
            long period = f.arm(now, cpu);
            while (now < ms * MS) {
                long wall = period * MS + 100_000L;
                now += wall;
                cpu += (long) (cpuShare * wall) + cpuPerWakeNs;
                probed += period;
                period = f.fired(now, cpu);
            }
            return new Simulated(f, now, probed);
        }

        double elapsedMs() {
            return endNs / 1e6;
        }

        @Override
        public String toString() {
            return fires.fires + " fires, " + probedMs + " probed ms, " + fires.histogram.getTotalCount() + " counts in "
                    + elapsedMs() + " ms";
        }
    }

    private static void await(long ms) throws Exception {
        Promise<Void> p = Promise.promise();
        vertx.setTimer(ms, id -> p.complete());
        p.future().await(10, TimeUnit.SECONDS);
    }
}
