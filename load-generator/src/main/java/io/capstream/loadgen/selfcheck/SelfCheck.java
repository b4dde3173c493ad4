package io.capstream.loadgen.selfcheck;

import io.capstream.schemas.avro.ClientCheck;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The generator's self-check of one run (issue: "a self-check in every report"), measured from T0
 * to the end of the slowest request: the event loops' timer delay ({@link LoopDelayProbe}), the
 * process's and the event loops' CPU time, the machine's CPU use, GC pauses, client-side queueing
 * and achieved concurrency. {@link #stop} turns it into the {@link ClientCheck} record that
 * RunFinished carries and the report shows under {@code capstream.client}, with one warning per
 * condition under which the client may have added to the measured times:
 * <ul>
 *   <li>event-loop delay p99 above {@value #DELAY_P99_LIMIT_MS} ms (with at least {@value #MIN_DELAY_SAMPLES} samples);</li>
 *   <li>an event-loop thread on CPU for at least {@value #LOOP_BUSY_LIMIT} of the wall clock (a saturated core);</li>
 *   <li>a GC pause longer than {@value #GC_PAUSE_LIMIT_MS} ms;</li>
 *   <li>a target on this machine, its CPUs at least {@value #MACHINE_BUSY_LIMIT} busy, and capstream using at
 *       least {@value #SHARE_LIMIT} of them: the client competed with the engine.</li>
 * </ul>
 * {@link #request} and {@link #inFlight} are thread-safe and cheap (event loops call them per request).
 */
public final class SelfCheck {
    /** Event-loop delay p99 above which the report is flagged, ms. */
    public static final double DELAY_P99_LIMIT_MS = 5.0;
    /** Share of the wall clock one event loop may be on CPU before it counts as saturated. */
    public static final double LOOP_BUSY_LIMIT = 0.9;
    /** Longest GC pause before the report is flagged, ms. */
    public static final double GC_PAUSE_LIMIT_MS = 5.0;
    /** Machine CPU share above which the CPUs count as saturated. */
    public static final double MACHINE_BUSY_LIMIT = 0.95;
    /** Share of the machine's CPU time that capstream may take from a local engine on saturated CPUs. */
    public static final double SHARE_LIMIT = 0.05;
    private static final long MAX_TRACKABLE_NS = 3_600_000_000_000L;
    /**
     * Delay samples (ms of probed time, {@link LoopDelayProbe}'s weights: 100 ms) below which the delay percentiles
     * are too few to warn on.
     */
    static final long MIN_DELAY_SAMPLES = 100;

    private final LoopDelayProbe probe;
    private final CpuClock cpu = new CpuClock();
    private final GcMonitor gc = new GcMonitor();
    private final boolean localTarget;
    private final ConcurrentHistogram queue = new ConcurrentHistogram(MAX_TRACKABLE_NS, 3);
    private final LongAdder e2eSumNs = new LongAdder();
    private final LongAdder chunks = new LongAdder();
    private final AtomicInteger inFlightMax = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();
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
     * @param queueNs client-side queueing (start − scheduled start), ns (negative counts as 0)
     * @param e2eNs   t0 to the end (or the failure), ns; negative when unknown (not counted)
     * @param chunks  content and reasoning chunks it received
     */
    public void request(long queueNs, long e2eNs, int chunks) {
        queue.recordValue(Math.min(MAX_TRACKABLE_NS, Math.max(0, queueNs)));
        if (e2eNs > 0) {
            e2eSumNs.add(e2eNs);
        }
        this.chunks.add(Math.max(0, chunks));
        requests.incrementAndGet();
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
        Double delayP50 = delays.getTotalCount() == 0 ? null : delays.getValueAtPercentile(50) / 1e6;
        Double delayP99 = delays.getTotalCount() == 0 ? null : delays.getValueAtPercentile(99) / 1e6;
        Double delayMax = delays.getTotalCount() == 0 ? null : delays.getMaxValue() / 1e6;
        Histogram q = queue.copy();
        boolean anyRequest = requests.get() > 0;

        List<String> warnings = new ArrayList<>();
        if (delayP99 != null && delayP99 > DELAY_P99_LIMIT_MS && delays.getTotalCount() >= MIN_DELAY_SAMPLES) {
            warnings.add(String.format(Locale.ROOT, "event-loop delay p99 %.1f ms > %.0f ms: chunks may have been"
                    + " timestamped up to that late", delayP99, DELAY_P99_LIMIT_MS));
        }
        if (loopCpuKnown && busyMax >= LOOP_BUSY_LIMIT) {
            warnings.add(String.format(Locale.ROOT, "an event loop was on CPU %.0f%% of the run: the client saturated"
                    + " a core", 100 * busyMax));
        }
        if (gc.pauseMaxMs() > GC_PAUSE_LIMIT_MS) {
            warnings.add(String.format(Locale.ROOT, "GC paused the client for up to %.1f ms", gc.pauseMaxMs()));
        }
        if (localTarget && machineBusy != null && processMs != null && wallNs > 0 && machineBusy >= MACHINE_BUSY_LIMIT) {
            double share = processMs * 1e6 / ((double) wallNs * cores);
            if (share >= SHARE_LIMIT) {
                warnings.add(String.format(Locale.ROOT, "this machine's CPUs were %.0f%% busy (by anything) and capstream"
                        + " used %.0f%% of them: a target on this machine may have run slower", 100 * machineBusy,
                        100 * share));
            }
        }
        return ClientCheck.newBuilder()
                .setWarmupLoopbackRequests(warmup.loopbackRequests())
                .setWarmupLoopbackMs(warmup.loopbackMs())
                .setWarmupLoopbackFirstUsPerRequest(warmup.firstUsPerRequest())
                .setWarmupLoopbackLastUsPerRequest(warmup.lastUsPerRequest())
                .setWarmupTargetRequests(warmup.targetRequests())
                .setWarmupTargetFailed(warmup.targetFailed())
                .setDelaySamples(delays.getTotalCount())
                .setDelayP50Ms(delayP50)
                .setDelayP99Ms(delayP99)
                .setDelayMaxMs(delayMax)
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
                .setQueueP50Ms(anyRequest ? q.getValueAtPercentile(50) / 1e6 : null)
                .setQueueP99Ms(anyRequest ? q.getValueAtPercentile(99) / 1e6 : null)
                .setQueueMaxMs(anyRequest ? q.getMaxValue() / 1e6 : null)
                .setInFlightMax(inFlightMax.get())
                .setInFlightMean(wallNs > 0 ? (double) e2eSumNs.sum() / wallNs : null)
                .setEventDelivery(eventDelivery)
                .setDistorted(!warnings.isEmpty())
                .setWarnings(List.copyOf(warnings))
                .build();
    }
}
