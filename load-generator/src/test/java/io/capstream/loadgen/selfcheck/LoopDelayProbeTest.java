package io.capstream.loadgen.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import java.lang.management.ManagementFactory;
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

    @Test
    void anIdleLoopIsProbedEveryTenMsAndABusyOneEveryMs() throws Exception {
        Context ctx = ((VertxInternal) vertx).createEventLoopContext();
        LoopDelayProbe idleProbe = new LoopDelayProbe(vertx, List.of(ctx));
        idleProbe.start().await(10, TimeUnit.SECONDS);
        long idleStart = System.nanoTime();
        await(300);
        Histogram idle = idleProbe.stop().await(10, TimeUnit.SECONDS);
        double idleMs = (System.nanoTime() - idleStart) / 1e6;
        // ~30 fires at 10 ms (the first at 1 ms) where a 1 ms timer fires ~300 times; the counts are probed ms
        assertTrue(idleProbe.fires() <= idleMs / 5, idleProbe.fires() + " fires in " + idleMs + " ms");
        assertTrue(idle.getTotalCount() >= 200 && idle.getTotalCount() <= idleMs + 50,
                idle.getTotalCount() + " counts in " + idleMs + " ms");

        LoopDelayProbe busyProbe = new LoopDelayProbe(vertx, List.of(ctx));
        busyProbe.start().await(10, TimeUnit.SECONDS);
        // keep the loop about half on CPU for 300 ms: 0.5 ms of CPU every ms
        Promise<Void> done = Promise.promise();
        long busyStart = System.nanoTime();
        vertx.setPeriodic(1, id -> {
            spinCpu(500_000L);
            if (System.nanoTime() - busyStart > 300 * MS) {
                vertx.cancelTimer(id);
                done.tryComplete();
            }
        });
        done.future().await(10, TimeUnit.SECONDS);
        Histogram busy = busyProbe.stop().await(10, TimeUnit.SECONDS);
        double busyMs = (System.nanoTime() - busyStart) / 1e6;
        assertTrue(busyProbe.fires() >= busyMs / 4, busyProbe.fires() + " fires in " + busyMs + " ms");
        assertTrue(busy.getTotalCount() >= 200, busy.getTotalCount() + " counts in " + busyMs + " ms");
    }

    private static void spinCpu(long ns) {
        var mx = ManagementFactory.getThreadMXBean();
        long end = mx.getCurrentThreadCpuTime() + ns;
        while (mx.getCurrentThreadCpuTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void await(long ms) throws Exception {
        Promise<Void> p = Promise.promise();
        vertx.setTimer(ms, id -> p.complete());
        p.future().await(10, TimeUnit.SECONDS);
    }
}
