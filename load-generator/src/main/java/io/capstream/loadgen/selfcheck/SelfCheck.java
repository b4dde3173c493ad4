package io.capstream.loadgen.selfcheck;

import io.capstream.schemas.avro.ClientCheck;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * The generator's self-check of one run (issue: "a self-check in every report"), measured from T0
 * to the end of the slowest request: the event loops' timer delay ({@link LoopDelayProbe}), the
 * process's and the event loops' CPU time, the machine's CPU use, GC pauses and achieved concurrency.
 * {@link #stop} turns it into the {@link ClientCheck} record that RunFinished carries. It sends raw
 * measurements only: the delay probe's histogram as recorded ({@code delay_histogram}), counts, CPU and GC
 * times, and whether the target is on this machine. The report's statistics of the check (the delay and
 * client-queueing percentiles, {@code distorted} and {@code warnings}) are computed by the aggregator
 * ({@code ClientCheckCalculator}), the queueing from the run's request events.
 * {@link #request} and {@link #inFlight} are thread-safe and cheap (event loops call them per request).
 */
public final class SelfCheck {
    private final LoopDelayProbe probe;
    private final CpuClock cpu = new CpuClock();
    private final GcMonitor gc = new GcMonitor();
    private final boolean localTarget;
    private final LongAdder e2eSumNs = new LongAdder();
    private final LongAdder chunks = new LongAdder();
    private final AtomicInteger inFlightMax = new AtomicInteger();
    private List<Thread> loopThreads = List.of();
    private long[] loopCpu0;
    private long processCpu0;
    private long[] machine0;

    private SelfCheck(Vertx vertx, List<Context> contexts, boolean localTarget) {
        this.probe = new LoopDelayProbe(vertx, contexts);
        this.localTarget = localTarget;
    }

    /**
     * Starts measuring: arms the delay probe on every context and reads the CPU clocks.
     *
     * @param vertx       Vert.x of the contexts
     * @param contexts    the event-loop contexts that carry the run's requests; not empty
     * @param localTarget whether the target listens on this machine (loopback), for the shared-CPU warning
     * @return the running self-check, once the probe is armed
     */
    public static Future<SelfCheck> start(Vertx vertx, List<Context> contexts, boolean localTarget) {
        SelfCheck s = new SelfCheck(vertx, contexts, localTarget);
        return s.probe.start().map(v -> {
            s.loopThreads = s.probe.threads();
            s.gc.start();
            s.loopCpu0 = s.cpu.threadCpuNs(s.loopThreads);
            s.processCpu0 = s.cpu.processCpuNs();
            s.machine0 = s.cpu.machineJiffies();
            return s;
        });
    }

    /**
     * Records one ended request.
     *
     * @param e2eNs   t0 to the end (or the failure), ns; negative when unknown (not counted)
     * @param chunks  content and reasoning chunks it received
     */
    public void request(long e2eNs, int chunks) {
        if (e2eNs > 0) {
            e2eSumNs.add(e2eNs);
        }
        this.chunks.add(Math.max(0, chunks));
    }

    /** @param n requests in flight right now */
    public void inFlight(int n) {
        inFlightMax.accumulateAndGet(n, Math::max);
    }

    /**
     * Stops measuring and builds the record.
     *
     * @param wallNs        the run's wall clock (T0 to the end of the slowest request), ns
     * @param warmup        what ran before T0; not null
     * @param eventDelivery "live" or "deferred" (see {@code ClientCheck.event_delivery})
     * @return the self-check record
     */
    public Future<ClientCheck> stop(long wallNs, WarmupResult warmup, String eventDelivery) {
        long processCpu1 = cpu.processCpuNs();
        long[] loopCpu1 = cpu.threadCpuNs(loopThreads);
        long[] machine1 = cpu.machineJiffies();
        gc.stop();
        return probe.stop().map(delays -> build(delays, wallNs, warmup, eventDelivery, processCpu1, loopCpu1, machine1));
    }

    private ClientCheck build(Histogram delays, long wallNs, WarmupResult warmup, String eventDelivery,
                              long processCpu1, long[] loopCpu1, long[] machine1) {
        int cores = Runtime.getRuntime().availableProcessors();
        Double processMs = processCpu0 >= 0 && processCpu1 >= 0 ? (processCpu1 - processCpu0) / 1e6 : null;
        double loopsMs = 0;
        double busyMax = 0;
        boolean loopCpuKnown = !loopThreads.isEmpty();
        for (int i = 0; i < loopCpu1.length; i++) {
            if (loopCpu0[i] < 0 || loopCpu1[i] < 0) {
                loopCpuKnown = false;
                continue;
            }
            double ns = loopCpu1[i] - loopCpu0[i];
            loopsMs += ns / 1e6;
            if (wallNs > 0) {
                busyMax = Math.max(busyMax, ns / wallNs);
            }
        }
        Double machineBusy = null;
        if (machine0 != null && machine1 != null && machine1[1] > machine0[1]) {
            machineBusy = (double) (machine1[0] - machine0[0]) / (machine1[1] - machine0[1]);
        }
        long chunkCount = chunks.sum();
        return ClientCheck.newBuilder()
                .setWarmupLoopbackRequests(warmup.loopbackRequests())
                .setWarmupLoopbackMs(warmup.loopbackMs())
                .setWarmupLoopbackFirstUsPerRequest(warmup.firstUsPerRequest())
                .setWarmupLoopbackLastUsPerRequest(warmup.lastUsPerRequest())
                .setWarmupTargetRequests(warmup.targetRequests())
                .setWarmupTargetFailed(warmup.targetFailed())
                .setDelaySamples(delays.getTotalCount())
                .setDelayHistogram(encoded(delays))
                .setTargetLocal(localTarget)
                .setCpuProcessMs(processMs)
                .setCpuEventLoopsMs(loopCpuKnown ? loopsMs : null)
                .setCpuEventLoopBusyMax(loopCpuKnown ? busyMax : null)
                .setCpuMachineBusy(machineBusy)
                .setCpuCores(cores)
                .setCpuMsPer1000Chunks(loopCpuKnown && chunkCount > 0 ? loopsMs * 1000.0 / chunkCount : null)
                .setStreamChunks(chunkCount)
                .setGcCollector(gc.collectors())
                .setGcPauses(gc.pauses())
                .setGcPauseMs(gc.pauseMs())
                .setGcPauseMaxMs(gc.pauseMaxMs())
                .setGcConcurrentMs(gc.concurrentMs())
                .setInFlightMax(inFlightMax.get())
                .setInFlightMean(wallNs > 0 ? (double) e2eSumNs.sum() / wallNs : null)
                .setEventDelivery(eventDelivery)
                .build();
    }

    /**
     * @param h a histogram; not null
     * @return its compressed encoding ({@link Histogram#encodeIntoCompressedByteBuffer}), the bytes only
     */
    static ByteBuffer encoded(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return ByteBuffer.wrap(Arrays.copyOf(buf.array(), n));
    }
}
