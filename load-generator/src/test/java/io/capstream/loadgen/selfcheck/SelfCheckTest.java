package io.capstream.loadgen.selfcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.ClientCheck;
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

class SelfCheckTest {
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setBlockedThreadCheckInterval(60_000));
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private static List<Context> contexts(int n) {
        List<Context> l = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(((VertxInternal) vertx).createEventLoopContext());
        }
        return l;
    }

    @Test
    void aBlockedEventLoopShowsUpAsDelayAndTheCountsAreTheRecordedOnes() throws Exception {
        List<Context> ctx = contexts(2);
        SelfCheck sc = SelfCheck.start(vertx, ctx, true).await(10, TimeUnit.SECONDS);
        // keep one loop on CPU for 40 ms of its own CPU time: its probe timer fires at least 35 ms late
        Promise<Void> blocked = Promise.promise();
        ctx.get(0).runOnContext(v -> {
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long until = mx.getCurrentThreadCpuTime() + 40_000_000L;
            while (mx.getCurrentThreadCpuTime() < until) {
                Thread.onSpinWait();
            }
            blocked.complete();
        });
        blocked.future().await(10, TimeUnit.SECONDS);
        // let the probe fire again after the block, on both loops (enough periods for the delay warning)
        Promise<Void> later = Promise.promise();
        vertx.setTimer(60, id -> later.complete());
        later.future().await(10, TimeUnit.SECONDS);
        sc.inFlight(3);
        sc.inFlight(2);
        sc.request(100_000_000L, 10);
        sc.request(100_000_000L, 5);
        sc.request(-1, 0);
        ClientCheck c = sc.stop(100_000_000L, new WarmupResult(500, 1234.5, 800.0, 60.0, 2, 1), "deferred")
                .await(10, TimeUnit.SECONDS);
        Histogram delays = Histogram.decodeFromCompressedByteBuffer(c.getDelayHistogram(), 0);
        assertThat(delays.getMaxValue() / 1e6).as("the 40 ms block: max delay, ms, in the raw histogram")
                .isGreaterThanOrEqualTo(30);
        assertThat(c.getDelaySamples()).as("samples: the raw histogram's count").isEqualTo(delays.getTotalCount())
                .isGreaterThanOrEqualTo(100);
        assertThat(c.getTargetLocal()).as("target_local").isTrue();
        assertEquals(3, c.getInFlightMax());
        assertEquals(2.0, c.getInFlightMean(), 1e-9, "two requests of 100 ms in a 100 ms wall clock");
        assertEquals(15, c.getStreamChunks());
        assertEquals(500, c.getWarmupLoopbackRequests());
        assertEquals(1234.5, c.getWarmupLoopbackMs());
        assertEquals(800.0, c.getWarmupLoopbackFirstUsPerRequest());
        assertEquals(2, c.getWarmupTargetRequests());
        assertEquals(1, c.getWarmupTargetFailed());
        assertEquals("deferred", c.getEventDelivery());
        assertEquals(Runtime.getRuntime().availableProcessors(), c.getCpuCores());
        assertNotNull(c.getCpuProcessMs());
        assertTrue(c.getCpuEventLoopsMs() >= 30, "the busy loop's 40 ms of CPU: " + c.getCpuEventLoopsMs());
        assertTrue(c.getCpuEventLoopBusyMax() >= 0.3, "40 ms busy in a 100 ms wall clock: " + c.getCpuEventLoopBusyMax());
        assertNotNull(c.getGcCollector());
        // raw data only: the statistics are the aggregator's (ClientCheckCalculator)
        assertThat(List.of(c.getDelayP50Ms() == null, c.getDelayP99Ms() == null, c.getDelayMaxMs() == null,
                c.getQueueP50Ms() == null, c.getQueueP99Ms() == null, c.getQueueMaxMs() == null))
                .as("percentiles the generator leaves to the aggregator: %s", c).containsOnly(true);
        assertThat(c.getDistorted()).as("distorted").isFalse();
        assertThat(c.getWarnings()).as("warnings").isEmpty();
    }

    @Test
    void withoutRequestsTheDistributionsAreNull() throws Exception {
        SelfCheck sc = SelfCheck.start(vertx, contexts(1), false).await(10, TimeUnit.SECONDS);
        ClientCheck c = sc.stop(0, WarmupResult.NONE, "live").await(10, TimeUnit.SECONDS);
        assertNull(c.getQueueP50Ms());
        assertNull(c.getInFlightMean());
        assertNull(c.getCpuMsPer1000Chunks());
        assertEquals(0, c.getWarmupLoopbackRequests());
        assertThat(c.getTargetLocal()).as("target_local").isFalse();
    }

    @Test
    void procStatLineGivesBusyAndTotalJiffies() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        assertArrayEquals(new long[] {100 + 5 + 50 + 3 + 2 + 1, 100 + 5 + 50 + 800 + 40 + 3 + 2 + 1},
                CpuClock.parseCpuLine("cpu  100 5 50 800 40 3 2 1 7 0"));
        assertNull(CpuClock.parseCpuLine("cpu0 1 2 3 4 5"));
        assertNull(CpuClock.parseCpuLine(""));
    }

    @Test
    void concurrentCyclesAreNotPauses() {
        GcMonitor gc = new GcMonitor();
        gc.record("ZGC Cycles", 120);
        gc.record("ZGC Pauses", 0.5);
        gc.record("ZGC Pauses", 1.5);
        gc.record("G1 Young Generation", 7);
        gc.record("G1 Concurrent GC", 30);
        assertEquals(3, gc.pauses());
        assertEquals(9.0, gc.pauseMs(), 1e-9);
        assertEquals(7.0, gc.pauseMaxMs(), 1e-9);
        assertEquals(150.0, gc.concurrentMs(), 1e-9);
    }
}
